// The fabric plan (testbench/fabric_plan.h) that every level instantiates: hops, latencies and
// peer credits against hand-computed values. Timing pinned (pinned_timing.h): 1.28 ns cycles;
// a 3 m cable is 100 ns FEC + 15 ns = 115 ns = ceil(89.8) = 90 cycles; 30 m leaf-spine is
// 100 + 150 = 250 ns = ceil(195.3) = 196 cycles. Buffers: 32 KiB switch input buffer per VL =
// 512 blocks of 64 B; a 16 KiB endpoint buffer = 256 blocks.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "config/config_loader.h"
#include "fabric_plan.h"
#include "pinned_timing.h"

namespace {

ndr::cfg::config pinned(std::initializer_list<std::string> more) {
    return ndr::cfg::load_config("", ndr::test::pinned_timing_sets(more));
}

}  // namespace

TEST_CASE("fabric plan: one switch, four hosts", "[fabric_plan]") {
    const auto c = pinned({"switch.buffer_per_vl=32KiB", "endpoint.rx_buffer_per_vl=16KiB",
                           "switch.buffer_model=shared"});
    const ndr::tb::fabric_plan f = ndr::tb::plan_fabric(c, 4);
    REQUIRE(f.hops.size() == 8);  // 4 cables, both directions
    for (uint32_t h = 0; h < 4; ++h) {
        const auto& up = f.hops[2 * h];
        const auto& down = f.hops[2 * h + 1];
        CHECK(up.from.host);
        CHECK(up.from.node == h);
        CHECK(!up.to.host);
        CHECK(up.to.port == h);
        // The switch input buffer: the default shared organisation starts every VL at its
        // switch.vl_reserved (8 KiB = 128 blocks); static gives the whole 32 KiB (below).
        CHECK(up.credits == 128);
        CHECK(down.credits == 256);  // the HCA receive buffer
        CHECK(up.link_cycles == 90);
        CHECK(down.link_cycles == 90);
        CHECK(up.name == "host" + std::to_string(h) + "->sw0.p" + std::to_string(h));
        CHECK(down.name == "sw0.p" + std::to_string(h) + "->host" + std::to_string(h));
    }
    CHECK(f.shortest_link_cycles() == 90);
    // Static: the partner gets the whole per-VL buffer, 32 KiB = 512 blocks.
    const auto st = pinned({"switch.buffer_per_vl=32KiB"});
    CHECK(ndr::tb::plan_fabric(st, 4).hops[0].credits == 512);
}

TEST_CASE("fabric plan: 16 hosts on a fat tree of 8-port switches", "[fabric_plan]") {
    const auto c = pinned({"fabric.topology=fat_tree", "switch.ports=8",
                           "fabric.tier1_cable_length=30m", "switch.buffer_model=shared"});
    const ndr::tb::fabric_plan f = ndr::tb::plan_fabric(c, 16);
    // 4 hosts per leaf -> 4 leaves with 4 up-ports each; 16 leaf-spine cables on 2 spines.
    REQUIRE(f.topo.switches.size() == 6);
    REQUIRE(f.hops.size() == 2 * (16 + 16));
    std::size_t tier1 = 0;
    std::set<std::string> names;
    for (const auto& h : f.hops) {
        names.insert(h.name);
        if (h.from.host || h.to.host) {
            CHECK(h.tier == 0);
            CHECK(h.link_cycles == 90);
        } else {
            ++tier1;
            CHECK(h.tier == 1);
            CHECK(h.link_cycles == 196);
            CHECK(h.credits == 128);  // switch to switch: the far input's reservation
        }
    }
    CHECK(tier1 == 32);
    CHECK(names.size() == f.hops.size());  // every directed hop named once
    CHECK(f.shortest_link_cycles() == 90);
}

TEST_CASE("fabric plan: synthetic-traffic switch, endpoint p on port p with LID p + 1",
          "[fabric_plan]") {
    const auto c = pinned({"switch.ports=8"});
    const ndr::tb::fabric_plan f = ndr::tb::plan_traffic_switch(c);
    REQUIRE(f.hops.size() == 16);
    REQUIRE(f.lfts.size() == 1);
    for (uint16_t p = 0; p < 8; ++p) {
        CHECK(f.lfts[0].port(static_cast<uint16_t>(p + 1)) == p);
        CHECK(f.hops[2 * p].from.node == p);
        CHECK(f.hops[2 * p].to.port == p);
        CHECK(f.hops[2 * p].link_cycles == 90);
    }
}

TEST_CASE("fabric plan: a topology that cannot hold the hosts names fabric.topology",
          "[fabric_plan]") {
    const auto c = pinned({"switch.ports=8"});
    CHECK_THROWS_WITH(ndr::tb::plan_fabric(c, 9), Catch::Contains("fabric.topology"));
}
