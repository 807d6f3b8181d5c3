// Up/down d-mod-k routing, route tracing and the channel-dependency deadlock check
// (docs/domain.md §4; rules in models/golden/updown_routing.h and topology.h).
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "golden/lft.h"
#include "golden/topology.h"
#include "golden/updown_routing.h"

using namespace ndr::golden;

namespace {

uint16_t dlid(uint32_t host) {
    return static_cast<uint16_t>(host + 1);
}

/// Switches a fat-tree route must traverse: 1 on the same leaf, 3 through a spine or an
/// aggregation switch of the same pod, 5 through a core (pods of h leaves, 3 levels only).
std::size_t expected_hops(const topology& t, uint32_t src, uint32_t dst) {
    const uint32_t h = t.radix / 2;
    const uint32_t ls = t.host_attach[src].node;
    const uint32_t ld = t.host_attach[dst].node;
    if (src == dst) return 0;
    if (ls == ld) return 1;
    if (t.levels <= 2 || ls / h == ld / h) return 3;
    return 5;
}

/// Routes from every stride-th source to every destination: right hop count, ends on the
/// destination's host port, and levels climb by one then descend by one (never down then up).
void check_routes(const topology& t, const std::vector<lft>& lfts, uint32_t stride = 1) {
    for (uint32_t s = 0; s < t.hosts; s += stride) {
        for (uint32_t d = 0; d < t.hosts; ++d) {
            const std::vector<route_hop> r = route(t, lfts, s, d);
            REQUIRE(r.size() == expected_hops(t, s, d));
            if (r.empty()) continue;
            CHECK(r.front().sw == t.host_attach[s].node);
            CHECK(r.front().in_port == t.host_attach[s].port);
            CHECK(r.back().sw == t.host_attach[d].node);
            CHECK(r.back().out_port == t.host_attach[d].port);
            const std::size_t peak = r.size() / 2;
            for (std::size_t i = 0; i < r.size(); ++i) {
                const uint32_t lv = t.switches[r[i].sw].level;
                const std::size_t want = i <= peak ? i : r.size() - 1 - i;
                if (lv != want)
                    FAIL_CHECK("route " << s << "->" << d << " hop " << i << " at level " << lv);
            }
        }
    }
}

/// Directed channel (switch, output port).
using channel = std::pair<uint32_t, uint16_t>;

struct channel_load {
    std::map<channel, uint32_t> flows;                   ///< source-destination pairs
    std::map<channel, std::set<uint32_t>> destinations;  ///< distinct destinations
};

channel_load all_to_all_load(const topology& t, const std::vector<lft>& lfts) {
    channel_load load;
    for (uint32_t s = 0; s < t.hosts; ++s) {
        for (uint32_t d = 0; d < t.hosts; ++d) {
            for (const route_hop& hop : route(t, lfts, s, d)) {
                ++load.flows[{hop.sw, hop.out_port}];
                load.destinations[{hop.sw, hop.out_port}].insert(d);
            }
        }
    }
    return load;
}

/// Ring of 4 switches, host i on switch i port 0; switch i port 1 -> switch i+1 port 2.
topology ring4() {
    topology t;
    t.name = "ring4";
    t.hosts = 4;
    t.radix = 3;
    for (uint32_t i = 0; i < 4; ++i) t.add_switch(0, i);
    for (uint32_t i = 0; i < 4; ++i) t.attach_host(i, i, 0);
    for (uint32_t i = 0; i < 4; ++i) t.connect(i, 1, (i + 1) % 4, 2);
    return t;
}

}  // namespace

TEST_CASE("up/down routing: single switch with 8 hosts", "[routing]") {
    const topology t = build_single_switch(8, 64);
    const std::vector<lft> lfts = compute_updown_lfts(t);
    REQUIRE(lfts.size() == 1);
    CHECK(lfts[0].top_lid() == 8);
    CHECK(lfts[0].port(0) == LFT_NO_ROUTE);
    for (uint32_t h = 0; h < 8; ++h) CHECK(lfts[0].port(dlid(h)) == h);
    CHECK(lfts[0].port(9) == LFT_NO_ROUTE);
    check_routes(t, lfts);
    CHECK(route(t, lfts, 3, 3).empty());  // HCA loopback
    CHECK(is_deadlock_free(t, lfts));
}

// Tree drawn in topology_test.cpp ("fat tree radix 4, 8 hosts, 2 levels"): leaf l holds hosts
// 2l, 2l+1 on ports 0, 1; leaf port 2 -> spine 0 (sw 4), leaf port 3 -> spine 1 (sw 5); spine
// port l -> leaf l. d-mod-k: a leaf sends host d up port 2 + d mod 2, so even hosts use
// spine 0 and odd hosts spine 1.
TEST_CASE("up/down routing: radix 4, 8 hosts, every entry of leaf 0 and spine 0", "[routing]") {
    const topology t = build_fat_tree(8, 4, 2);
    const std::vector<lft> lfts = compute_updown_lfts(t);
    REQUIRE(lfts.size() == 6);
    //                           DLID: 0             1  2  3  4  5  6  7  8
    const std::vector<uint8_t> leaf0{LFT_NO_ROUTE, 0, 1, 2, 3, 2, 3, 2, 3};
    const std::vector<uint8_t> spine0{LFT_NO_ROUTE, 0, 0, 1, 1, 2, 2, 3, 3};
    for (uint16_t l = 0; l <= 8; ++l) {
        INFO("DLID " << l);
        CHECK(lfts[0].port(l) == leaf0[l]);
        CHECK(lfts[4].port(l) == spine0[l]);
        CHECK(lfts[5].port(l) == spine0[l]);  // spine 1 has the same down ports
    }
    CHECK(lfts[0].port(9) == LFT_NO_ROUTE);
    // Leaf 3: own hosts 6, 7 on ports 0, 1; the rest up by parity.
    const std::vector<uint8_t> leaf3{LFT_NO_ROUTE, 2, 3, 2, 3, 2, 3, 0, 1};
    for (uint16_t l = 0; l <= 8; ++l) CHECK(lfts[3].port(l) == leaf3[l]);

    const std::vector<route_hop> r = route(t, lfts, 1, 6);  // h1 -> leaf 0 -> spine 0 -> leaf 3
    REQUIRE(r.size() == 3);
    CHECK(r[0].sw == 0);
    CHECK(r[0].in_port == 1);
    CHECK(r[0].out_port == 2);
    CHECK(r[1].sw == 4);
    CHECK(r[1].in_port == 0);
    CHECK(r[1].out_port == 3);
    CHECK(r[2].sw == 3);
    CHECK(r[2].in_port == 2);
    CHECK(r[2].out_port == 0);
    check_routes(t, lfts);
    CHECK(is_deadlock_free(t, lfts));
}

// Radix 8, 12 hosts: 3 leaves (hosts 4l..4l+3), 2 spines (sw 3, 4), 2 parallel cables per
// pair: leaf uplink u (port 4+u) -> spine u%2, spine port 2l + u/2. Host d (m = d mod 4) climbs
// uplink m, i.e. spine m%2 and cable m/2, and descends the same cable index. A spine off d's
// root path (never used by d's traffic) picks cable d mod 2.
TEST_CASE("up/down routing: radix 8, 12 hosts, parallel cables", "[routing]") {
    const topology t = build_fat_tree(12, 8, 2);
    const std::vector<lft> lfts = compute_updown_lfts(t);
    REQUIRE(lfts.size() == 5);
    //                            d: 0  1  2  3  4  5  6  7  8  9 10 11
    const std::vector<uint8_t> spine0{0, 1, 1, 1, 2, 3, 3, 3, 4, 5, 5, 5};
    const std::vector<uint8_t> spine1{0, 0, 0, 1, 2, 2, 2, 3, 4, 4, 4, 5};
    const std::vector<uint8_t> leaf1{4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};
    for (uint32_t d = 0; d < 12; ++d) {
        INFO("host " << d);
        CHECK(lfts[3].port(dlid(d)) == spine0[d]);
        CHECK(lfts[4].port(dlid(d)) == spine1[d]);
        CHECK(lfts[1].port(dlid(d)) == leaf1[d]);
    }
    check_routes(t, lfts);
    CHECK(is_deadlock_free(t, lfts));
    // Every spine down cable carries exactly one destination; every leaf uplink two
    // (the hosts with its residue on the two other leaves).
    const channel_load load = all_to_all_load(t, lfts);
    for (const auto& [ch, dsts] : load.destinations) {
        const topo_peer& pe = t.switches[ch.first].peers[ch.second];
        if (t.switches[ch.first].level == 1) {
            CHECK(dsts.size() == 1);
        } else if (pe.kind == topo_peer_kind::sw) {
            CHECK(dsts.size() == 2);
        }
    }
}

TEST_CASE("up/down routing: radix 8, 20 hosts (pruned)", "[routing]") {
    const topology t = build_fat_tree(20, 8, 2);
    const std::vector<lft> lfts = compute_updown_lfts(t);
    check_routes(t, lfts);
    CHECK(is_deadlock_free(t, lfts));
    for (uint32_t d = 0; d < 20; ++d) {  // one spine per destination: d mod 4
        for (uint32_t s = 0; s < 20; ++s) {
            const std::vector<route_hop> r = route(t, lfts, s, d);
            if (r.size() == 3) CHECK(r[1].sw == t.switch_id(1, d % 4));
        }
    }
    const topology t18 = build_fat_tree(18, 8, 2);  // half-full last leaf
    const std::vector<lft> l18 = compute_updown_lfts(t18);
    check_routes(t18, l18);
    CHECK(is_deadlock_free(t18, l18));
}

TEST_CASE("up/down routing: radix 64, 2 levels", "[routing]") {
    SECTION("2,048 hosts: sampled sources, one spine per destination, deadlock-free") {
        const topology t = build_fat_tree(2048, 64, 2);
        const std::vector<lft> lfts = compute_updown_lfts(t);
        REQUIRE(lfts.size() == 96);
        check_routes(t, lfts, 61);  // 34 sources x 2,048 destinations
        for (uint32_t d = 5; d < 2048; d += 97) {
            for (uint32_t s = 0; s < 2048; s += 13) {
                const std::vector<route_hop> r = route(t, lfts, s, d);
                if (r.size() == 3) CHECK(r[1].sw == t.switch_id(1, d % 32));
            }
        }
        CHECK(is_deadlock_free(t, lfts));  // all 2,048 x 2,047 pairs
    }
    SECTION("128 hosts, all-to-all: every leaf uplink carries the same load") {
        // 4 leaves x 32 hosts, 2 spines, 16 cables per leaf-spine pair. Leaf uplink u carries
        // the destinations d = u mod 32 on the 3 other leaves (d in {u, u+32, u+64, u+96} minus
        // its own), each from the leaf's 32 sources: 3 destinations, 3 x 32 = 96 flows; the
        // leaf's 32 uplinks carry all 32 x 96 = 3,072 flows that leave it. Each spine down
        // cable carries one destination from the 3 x 32 = 96 sources on the other leaves.
        const topology t = build_fat_tree(128, 64, 2);
        const std::vector<lft> lfts = compute_updown_lfts(t);
        check_routes(t, lfts);
        CHECK(is_deadlock_free(t, lfts));
        const channel_load load = all_to_all_load(t, lfts);
        uint32_t uplinks = 0;
        uint32_t spine_downs = 0;
        for (const auto& [ch, flows] : load.flows) {
            const topo_switch& sw = t.switches[ch.first];
            const topo_peer& pe = sw.peers[ch.second];
            if (sw.level == 0 && pe.kind == topo_peer_kind::sw) {
                ++uplinks;
                CHECK(flows == 96);
                CHECK(load.destinations.at(ch).size() == 3);
            } else if (sw.level == 1) {
                ++spine_downs;
                CHECK(flows == 96);
                CHECK(load.destinations.at(ch).size() == 1);
            } else {
                CHECK(flows == 127);  // host port of a leaf: every other host sends to it
            }
        }
        CHECK(uplinks == 4 * 32);
        CHECK(spine_downs == 2 * 64);
        for (uint32_t d = 0; d < 128; ++d) {  // spine of d: uplink d mod 32 -> spine d mod 2
            const std::vector<route_hop> r = route(t, lfts, (d + 32) % 128, d);
            REQUIRE(r.size() == 3);
            CHECK(r[1].sw == t.switch_id(1, d % 2));
        }
    }
}

TEST_CASE("up/down routing: 3 levels", "[routing]") {
    SECTION("radix 8 full, 128 hosts: all pairs, one core per destination") {
        const topology t = build_fat_tree(128, 8, 3);
        const std::vector<lft> lfts = compute_updown_lfts(t);
        check_routes(t, lfts);
        CHECK(is_deadlock_free(t, lfts));
        // Core of d: aggregation d mod 4 (group), uplink (d / 4) mod 4 -> core 4*(d%4) + (d/4)%4.
        const channel_load load = all_to_all_load(t, lfts);
        for (uint32_t d = 0; d < 128; ++d) {
            for (uint32_t s = 0; s < 128; s += 3) {
                const std::vector<route_hop> r = route(t, lfts, s, d);
                if (r.size() == 5) CHECK(r[2].sw == t.switch_id(2, 4 * (d % 4) + (d / 4) % 4));
            }
        }
        // Full tree: every core and aggregation down cable carries exactly one destination.
        for (const auto& [ch, dsts] : load.destinations) {
            const topo_switch& sw = t.switches[ch.first];
            const bool down = sw.level == 2 || (sw.level == 1 && ch.second < 4);
            if (down) CHECK(dsts.size() == 1);
        }
    }
    SECTION("radix 8 pruned: 40 hosts (3 pods), 12 hosts (1 pod, no cores), 5 hosts") {
        for (const uint32_t n : {40U, 12U, 5U, 33U}) {
            INFO(n << " hosts");
            const topology t = build_fat_tree(n, 8, 3);
            const std::vector<lft> lfts = compute_updown_lfts(t);
            check_routes(t, lfts);
            CHECK(is_deadlock_free(t, lfts));
        }
    }
    SECTION("radix 64, 4,096 hosts (4 pods): sampled pairs") {
        const topology t = build_fat_tree(4096, 64, 3);
        const std::vector<lft> lfts = compute_updown_lfts(t);
        check_routes(t, lfts, 509);
        CHECK(is_deadlock_free(t, lfts));
    }
}

TEST_CASE("deadlock check: cyclic routing on a ring of 4 switches", "[routing]") {
    const topology t = ring4();
    REQUIRE_NOTHROW(t.validate());
    CHECK_THROWS_AS(compute_updown_lfts(t), std::invalid_argument);  // no up/down levels

    // Clockwise: switch i sends DLID j+1 to port 0 if j == i, else port 1. Channels
    // (0,1) -> (1,1) -> (2,1) -> (3,1) -> (0,1) form a cycle (e.g. route 0 -> 3 uses three).
    std::vector<lft> cw(4, lft(4));
    for (uint32_t i = 0; i < 4; ++i) {
        for (uint32_t j = 0; j < 4; ++j) cw[i].set(dlid(j), j == i ? 0 : 1);
    }
    CHECK(route(t, cw, 0, 3).size() == 4);
    CHECK(route(t, cw, 3, 0).size() == 2);  // over the wrap-around cable
    CHECK_FALSE(is_deadlock_free(t, cw));

    // Line routing (never use the 3 <-> 0 cable): higher index clockwise, lower counter-
    // clockwise. Every route is a straight walk along 0-1-2-3: no cycle.
    std::vector<lft> line(4, lft(4));
    for (uint32_t i = 0; i < 4; ++i) {
        for (uint32_t j = 0; j < 4; ++j) line[i].set(dlid(j), j == i ? 0 : (j > i ? 1 : 2));
    }
    CHECK(route(t, line, 3, 0).size() == 4);
    CHECK(is_deadlock_free(t, line));

    // Dropping the only route that closes the cycle (2 -> 3 -> 0) makes clockwise safe.
    std::vector<lft> cut = cw;
    cut[3].set(dlid(0), LFT_NO_ROUTE);
    cut[3].set(dlid(1), LFT_NO_ROUTE);
    cut[3].set(dlid(2), LFT_NO_ROUTE);
    CHECK(is_deadlock_free(t, cut));
}

TEST_CASE("route reports broken forwarding", "[routing]") {
    const topology t = build_fat_tree(8, 4, 2);
    const std::vector<lft> good = compute_updown_lfts(t);
    CHECK_THROWS_AS(route(t, good, 0, 8), std::invalid_argument);
    CHECK_THROWS_AS(route(t, std::vector<lft>(5), 0, 1), std::invalid_argument);
    CHECK_THROWS_AS(is_deadlock_free(t, std::vector<lft>(5)), std::invalid_argument);

    std::vector<lft> l = good;
    l[0].set(dlid(6), LFT_NO_ROUTE);
    CHECK_THROWS_WITH(route(t, l, 0, 6), Catch::Contains("no valid port"));
    CHECK(is_deadlock_free(t, l));  // a drop adds no dependency

    l = good;
    l[4].set(dlid(6), 0);  // spine 0 bounces host 6 back to leaf 0, which sends it up again
    CHECK_THROWS_WITH(route(t, l, 0, 6), Catch::Contains("routing loop"));
    CHECK_FALSE(is_deadlock_free(t, l));

    l = good;
    l[3].set(dlid(6), 1);  // leaf 3 delivers host 6's packets to host 7
    CHECK_THROWS_WITH(route(t, l, 0, 6), Catch::Contains("delivered to host 7"));

    const topology t20 = build_fat_tree(20, 8, 2);  // spine ports 5..7 unconnected
    std::vector<lft> l20 = compute_updown_lfts(t20);
    l20[t20.switch_id(1, 0)].set(dlid(4), 6);
    CHECK_THROWS_WITH(route(t20, l20, 0, 4), Catch::Contains("unconnected"));
}
