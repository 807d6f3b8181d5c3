// golden::up_port_mask and golden::ar_port_groups on a small fat tree, against the port numbers
// topology.h's construction rules give by hand: 16 hosts, radix 8, 2 levels -> 4 leaves (ports
// 0-3 hosts, 4-7 up), 2 spines, 2 parallel cables per leaf-spine pair; leaf up port u = 4..7
// goes to spine (u - 4) % 2, arriving at spine port leaf * 2 + (u - 4) / 2.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "golden/fault_routing.h"
#include "golden/multipath_groups.h"
#include "golden/topology.h"

using namespace ndr::golden;

TEST_CASE("multipath groups: up ports and AR groups of a 2-level fat tree",
          "[golden][multipath_groups]") {
    const topology t = build_fat_tree(16, 8, 2);
    REQUIRE(t.switches.size() == 6);
    for (uint32_t leaf = 0; leaf < 4; ++leaf) {
        CHECK(up_port_mask(t, leaf) == 0xF0U);
        const std::vector<uint64_t> g = ar_port_groups(t, leaf);
        REQUIRE(g.size() == 8);
        for (uint32_t p = 0; p < 4; ++p) CHECK(g[p] == (uint64_t{1} << p));  // host ports
        for (uint32_t p = 4; p < 8; ++p) CHECK(g[p] == 0xF0U);               // any up port
    }
    for (uint32_t spine = 4; spine < 6; ++spine) {
        CHECK(up_port_mask(t, spine) == 0);
        const std::vector<uint64_t> g = ar_port_groups(t, spine);
        for (uint32_t p = 0; p < 8; ++p) {
            CHECK(g[p] == (uint64_t{3} << (p / 2 * 2)));  // the two cables to leaf p / 2
        }
    }
    CHECK_THROWS_AS(up_port_mask(t, 6), std::out_of_range);
}

TEST_CASE("multipath groups: a dead cable leaves both groups", "[golden][multipath_groups]") {
    const topology t = build_fat_tree(16, 8, 2);
    // Leaf 1's up port 6 (u = 2) goes to spine 0 (switch 4), its port 1 * 2 + 1 = 3.
    REQUIRE(t.switches[1].peers[6].node == 4);
    REQUIRE(t.switches[1].peers[6].port == 3);
    const topology live = without_cables(t, {topo_port_ref{1, 6}});
    CHECK(up_port_mask(live, 1) == 0xB0U);
    CHECK(ar_port_groups(live, 1)[4] == 0xB0U);
    CHECK(ar_port_groups(live, 4)[2] == 0x4U);  // leaf 1's remaining cable to spine 0
    CHECK(ar_port_groups(live, 4)[3] == 0x8U);  // the dead port: itself only
    CHECK(up_port_mask(live, 0) == 0xF0U);      // other leaves unchanged
}
