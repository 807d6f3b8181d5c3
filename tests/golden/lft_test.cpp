// Linear forwarding table golden model (docs/domain.md §4).
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "golden/lft.h"

using namespace ndr::golden;

TEST_CASE("lft lookup, set and growth", "[lft]") {
    lft t(100);
    CHECK(t.top_lid() == 100);
    CHECK(t.num_blocks() == 2);
    CHECK(t.port(0) == LFT_NO_ROUTE);
    CHECK(t.port(100) == LFT_NO_ROUTE);
    CHECK(t.port(101) == LFT_NO_ROUTE);  // beyond the table
    t.set(1, 0);                         // port 0 = switch management port
    t.set(100, 63);
    CHECK(t.port(1) == 0);
    CHECK(t.port(100) == 63);
    t.set(100, LFT_NO_ROUTE);
    CHECK(t.port(100) == LFT_NO_ROUTE);
    t.set(200, 7);  // grows
    CHECK(t.top_lid() == 200);
    CHECK(t.port(200) == 7);
    CHECK(t.port(150) == LFT_NO_ROUTE);
    CHECK(t.port(1) == 0);

    lft empty;
    CHECK(empty.top_lid() == 0);
    CHECK(empty.num_blocks() == 1);
    CHECK(empty.port(0) == LFT_NO_ROUTE);

    CHECK_THROWS_AS(lft(0xC000), std::invalid_argument);
    CHECK_THROWS_AS(t.set(0xC000, 1), std::invalid_argument);
    CHECK_THROWS_AS(t.set(0xFFFF, 1), std::invalid_argument);
    CHECK(t.port(0xFFFF) == LFT_NO_ROUTE);
}

TEST_CASE("lft blocks of 64 entries", "[lft]") {
    lft t(100);
    for (uint16_t lid = 60; lid <= 100; ++lid) t.set(lid, static_cast<uint8_t>(lid - 60));
    const std::vector<uint8_t> b0 = t.block(0);
    REQUIRE(b0.size() == 64);
    CHECK(b0[0] == LFT_NO_ROUTE);
    CHECK(b0[59] == LFT_NO_ROUTE);
    CHECK(b0[60] == 0);
    CHECK(b0[63] == 3);
    const std::vector<uint8_t> b1 = t.block(1);  // DLIDs 64..127, table ends at 100
    REQUIRE(b1.size() == 64);
    CHECK(b1[0] == 4);    // DLID 64
    CHECK(b1[36] == 40);  // DLID 100
    CHECK(b1[37] == LFT_NO_ROUTE);
    CHECK(b1[63] == LFT_NO_ROUTE);
    CHECK(t.block(5) == std::vector<uint8_t>(64, LFT_NO_ROUTE));
    CHECK(t.block(767) == std::vector<uint8_t>(64, LFT_NO_ROUTE));
    CHECK_THROWS_AS(t.block(768), std::invalid_argument);

    lft full(LID_UNICAST_MAX);
    full.set(LID_UNICAST_MAX, 9);
    CHECK(full.num_blocks() == 768);
    CHECK(full.block(767)[63] == 9);
    CHECK(full.block(767)[62] == LFT_NO_ROUTE);
}
