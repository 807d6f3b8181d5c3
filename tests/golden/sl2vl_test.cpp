// SL-to-VL table golden model (docs/domain.md §3).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>

#include "golden/sl2vl.h"

using namespace ndr::golden;
using Catch::Matchers::Contains;

TEST_CASE("sl2vl modulo default", "[sl2vl]") {
    const sl2vl_table t2 = sl2vl_table::modulo(2);
    for (uint8_t sl = 0; sl < 16; ++sl) CHECK(t2.vl(sl) == sl % 2);
    const sl2vl_table t3 = sl2vl_table::modulo(3);
    CHECK(t3.vl(0) == 0);
    CHECK(t3.vl(4) == 1);
    CHECK(t3.vl(14) == 2);
    CHECK(t3.vl(15) == 0);
    const sl2vl_table t15 = sl2vl_table::modulo(15);
    CHECK(t15.vl(14) == 14);
    CHECK(t15.vl(15) == 0);  // never 15 (= drop) by default
    CHECK(sl2vl_table::modulo(1).vl(9) == 0);
    CHECK_THROWS_AS(sl2vl_table::modulo(0), std::invalid_argument);
    CHECK_THROWS_AS(sl2vl_table::modulo(16), std::invalid_argument);
    CHECK(t3.vl(0x13) == t3.vl(3));  // SL is 4 bits
}

TEST_CASE("sl2vl validate", "[sl2vl]") {
    std::array<uint8_t, 16> m{};
    m[5] = 2;
    CHECK_THROWS_WITH(sl2vl_table(m).validate(2), Contains("SL 5 maps to VL 2"));
    CHECK_NOTHROW(sl2vl_table(m).validate(3));
    m[5] = 15;  // drop
    CHECK_NOTHROW(sl2vl_table(m).validate(1));
    m[5] = 16;
    CHECK_THROWS_AS(sl2vl_table(m).validate(15), std::invalid_argument);
    CHECK_THROWS_AS(sl2vl_table(m).validate(0), std::invalid_argument);
}

TEST_CASE("sl2vl parse", "[sl2vl]") {
    const sl2vl_table t = sl2vl_table::parse("0,1,0,1,0,1,0,1,0,1,0,1,0,1,1,15", 2);
    CHECK(t.vl(0) == 0);
    CHECK(t.vl(13) == 1);
    CHECK(t.vl(14) == 1);
    CHECK(t.vl(15) == 15);
    const sl2vl_table s = sl2vl_table::parse(" 1, 0,1,0, 1,0,1,0,1,0,1,0,1,0,1, 0 ", 2);
    CHECK(s.vl(0) == 1);
    CHECK(s.vl(15) == 0);
    CHECK(sl2vl_table::parse("", 3).entries() == sl2vl_table::modulo(3).entries());
    CHECK(sl2vl_table::parse("  ", 2).entries() == sl2vl_table::modulo(2).entries());
}

TEST_CASE("sl2vl parse errors", "[sl2vl]") {
    CHECK_THROWS_WITH(sl2vl_table::parse("0,1,0,1,0,1,0,1,0,1,0,1,0,1,0", 2), Contains("got 15"));
    CHECK_THROWS_WITH(sl2vl_table::parse("0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0", 2),
                      Contains("got 17"));
    CHECK_THROWS_WITH(sl2vl_table::parse("0,1,0,x,0,1,0,1,0,1,0,1,0,1,0,1", 2),
                      Contains("bad token \"x\" for SL 3"));
    CHECK_THROWS_WITH(sl2vl_table::parse("0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,16", 15),
                      Contains("bad token \"16\" for SL 15"));
    CHECK_THROWS_WITH(sl2vl_table::parse("0,1,0,1,0,1,0,1,0,1,0,1,0,,0,1", 2),
                      Contains("bad token \"\" for SL 13"));
    CHECK_THROWS_WITH(sl2vl_table::parse("0,1,0,1,0,-1,0,1,0,1,0,1,0,1,0,1", 2),
                      Contains("\"-1\""));
    CHECK_THROWS_WITH(sl2vl_table::parse("0,1,0,1,0,2,0,1,0,1,0,1,0,1,0,1", 2),
                      Contains("SL 5 maps to VL 2"));
    CHECK_THROWS_AS(sl2vl_table::parse("", 0), std::invalid_argument);
}
