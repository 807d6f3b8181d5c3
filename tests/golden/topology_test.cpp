// Topology builders: single switch and pruned fat trees (docs/domain.md §4, §6; rules in
// models/golden/topology.h).
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "golden/lft.h"
#include "golden/topology.h"

using namespace ndr::golden;

namespace {

/// Cables between each (lower, upper) switch pair.
std::map<std::pair<uint32_t, uint32_t>, uint32_t> parallel_links(const topology& t) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> n;
    for (const topo_link& l : t.links) {
        if (!l.a_is_host) ++n[{l.a, l.b}];
    }
    return n;
}

/// Fat-tree invariants: below the top level, ports 0..h-1 face down (hosts or level-1
/// switches) and ports h..k-1 are all cabled to level+1 (full bisection); top-level switches
/// only face down; links are tiered by the lower level.
void check_fat_tree_shape(const topology& t) {
    REQUIRE_NOTHROW(t.validate());
    const uint32_t h = t.radix / 2;
    for (const topo_switch& s : t.switches) {
        const bool top = s.level + 1 == t.levels;
        for (uint32_t p = 0; p < s.radix; ++p) {
            const topo_peer& pe = s.peers[p];
            const bool down_port = top || p < h;
            if (down_port) {
                if (pe.kind == topo_peer_kind::sw) {
                    CHECK(t.switches[pe.node].level + 1 == s.level);
                } else if (pe.kind == topo_peer_kind::host) {
                    CHECK(s.level == 0);
                }
            } else {
                REQUIRE(pe.kind == topo_peer_kind::sw);
                CHECK(t.switches[pe.node].level == s.level + 1);
            }
        }
    }
    for (const topo_link& l : t.links) {
        if (l.a_is_host) {
            CHECK(l.tier == 0);
        } else {
            CHECK(l.tier == t.switches[l.a].level + 1);
        }
    }
}

}  // namespace

TEST_CASE("single switch with 8 hosts", "[topology]") {
    const topology t = build_single_switch(8, 64);
    REQUIRE_NOTHROW(t.validate());
    CHECK(t.hosts == 8);
    CHECK(t.radix == 64);
    CHECK(t.levels == 1);
    REQUIRE(t.switches.size() == 1);
    CHECK(t.links.size() == 8);
    for (uint32_t h = 0; h < 8; ++h) {
        CHECK(t.host_attach[h].node == 0);
        CHECK(t.host_attach[h].port == h);
        CHECK(t.switches[0].peers[h].kind == topo_peer_kind::host);
        CHECK(t.switches[0].peers[h].node == h);
    }
    CHECK(t.switches[0].peers[8].kind == topo_peer_kind::none);
    CHECK(build_fat_tree(8, 64, 1).switches.size() == 1);  // levels = 1 is a single switch
    CHECK(build_single_switch(5, 5).links.size() == 5);    // odd radix is fine for one switch
}

// Radix 4, 8 hosts, 2 levels (full tree: 4 leaves, 2 spines, one cable per leaf-spine pair).
// Switch ids: leaves 0..3, spines 4..5. Leaf l port 2 <-> spine 0 port l; leaf l port 3 <->
// spine 1 port l.
//
//              [ spine 0 (sw 4) ]                [ spine 1 (sw 5) ]
//                0   1   2   3                     0   1   2   3
//                |   |   |   |                     |   |   |   |
//              leaf0..leaf3 port 2                leaf0..leaf3 port 3
//
//         2 3          2 3          2 3          2 3
//      [ leaf 0 ]   [ leaf 1 ]   [ leaf 2 ]   [ leaf 3 ]
//         0 1          0 1          0 1          0 1
//        h0 h1        h2 h3        h4 h5        h6 h7
TEST_CASE("fat tree radix 4, 8 hosts, 2 levels: every cable", "[topology]") {
    const topology t = build_fat_tree(8, 4, 2);
    check_fat_tree_shape(t);
    CHECK(t.levels == 2);
    REQUIRE(t.switches.size() == 6);
    CHECK(t.switches_at_level(0) == 4);
    CHECK(t.switches_at_level(1) == 2);
    CHECK(t.switch_id(1, 1) == 5);
    CHECK_THROWS_AS(t.switch_id(2, 0), std::out_of_range);
    CHECK(t.links.size() == 16);
    for (uint32_t h = 0; h < 8; ++h) {
        CHECK(t.host_attach[h].node == h / 2);
        CHECK(t.host_attach[h].port == h % 2);
    }
    for (uint32_t l = 0; l < 4; ++l) {
        const topo_switch& leaf = t.switches[l];
        CHECK(leaf.level == 0);
        CHECK(leaf.index_in_level == l);
        CHECK(leaf.peers[2].kind == topo_peer_kind::sw);
        CHECK(leaf.peers[2].node == 4);
        CHECK(leaf.peers[2].port == l);
        CHECK(leaf.peers[3].node == 5);
        CHECK(leaf.peers[3].port == l);
        for (uint32_t s = 4; s <= 5; ++s) {
            CHECK(t.switches[s].peers[l].kind == topo_peer_kind::sw);
            CHECK(t.switches[s].peers[l].node == l);
            CHECK(t.switches[s].peers[l].port == 2 + (s - 4));
        }
    }
    for (const auto& [pair, n] : parallel_links(t)) CHECK(n == 1);
    const std::string d = t.describe();
    CHECK(d.find("fat_tree(8 hosts, radix 4, 2 levels)") != std::string::npos);
    CHECK(d.find("level 1 (spine): 2 switches, ports used 4..4 of 4") != std::string::npos);
    CHECK(d.find("tier 1: 8 links, 1..1 parallel per switch pair") != std::string::npos);
}

TEST_CASE("fat tree radix 8, pruned 2 levels", "[topology]") {
    SECTION("20 hosts: 5 leaves, 4 spines (smallest divisor of 4 >= ceil(5/2))") {
        const topology t = build_fat_tree(20, 8, 2);
        check_fat_tree_shape(t);
        CHECK(t.switches_at_level(0) == 5);
        CHECK(t.switches_at_level(1) == 4);
        CHECK(t.links.size() == 20 + 5 * 4);
        for (const auto& [pair, n] : parallel_links(t)) CHECK(n == 1);
        CHECK(parallel_links(t).size() == 20);  // every leaf to every spine
        // Leaf 3 uplink u (port 4 + u) -> spine u, spine port 3.
        for (uint32_t u = 0; u < 4; ++u) {
            const topo_peer& pe = t.switches[3].peers[4 + u];
            CHECK(pe.node == t.switch_id(1, u));
            CHECK(pe.port == 3);
        }
        for (uint32_t s = 0; s < 4; ++s) {  // spine ports 5..7 unused
            const topo_switch& sp = t.switches[t.switch_id(1, s)];
            CHECK(sp.peers[4].kind == topo_peer_kind::sw);
            CHECK(sp.peers[5].kind == topo_peer_kind::none);
        }
        CHECK(t.host_attach[19].node == 4);
        CHECK(t.host_attach[19].port == 3);
    }
    SECTION("12 hosts: 3 leaves, 2 spines, 2 parallel cables per leaf-spine pair") {
        const topology t = build_fat_tree(12, 8, 2);
        check_fat_tree_shape(t);
        CHECK(t.switches_at_level(0) == 3);
        CHECK(t.switches_at_level(1) == 2);
        for (const auto& [pair, n] : parallel_links(t)) CHECK(n == 2);
        // Leaf l uplink u -> spine u % 2, spine port 2*l + u/2.
        const topo_switch& leaf2 = t.switches[2];
        CHECK(leaf2.peers[4].node == 3);
        CHECK(leaf2.peers[4].port == 4);
        CHECK(leaf2.peers[5].node == 4);
        CHECK(leaf2.peers[5].port == 4);
        CHECK(leaf2.peers[6].node == 3);
        CHECK(leaf2.peers[6].port == 5);
        CHECK(leaf2.peers[7].node == 4);
        CHECK(leaf2.peers[7].port == 5);
        CHECK(t.describe().find("2..2 parallel") != std::string::npos);
    }
    SECTION("18 hosts: last leaf half full, still 4 uplinks") {
        const topology t = build_fat_tree(18, 8, 2);
        check_fat_tree_shape(t);
        CHECK(t.switches_at_level(0) == 5);
        CHECK(t.switches[4].peers[1].kind == topo_peer_kind::host);
        CHECK(t.switches[4].peers[2].kind == topo_peer_kind::none);
    }
    SECTION("4 hosts fit one leaf: no spines") {
        const topology t = build_fat_tree(4, 8, 2);
        REQUIRE_NOTHROW(t.validate());
        CHECK(t.levels == 1);
        CHECK(t.switches.size() == 1);
        CHECK(t.switches[0].peers[4].kind == topo_peer_kind::none);
    }
}

TEST_CASE("fat tree radix 64 (Quantum-2), 2 levels", "[topology]") {
    SECTION("2,048 hosts: 64 leaves, 32 spines, all ports used (docs/domain.md §6)") {
        const topology t = build_fat_tree(2048, 64, 2);
        check_fat_tree_shape(t);
        CHECK(t.switches_at_level(0) == 64);
        CHECK(t.switches_at_level(1) == 32);
        CHECK(t.links.size() == 2048 + 64 * 32);
        for (const topo_switch& s : t.switches) {
            for (const topo_peer& pe : s.peers) CHECK(pe.kind != topo_peer_kind::none);
        }
        for (const auto& [pair, n] : parallel_links(t)) CHECK(n == 1);
    }
    SECTION("128 hosts: 4 leaves, 2 spines, 32 uplinks per leaf, 16 per leaf-spine pair") {
        const topology t = build_fat_tree(128, 64, 2);
        check_fat_tree_shape(t);
        CHECK(t.switches_at_level(0) == 4);
        CHECK(t.switches_at_level(1) == 2);
        for (uint32_t l = 0; l < 4; ++l) {
            uint32_t ups = 0;
            for (const topo_peer& pe : t.switches[l].peers) {
                ups += pe.kind == topo_peer_kind::sw ? 1U : 0U;
            }
            CHECK(ups == 32);
        }
        const auto par = parallel_links(t);
        CHECK(par.size() == 8);
        for (const auto& [pair, n] : par) CHECK(n == 16);
    }
    SECTION("2,049 hosts do not fit") {
        CHECK_THROWS_AS(build_fat_tree(2049, 64, 2), std::invalid_argument);
    }
}

TEST_CASE("fat tree 3 levels", "[topology]") {
    SECTION("radix 8 full: 128 hosts, 8 pods of 4 leaves + 4 aggregation, 16 cores") {
        const topology t = build_fat_tree(128, 8, 3);
        check_fat_tree_shape(t);
        CHECK(t.levels == 3);
        CHECK(t.switches_at_level(0) == 32);
        CHECK(t.switches_at_level(1) == 32);
        CHECK(t.switches_at_level(2) == 16);
        CHECK(t.links.size() == 128 + 128 + 128);
        for (const topo_switch& s : t.switches) {
            for (const topo_peer& pe : s.peers) CHECK(pe.kind != topo_peer_kind::none);
        }
        for (const auto& [pair, n] : parallel_links(t)) CHECK(n == 1);
        // Leaf 13 (pod 3, leaf 1 in pod) uplink u -> aggregation 3*4 + u, its port 1.
        for (uint32_t u = 0; u < 4; ++u) {
            const topo_peer& pe = t.switches[13].peers[4 + u];
            CHECK(pe.node == t.switch_id(1, 12 + u));
            CHECK(pe.port == 1);
        }
        // Aggregation 2 of pod 5 uplink v -> core 2*4 + v, core port 5.
        const topo_switch& ag = t.switches[t.switch_id(1, 5 * 4 + 2)];
        for (uint32_t v = 0; v < 4; ++v) {
            CHECK(ag.peers[4 + v].node == t.switch_id(2, 8 + v));
            CHECK(ag.peers[4 + v].port == 5);
        }
    }
    SECTION("radix 8 pruned, 40 hosts: 10 leaves in 3 pods, 4 aggr/pod, 2x2 cores") {
        const topology t = build_fat_tree(40, 8, 3);
        check_fat_tree_shape(t);
        CHECK(t.levels == 3);
        CHECK(t.switches_at_level(0) == 10);
        CHECK(t.switches_at_level(1) == 12);
        CHECK(t.switches_at_level(2) == 8);  // 4 groups of C = 2 (smallest divisor of 4 >= 2)
        for (uint32_t c = 0; c < 8; ++c) {
            const topo_switch& core = t.switches[t.switch_id(2, c)];
            for (uint32_t p = 0; p < 8; ++p) {  // r = 2 cables per pod, pods 0..2
                CHECK((core.peers[p].kind == topo_peer_kind::sw) == (p < 6));
            }
        }
        for (const auto& [pair, n] : parallel_links(t)) {
            CHECK(n == (t.switches[pair.first].level == 0 ? 1U : 2U));
        }
    }
    SECTION("radix 8 pruned, 12 hosts: one pod, no cores") {
        const topology t = build_fat_tree(12, 8, 3);
        check_fat_tree_shape(t);
        CHECK(t.levels == 2);
        CHECK(t.switches_at_level(0) == 3);
        CHECK(t.switches_at_level(1) == 4);  // smallest divisor of 4 >= 3 leaves
        CHECK(t.switches_at_level(2) == 0);
    }
    SECTION("radix 64: 4,096 hosts and the LID ceiling") {
        const topology t = build_fat_tree(4096, 64, 3);
        check_fat_tree_shape(t);
        CHECK(t.switches_at_level(0) == 128);
        CHECK(t.switches_at_level(1) == 4 * 32);
        CHECK(t.switches_at_level(2) == 32 * 2);
        const topology big = build_fat_tree(LID_UNICAST_MAX, 64, 3);
        CHECK(big.switches_at_level(0) == 1536);
        CHECK(big.switches_at_level(2) == 32 * 32);
        // k^3/4 = 65,536 would need DLIDs beyond 0xBFFF.
        CHECK_THROWS_WITH(build_fat_tree(65536, 64, 3), Catch::Contains("unicast LID"));
        CHECK_THROWS_WITH(build_fat_tree(65537, 64, 3), Catch::Contains("capacity"));
    }
}

TEST_CASE("topology requests that cannot be built", "[topology]") {
    CHECK_THROWS_WITH(build_fat_tree(0, 64, 2), Catch::Contains("hosts must be >= 1"));
    CHECK_THROWS_AS(build_fat_tree(16, 63, 2), std::invalid_argument);   // odd radix
    CHECK_THROWS_AS(build_fat_tree(16, 256, 2), std::invalid_argument);  // > 255
    CHECK_THROWS_AS(build_fat_tree(1, 0, 2), std::invalid_argument);
    CHECK_THROWS_WITH(build_fat_tree(16, 64, 0), Catch::Contains("levels 0"));
    CHECK_THROWS_WITH(build_fat_tree(16, 64, 4), Catch::Contains("levels 4"));
    CHECK_THROWS_AS(build_fat_tree(9, 4, 2), std::invalid_argument);   // 4^2/2 = 8
    CHECK_THROWS_AS(build_fat_tree(17, 4, 3), std::invalid_argument);  // 4^3/4 = 16
    CHECK_THROWS_AS(build_single_switch(9, 8), std::invalid_argument);
    CHECK_THROWS_AS(build_single_switch(0, 8), std::invalid_argument);
    CHECK_THROWS_AS(build_single_switch(1, 256), std::invalid_argument);
    CHECK(build_fat_tree(2, 2, 2).switches.size() == 3);  // smallest fat tree: 2 leaves, 1 spine
    CHECK(build_fat_tree(16, 4, 3).switches.size() == 20);
}

TEST_CASE("hand-built topology: cabling errors", "[topology]") {
    topology t;
    t.hosts = 2;
    t.radix = 3;
    const uint32_t a = t.add_switch(0, 0);
    const uint32_t b = t.add_switch(0, 1);
    t.attach_host(0, a, 0);
    CHECK_THROWS_AS(t.validate(), std::invalid_argument);  // host 1 unattached
    t.attach_host(1, b, 0);
    t.connect(a, 1, b, 1);
    CHECK_NOTHROW(t.validate());
    CHECK(t.links.back().tier == 1);
    CHECK_THROWS_AS(t.attach_host(1, a, 2), std::invalid_argument);  // host already attached
    CHECK_THROWS_AS(t.attach_host(2, a, 2), std::invalid_argument);  // no host 2
    CHECK_THROWS_AS(t.connect(a, 1, b, 2), std::invalid_argument);   // a/1 in use
    CHECK_THROWS_AS(t.connect(a, 3, b, 2), std::invalid_argument);   // no port 3
    CHECK_THROWS_AS(t.connect(a, 2, a, 2), std::invalid_argument);   // loopback cable
    t.switches[b].peers[1].port = 2;                                 // break symmetry
    CHECK_THROWS_AS(t.validate(), std::invalid_argument);
}
