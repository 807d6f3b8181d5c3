// Unit parsing and printing: exact integer arithmetic, hand-computed values.
#include <catch2/catch.hpp>

#include "config/config_error.h"
#include "config/scalar_parse.h"
#include "config/unit_parse.h"

using namespace ndr::cfg;

TEST_CASE("sizes parse exactly", "[config]") {
    CHECK(parse_bytes("32KiB").count == 32768);
    CHECK(parse_bytes("64B").count == 64);
    CHECK(parse_bytes("4096").count == 4096);  // plain integer = bytes
    CHECK(parse_bytes("1MiB").count == 1048576);
    CHECK(parse_bytes("1GiB").count == 1073741824);
    CHECK(parse_bytes("2KB").count == 2000);
    CHECK(parse_bytes("1.5KiB").count == 1536);
    CHECK(parse_bytes("3MB").count == 3000000);
    CHECK(parse_bytes("1GB").count == 1000000000);
    CHECK(parse_bytes(" 8 KiB ").count == 8192);  // spaces around and before the unit
    CHECK(parse_bytes("0").count == 0);
}

TEST_CASE("times parse exactly", "[config]") {
    CHECK(parse_time("1.28ns").ps == 1280);
    CHECK(parse_time("4.096us").ps == 4096000);
    CHECK(parse_time("0.5ns").ps == 500);
    CHECK(parse_time("300ns").ps == 300000);
    CHECK(parse_time("5ps").ps == 5);
    CHECK(parse_time("2ms").ps == 2000000000);
    CHECK(parse_time("1s").ps == 1000000000000);
    CHECK(parse_time("1.000ps").ps == 1);  // trailing zeros are not precision
    CHECK(parse_time("0.001ns").ps == 1);
}

TEST_CASE("rates and lengths parse exactly", "[config]") {
    CHECK(parse_rate("400Gbps").bps == 400000000000);
    CHECK(parse_rate("200Gbps").bps == 200000000000);
    CHECK(parse_rate("100Mbps").bps == 100000000);
    CHECK(parse_rate("1.6Tbps").bps == 1600000000000);
    CHECK(parse_rate("10Kbps").bps == 10000);
    CHECK(parse_rate("7bps").bps == 7);
    CHECK(parse_rate("50GBps").bps == 400000000000);  // bytes per second
    CHECK(parse_rate("1MBps").bps == 8000000);
    CHECK(parse_length("3m").mm == 3000);
    CHECK(parse_length("250cm").mm == 2500);
    CHECK(parse_length("2.5m").mm == 2500);
    CHECK(parse_length("7mm").mm == 7);
    CHECK(parse_length("0.1km").mm == 100000);
}

TEST_CASE("malformed or inexact unit values are rejected", "[config]") {
    CHECK_THROWS_AS(parse_time("32"), config_error);  // a time needs a unit
    CHECK_THROWS_WITH(parse_time("32"), Catch::Contains("needs a unit"));
    CHECK_THROWS_WITH(parse_time("-5ns"), Catch::Contains("negative"));
    CHECK_THROWS_WITH(parse_time("1.2345ps"), Catch::Contains("not a whole number of picoseconds"));
    CHECK_THROWS_WITH(parse_bytes("12XB"),
                      Catch::Contains("expected a size like 32KiB, got '12XB'"));
    CHECK_THROWS_WITH(parse_rate("400Gb"),
                      Catch::Contains("expected a rate like 400Gbps, got '400Gb'"));
    CHECK_THROWS_WITH(parse_bytes("32KB/s"),
                      Catch::Contains("expected a size like 32KiB, got '32KB/s'"));
    CHECK_THROWS_AS(parse_bytes("0.5B"), config_error);
    CHECK_THROWS_AS(parse_bytes(""), config_error);
    CHECK_THROWS_AS(parse_bytes("KiB"), config_error);
    CHECK_THROWS_AS(parse_bytes("1.KiB"), config_error);
    CHECK_THROWS_AS(parse_bytes(".5KiB"), config_error);
    CHECK_THROWS_AS(parse_bytes("+5B"), config_error);
    CHECK_THROWS_AS(parse_bytes("1e3B"), config_error);
    CHECK_THROWS_AS(parse_time("5NS"), config_error);  // units are case-sensitive
    CHECK_THROWS_AS(parse_length("0.1mm"), config_error);
    CHECK_THROWS_WITH(parse_bytes("99999999999999999999"), Catch::Contains("too large"));
    CHECK_THROWS_WITH(parse_time("18446745s"), Catch::Contains("too large"));
}

TEST_CASE("values print in the nicest exact unit and parse back", "[config]") {
    CHECK(format_bytes(bytes_t{32768}) == "32KiB");
    CHECK(format_bytes(bytes_t{64}) == "64B");
    CHECK(format_bytes(bytes_t{1536}) == "1.5KiB");
    CHECK(format_bytes(bytes_t{2000}) == "2KB");
    CHECK(format_bytes(bytes_t{4160}) == "4160B");
    CHECK(format_bytes(bytes_t{0}) == "0B");
    CHECK(format_time(time_ps_t{300000}) == "300ns");
    CHECK(format_time(time_ps_t{4096000}) == "4.096us");
    CHECK(format_time(time_ps_t{1280}) == "1.28ns");
    CHECK(format_time(time_ps_t{1}) == "1ps");
    CHECK(format_time(time_ps_t{0}) == "0ns");
    CHECK(format_time(time_ps_t{1000000000000}) == "1s");
    CHECK(format_time(time_ps_t{1234567}) == "1234.567ns");
    CHECK(format_time(time_ps_t{999}) == "999ps");
    CHECK(format_rate(rate_bps_t{400000000000}) == "400Gbps");
    CHECK(format_rate(rate_bps_t{1600000000000}) == "1.6Tbps");
    CHECK(format_length(length_mm_t{3000}) == "3m");
    CHECK(format_length(length_mm_t{250}) == "25cm");
    CHECK(format_length(length_mm_t{255}) == "25.5cm");
    CHECK(format_length(length_mm_t{1500000}) == "1.5km");

    const uint64_t samples[] = {0,
                                1,
                                7,
                                63,
                                64,
                                999,
                                1000,
                                1023,
                                1024,
                                1280,
                                4096,
                                4224,
                                65536,
                                131072,
                                300000,
                                4096000,
                                123456789,
                                1000000000000ULL,
                                18446744073709551615ULL};
    for (uint64_t v : samples) {
        CAPTURE(v);
        CHECK(parse_bytes(format_bytes(bytes_t{v})).count == v);
        CHECK(parse_time(format_time(time_ps_t{v})).ps == v);
        CHECK(parse_rate(format_rate(rate_bps_t{v})).bps == v);
        CHECK(parse_length(format_length(length_mm_t{v})).mm == v);
    }
}

TEST_CASE("whole numbers, reals and booleans", "[config]") {
    CHECK(parse_uint("64") == 64);
    CHECK(parse_uint("18446744073709551615") == 18446744073709551615ULL);
    CHECK_THROWS_WITH(parse_uint("8.5"), Catch::Contains("expected a whole number"));
    CHECK_THROWS_AS(parse_uint("-1"), config_error);
    CHECK_THROWS_WITH(parse_uint("70000", 65535), Catch::Contains("too large"));
    CHECK(parse_real("1.25") == 1.25);
    CHECK(parse_real("1") == 1.0);
    CHECK_THROWS_AS(parse_real("fast"), config_error);
    CHECK_THROWS_AS(parse_real("nan"), config_error);
    CHECK_THROWS_AS(parse_real("1.5x"), config_error);
    CHECK(parse_bool("true"));
    CHECK_FALSE(parse_bool("false"));
    CHECK_THROWS_WITH(parse_bool("maybe"), Catch::Contains("expected true or false"));
    CHECK(format_real(1.25) == "1.25");
    CHECK(parse_real(format_real(0.1)) == 0.1);
}
