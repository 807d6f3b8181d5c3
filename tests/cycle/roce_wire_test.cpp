// RoCE wire overhead on the cycle-level switch (fabric.technology = roce, docs/roce.md):
// zero-load latency and saturation throughput against the analytic frame-size formula.
//
// Frame (hand-computed from the header sizes, IEEE 802.3 / RoCEv2 annex): Ethernet 14 + IPv4
// 20 + UDP 8 + BTH 12 + payload (padded to 4) + ICRC 4 + FCS 4, plus 8 B preamble/SFD and
// 12 B inter-frame gap on the wire. SEND-only, 4096 B: 4158 B frame, 4178 B on the wire =
// ceil(4178 / 64) = 66 beats (IB: 4122 B = 65 beats). 36 B: 98 + 20 = 118 B = 2 beats (IB: 1).
// Latency rules as switch_latency_test.cpp: cut-through 2L + S + B cycles.
// One simulation per TEST_CASE.
#include "cycle_test_util.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using ndr::test::ceil_div;
using ndr::test::ns_to_cycles;
using ndr::test::run_point;

constexpr uint64_t CYC = 1280;  // 64 B at 400 Gb/s
constexpr uint64_t roce_wire(uint64_t payload) {
    return 14 + 20 + 8 + 12 + ceil_div(payload, 4) * 4 + 4 + 4 + 8 + 12;
}
static_assert(roce_wire(4096) == 4178 && roce_wire(36) == 118);

}  // namespace

TEST_CASE("roce latency: zero load, cut-through, 4 KiB = 2L + S + 66 beats", "[cycle][roce]") {
    const uint64_t link = ceil_div(100'000 + 3 * 5'000, CYC);  // 90
    const uint64_t sw = ceil_div(600'000, CYC);                // 469
    const uint64_t beats = ceil_div(roce_wire(4096), 64);      // 66
    REQUIRE(link == 90);
    REQUIRE(sw == 469);
    REQUIRE(beats == 66);
    const auto r =
        run_point({"fabric.technology=roce", "switch.ports=8", "traffic.pattern=permutation",
                   "traffic.load=0.0003", "traffic.size=4096", "switch.latency=600ns",
                   "link.fec_latency=100ns", "link.cable_length=3m", "link.propagation_per_m=5ns",
                   "switch.buffer_per_vl=128KiB", "endpoint.rx_buffer_per_vl=128KiB",
                   "sim.warmup_cycles=2000", "sim.measure_cycles=10000000"});
    const auto& lat = r["latency_ns"];
    INFO("latency_ns = " << lat.dump());
    REQUIRE(lat["samples"].get<uint64_t>() >= 200);
    const uint64_t expect = 2 * link + sw + beats;  // 715 cycles = 915.2 ns
    CHECK(ns_to_cycles(lat["min"].get<double>(), CYC) == expect);
    CHECK(ns_to_cycles(lat["max"].get<double>(), CYC) == expect);
    CHECK(r["packets"]["dropped"].get<uint64_t>() == 0);
    // No congestion: no PAUSE, no ECN mark.
    CHECK(r["roce"]["pfc"]["pause_sent"].get<uint64_t>() == 0);
    CHECK(r["roce"]["ecn_marked"].get<uint64_t>() == 0);
}

TEST_CASE("roce throughput: permutation, backlogged, 4 KiB: payload rate = 4096 / (66 x 64)",
          "[cycle][roce]") {
    const auto r = run_point(
        {"fabric.technology=roce", "switch.ports=16", "traffic.pattern=permutation",
         "traffic.arrivals=backlogged", "traffic.size=4096", "switch.buffer_per_vl=128KiB",
         "endpoint.rx_buffer_per_vl=128KiB", "sim.warmup_cycles=5000", "sim.measure_cycles=66000"});
    // Every output busy every cycle (<= one frame of window quantisation: 66/66000).
    for (const auto& p : r["ports"]) CHECK(p["accepted_load"].get<double>() >= 0.998);
    // Payload goodput per port: frames = wire bytes / 4178; payload = frames * 4096 over the
    // window. Analytic with 64 B beats: 4096 / (66 * 64) = 0.96970 of 400 Gb/s; without the
    // beat rounding the Ethernet figure would be 4096 / 4178 = 0.98037.
    const auto& vl = r["vls"][0];
    const uint64_t bytes = vl["delivered_bytes"].get<uint64_t>();
    REQUIRE(bytes % 4178 == 0);  // every delivered frame is 4178 B on the wire
    const double frames = static_cast<double>(bytes / 4178);
    const double goodput = frames * 4096.0 / (16.0 * 66000.0 * 64.0);
    CHECK(goodput == Approx(4096.0 / (66.0 * 64.0)).epsilon(0.002));
    CHECK(goodput < 4096.0 / 4178.0);
    CHECK(goodput < 4096.0 / (65.0 * 64.0));  // below IB's 65-beat frame
    CHECK(r["packets"]["dropped"].get<uint64_t>() == 0);
}

TEST_CASE("roce latency: 36 B payload is 118 B on the wire = 2 beats (IB: 1)", "[cycle][roce]") {
    const uint64_t sw = 256'000 / CYC;  // 200
    const auto r = run_point(
        {"fabric.technology=roce", "switch.ports=8", "traffic.pattern=permutation",
         "traffic.load=0.001", "traffic.size=36", "switch.latency=256ns", "link.fec_latency=0ns",
         "link.cable_length=0m", "switch.buffer_per_vl=128KiB", "endpoint.rx_buffer_per_vl=128KiB",
         "pfc.reaction_time=0ns", "sim.warmup_cycles=2000", "sim.measure_cycles=1000000"});
    const auto& lat = r["latency_ns"];
    INFO("latency_ns = " << lat.dump());
    REQUIRE(lat["samples"].get<uint64_t>() >= 1000);
    // 2 * 1 (minimum link) + 200 + 2 beats; a source may queue behind its own 2-beat frame
    // only when two arrivals fall within 2 cycles (probability ~0.1 %), so check min and p50.
    CHECK(ns_to_cycles(lat["min"].get<double>(), CYC) == 2 + sw + 2);
    CHECK(ns_to_cycles(lat["p50"].get<double>(), CYC) == 2 + sw + 2);
}

TEST_CASE("roce latency: store-and-forward adds 66 - 1 beats: 780 cycles for 4 KiB",
          "[cycle][roce]") {
    const uint64_t expect = 2 * 90 + 469 + 66 + (66 - 1);
    REQUIRE(expect == 780);
    const auto r =
        run_point({"fabric.technology=roce", "switch.ports=8", "traffic.pattern=permutation",
                   "traffic.load=0.0003", "traffic.size=4096", "switch.latency=600ns",
                   "switch.cut_through=false", "link.fec_latency=100ns", "link.cable_length=3m",
                   "link.propagation_per_m=5ns", "switch.buffer_per_vl=128KiB",
                   "endpoint.rx_buffer_per_vl=128KiB", "sim.warmup_cycles=2000",
                   "sim.measure_cycles=10000000"});
    const auto& lat = r["latency_ns"];
    INFO("latency_ns = " << lat.dump());
    REQUIRE(lat["samples"].get<uint64_t>() >= 200);
    CHECK(ns_to_cycles(lat["min"].get<double>(), CYC) == expect);
    CHECK(ns_to_cycles(lat["max"].get<double>(), CYC) == expect);
}
