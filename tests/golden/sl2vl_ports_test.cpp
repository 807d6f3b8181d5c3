// SL-to-VL per (input port, output port) pair (golden/sl2vl_ports.h, docs/domain.md §3).
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "golden/sl2vl.h"
#include "golden/sl2vl_ports.h"

using Catch::Matchers::Contains;
using ndr::golden::sl2vl_ports;
using ndr::golden::sl2vl_table;

namespace {
const std::string ALL_15 = "15,15,15,15,15,15,15,15,15,15,15,15,15,15,15,15";
const std::string ALL_1 = "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1";
}  // namespace

TEST_CASE("sl2vl_ports: empty = the switch-wide table on every pair", "[sl2vl]") {
    const sl2vl_ports t = sl2vl_ports::parse(sl2vl_table::modulo(2), "  ", 4, 2);
    CHECK_FALSE(t.per_port());
    for (uint32_t i = 0; i < 4; ++i) {
        for (uint32_t o = 0; o < 4; ++o) {
            for (uint8_t sl = 0; sl < 16; ++sl) CHECK(t.vl(i, o, sl) == sl % 2);
        }
    }
}

TEST_CASE("sl2vl_ports: overrides per pair, wildcards, later entries win", "[sl2vl]") {
    // Every pair into port 3 maps all SLs to VL1; then (0 -> 3) drops; (1 -> 2) drops.
    const sl2vl_ports t =
        sl2vl_ports::parse(sl2vl_table::modulo(2),
                           "*:3=" + ALL_1 + ";0:3=" + ALL_15 + "; 1 : 2 = " + ALL_15 + ";", 4, 2);
    CHECK(t.per_port());
    CHECK(t.vl(0, 3, 0) == 15);
    CHECK(t.vl(1, 3, 0) == 1);
    CHECK(t.vl(2, 3, 4) == 1);
    CHECK(t.vl(1, 2, 7) == 15);
    CHECK(t.vl(2, 1, 4) == 0);  // untouched pair: SL mod 2
    CHECK(t.vl(2, 1, 5) == 1);
}

TEST_CASE("sl2vl_ports: bad entries name themselves", "[sl2vl]") {
    const sl2vl_table b = sl2vl_table::modulo(2);
    CHECK_THROWS_WITH(sl2vl_ports::parse(b, "0-1=" + ALL_1, 4, 2), Contains("not IN:OUT="));
    CHECK_THROWS_WITH(sl2vl_ports::parse(b, "4:1=" + ALL_1, 4, 2), Contains("bad port \"4\""));
    CHECK_THROWS_WITH(sl2vl_ports::parse(b, "0:x=" + ALL_1, 4, 2), Contains("bad port \"x\""));
    CHECK_THROWS_WITH(sl2vl_ports::parse(b, "0:1=1,1", 4, 2), Contains("exactly 16"));
    CHECK_THROWS_WITH(sl2vl_ports::parse(b, "0:1=2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2", 4, 2),
                      Contains("only 2 data VL"));
}
