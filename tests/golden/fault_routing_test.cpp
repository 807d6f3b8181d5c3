// golden::reroute_lfts: the LFTs after a cable goes down avoid it, still deliver every host to
// every host (traced with golden::route over the topology without the cable, which throws on
// an unconnected port), stay deadlock-free, and leave every route that did not use the cable
// as it was (the subnet manager replaces only the broken entries).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "golden/fault_routing.h"
#include "golden/topology.h"
#include "golden/updown_routing.h"

using namespace ndr::golden;

namespace {

bool uses(const std::vector<route_hop>& path, const topology& t, topo_port_ref end) {
    const topo_peer& far = t.switches[end.node].peers[end.port];
    for (const route_hop& h : path) {
        if (h.sw == end.node && h.out_port == end.port) return true;
        if (h.sw == far.node && h.out_port == far.port) return true;
    }
    return false;
}

void check_reroute(const topology& t, topo_port_ref dead) {
    const std::vector<lft> before = compute_updown_lfts(t);
    const std::vector<lft> after = reroute_lfts(t, before, {dead});
    const topology live = without_cables(t, {dead});
    REQUIRE(live.links.size() == t.links.size() - 1);
    uint32_t moved = 0;
    for (uint32_t s = 0; s < t.hosts; ++s) {
        for (uint32_t d = 0; d < t.hosts; ++d) {
            INFO("route " << s << " -> " << d);
            std::vector<route_hop> path;
            REQUIRE_NOTHROW(path = route(live, after, s, d));  // reaches d, no dead port
            CHECK_FALSE(uses(path, t, dead));
            const std::vector<route_hop> old = route(t, before, s, d);
            if (!uses(old, t, dead)) {
                CHECK(path.size() == old.size());
                for (std::size_t i = 0; i < path.size() && i < old.size(); ++i) {
                    CHECK(path[i].out_port == old[i].out_port);
                }
            } else {
                ++moved;
            }
        }
    }
    CHECK(moved > 0);  // the cable carried routes before
    CHECK(is_deadlock_free(live, after));
}

}  // namespace

TEST_CASE("reroute_lfts: full 2-level fat tree radix 8 leaf 0 uplink 0 down", "[fault_routing]") {
    const topology t = build_fat_tree(32, 8, 2);  // 8 leaves, 4 spines, one cable per pair
    check_reroute(t, topo_port_ref{0, 4});
}

TEST_CASE("reroute_lfts: 2-level fat tree with parallel cables, spine end named",
          "[fault_routing]") {
    const topology t = build_fat_tree(16, 8, 2);   // 4 leaves, 2 spines, 2 cables per pair
    const topo_peer far = t.switches[1].peers[5];  // leaf 1 uplink 1, named by its spine end
    check_reroute(t, topo_port_ref{far.node, far.port});
}

TEST_CASE("reroute_lfts: 3-level fat tree radix 4 aggregation uplink down", "[fault_routing]") {
    const topology t = build_fat_tree(16, 4, 3);
    uint32_t agg = t.switch_id(1, 0);
    check_reroute(t, topo_port_ref{agg, 2});
}

TEST_CASE("without_cables: an uncabled port is rejected", "[fault_routing]") {
    const topology t = build_fat_tree(6, 8, 2);
    CHECK_THROWS_AS(without_cables(t, {topo_port_ref{1, 3}}),
                    std::invalid_argument);  // leaf 1: 2 hosts
}

TEST_CASE("reroute_ar_groups: full fat tree radix 4, leaf 0's cable to spine 0 down",
          "[fault_routing]") {
    // 8 hosts, radix 4: 4 leaves (ports 0-1 hosts, 2-3 up), 2 spines; leaf l's up port 2 + u
    // goes to spine u (switch 4 + u), its port l. By hand, with leaf 0 port 2 <-> spine 0 port 0
    // dead: to a host of leaf 0 (hosts 0, 1) spine 0 has no way down, so the other leaves may
    // only go up to spine 1 (port 3); to any other host leaf 0 has only port 3 left; spines go
    // down their one cable to the host's leaf; a leaf to its own hosts: 0 (no AR choice).
    const topology t = build_fat_tree(8, 4, 2);
    REQUIRE(t.switches[0].peers[2].node == 4);
    const std::vector<std::vector<uint64_t>> g = reroute_ar_groups(t, {topo_port_ref{0, 2}});
    REQUIRE(g.size() == 6);
    for (uint32_t d = 0; d < 8; ++d) {
        INFO("destination host " << d);
        const uint32_t leaf = d / 2;
        for (uint32_t l = 0; l < 4; ++l) {
            uint64_t want = 0xCU;  // both up ports
            if (l == leaf)
                want = 0;  // its own leaf
            else if (leaf == 0 || l == 0)
                want = 0x8U;  // only via spine 1
            CHECK(g[l][d] == want);
        }
        CHECK(g[4][d] == (leaf == 0 ? 0U : uint64_t{1} << leaf));  // spine 0: cut off from leaf 0
        CHECK(g[5][d] == uint64_t{1} << leaf);
    }
}

TEST_CASE("reroute_ar_groups: parallel cables keep the spine's second cable", "[fault_routing]") {
    // 16 hosts, radix 8 (see multipath_groups_test): leaf 1 port 6 <-> spine 0 (switch 4) port 3.
    const topology t = build_fat_tree(16, 8, 2);
    const std::vector<std::vector<uint64_t>> g = reroute_ar_groups(t, {topo_port_ref{1, 6}});
    for (uint32_t d = 0; d < 16; ++d) {
        INFO("destination host " << d);
        const uint32_t leaf = d / 4;
        CHECK(g[0][d] == (leaf == 0 ? 0U : 0xF0U));
        CHECK(g[1][d] == (leaf == 1 ? 0U : 0xB0U));
        CHECK(g[4][d] == (leaf == 1 ? 0x4U : uint64_t{3} << (2 * leaf)));
        CHECK(g[5][d] == uint64_t{3} << (2 * leaf));
    }
}
