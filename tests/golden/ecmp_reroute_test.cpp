// golden::reroute_ecmp (RoCE's ECMP sets after a link fault, docs/roce.md 'Link faults') against
// sets worked out by hand on two 2-level fat trees of radix-8 switches (leaf ports 0-3 hosts,
// 4-7 up; golden::build_fat_tree numbers leaves first, then spines).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "golden/fault_routing.h"
#include "golden/topology.h"

using namespace ndr::golden;

TEST_CASE("reroute_ecmp: one cable per leaf-spine pair, leaf 0's first uplink down",
          "[fault_routing][ecmp]") {
    // 32 hosts: leaves 0-7 (hosts 4l..4l+3), spines 8-11; leaf port 4+k -> spine 8+k.
    const topology t = build_fat_tree(32, 8, 2);
    REQUIRE(t.switches.size() == 12);
    for (uint32_t k = 0; k < 4; ++k) REQUIRE(t.switches[0].peers[4 + k].node == 8 + k);
    const auto sets = reroute_ecmp(t, {topo_port_ref{0, 4}});
    REQUIRE(sets.size() == 12);
    for (uint32_t s = 0; s < 12; ++s) {
        REQUIRE(sets[s].size() == 32);
        for (uint32_t d = 0; d < 32; ++d) {
            INFO("switch " << s << " host " << d);
            uint64_t want = 0;  // spines and a destination's own leaf: no up set
            if (s < 8 && d / 4 != s) {
                // Leaf 0 lost port 4; every other leaf must avoid spine 8 (port 4) for leaf 0's
                // hosts, since spine 8 no longer reaches leaf 0.
                want = (s == 0 || d / 4 == 0) ? 0xE0 : 0xF0;
            }
            CHECK(sets[s][d] == want);
        }
    }
}

TEST_CASE("reroute_ecmp: two cables per leaf-spine pair keep the spine", "[fault_routing][ecmp]") {
    // 16 hosts: leaves 0-3, spines 4-5, two cables per pair. Leaf 0 loses port 4; its spine
    // still reaches leaf 0 over the parallel cable, so only leaf 0's own set shrinks.
    const topology t = build_fat_tree(16, 8, 2);
    const uint32_t spine = t.switches[0].peers[4].node;
    REQUIRE(spine >= 4);
    const auto sets = reroute_ecmp(t, {topo_port_ref{0, 4}});
    for (uint32_t s = 0; s < 4; ++s) {
        for (uint32_t d = 0; d < 16; ++d) {
            INFO("leaf " << s << " host " << d);
            const uint64_t want = d / 4 == s ? 0 : (s == 0 ? 0xE0 : 0xF0);
            CHECK(sets[s][d] == want);
        }
    }
    CHECK(sets[spine][0] == 0);  // spines route down: no ECMP set
}

TEST_CASE("reroute_ecmp down: a spine's parallel cables without the dead one",
          "[fault_routing][ecmp]") {
    // 16 hosts: spine 4's ports 0, 1 go to leaf 0 (leaf ports 4, 6), 2, 3 to leaf 1, 4, 5 to
    // leaf 2, 6, 7 to leaf 3. Leaf 0 port 4 (spine 4 port 0) down: with `down`, spine 4 sends
    // leaf 0's hosts over port 1 only, the other leaves' hosts over both of their cables; the
    // leaves' up sets are as without `down`.
    const topology t = build_fat_tree(16, 8, 2);
    REQUIRE(t.switches[4].peers[0].node == 0);
    REQUIRE(t.switches[4].peers[0].port == 4);
    REQUIRE(t.switches[4].peers[1].node == 0);
    const auto down = reroute_ecmp(t, {topo_port_ref{0, 4}}, true);
    const auto up = reroute_ecmp(t, {topo_port_ref{0, 4}});
    for (uint32_t d = 0; d < 16; ++d) {
        INFO("host " << d);
        const uint32_t leaf = d / 4;
        CHECK(down[4][d] == (leaf == 0 ? 0x2 : uint64_t{0x3} << (2 * leaf)));
        CHECK(down[5][d] == uint64_t{0x3} << (2 * leaf));  // spine 5 keeps both cables
        CHECK(up[4][d] == 0);
        for (uint32_t s = 0; s < 4; ++s) CHECK(down[s][d] == up[s][d]);
    }
}

TEST_CASE("reroute_ecmp: no dead cable = every up port for every remote host",
          "[fault_routing][ecmp]") {
    const topology t = build_fat_tree(32, 8, 2);
    const auto sets = reroute_ecmp(t, {});
    for (uint32_t d = 0; d < 32; ++d) CHECK(sets[1][d] == (d / 4 == 1 ? 0 : 0xF0));
}
