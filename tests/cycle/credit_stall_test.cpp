// Credit-limited throughput: with the smallest legal input buffer and a long link, a single
// flow is limited by the credit round trip, not by the link rate.
//
// Setup: 2 ports, permutation (a derangement: 0 -> 1 and 1 -> 0, two independent identical
// flows), backlogged, 4 KiB packets (4122 B = 65 blocks = 65 beats), switch.buffer_per_vl at its
// minimum: one MTU packet = 4096 + 126 B rounded up to 64 B blocks = 4224 B = 66 blocks
// (docs/configuration.md), link.cable_length = 100 m.
//
// Derivation, by hand (cycle = 1.28 ns at 400 Gb/s):
//   L  = ceil((100 ns FEC + 100 m * 5 ns/m) / 1.28 ns) = ceil(468.75) = 469 cycles
//   S  = ceil(300 ns / 1.28 ns) = 235 cycles (header in -> header out)
//   FC = ceil(5 ns fc_processing / 1.28 ns) + L = 4 + 469 = 473 cycles (block freed -> the
//        sender knows)
// With 66 blocks of credit and 65-block packets, the source can have ONE packet outstanding:
// after sending it has 1 block left and needs the whole packet's credit back.
//   Loose bound (the brief's buffer / RTT): RTT >= L + S + FC = 469 + 235 + 473 = 1177
//   cycles, so accepted <= 65 / 1177 = 0.0552 (or 66/1177 = 0.0561 counting the full buffer).
//   Exact period: the header reaches the switch at t0 + L; it is eligible and granted S - 1 =
//   234 cycles later; the crossbar reads it at speedup 1.25: 65 beats in ceil(65 / 1.25) = 52
//   cycles, freeing blocks in 16-block chunks (ib_switch_alloc.cpp commit()); the chunks at
//   16/32/48/64 blocks return 64 blocks, which with the 1 left makes 65: enough for the next
//   packet. The 64-block chunk frees at max(grant + ceil(64/1.25) = 52, header + 64) = header +
//   234 + 52 = header + 286; its FC packet is ready 4 cycles later, header + 290. It goes back on
//   switch output 0 (towards source 0), which is carrying the other flow's packet, granted in
//   the same cycle (the flows are in phase): on the wire for [header + 235, header + 300). An FC
//   packet cannot interrupt it, so it departs at header + 300 (docs/architecture.md, "Credits")
//   and reaches the source L = 469 cycles later; the source sends at once. Period
//   P = 469 + 300 + 469 = 1238 cycles per 65-beat packet: throughput 65 / 1238 = 0.05250 of line
//   rate. (With FC packets that did not wait for the wire: 469 + 286 + 473 = 1228.)
// FC pacing (link.fc_min_interval) is pinned to 0 (an FC packet may leave every cycle); the
// chunk updates are 13 cycles apart anyway, so the default 10 ns (8 cycles) gives the same.
// Window W = 100k cycles: 100000 / 1238 = 80.8 periods, so 80 or 81 packets are delivered in
// the window (the window cuts the periodic sequence at an arbitrary phase):
//   accepted in [floor(W/P) * 65 / W, ceil(W/P) * 65 / W] = [0.05200, 0.05265].
#include <algorithm>

#include "cycle_test_util.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

TEST_CASE("credit stall: minimum buffer (66 blocks), 100 m link: one packet per credit RTT",
          "[cycle][credit]") {
    using ndr::test::ceil_div;
    const uint64_t cyc = 1280;                                   // ps, 64 B at 400 Gb/s
    const uint64_t link = ceil_div(100'000 + 100 * 5'000, cyc);  // 469
    const uint64_t sw = ceil_div(300'000, cyc);                  // 235
    const uint64_t fc = ceil_div(5'000, cyc) + link;             // 473
    const uint64_t blocks = ceil_div(4096 + 26, 64);             // 65
    const uint64_t buf_blocks = ceil_div(4096 + 126, 64);        // 66
    REQUIRE(link == 469);
    REQUIRE(sw == 235);
    REQUIRE(fc == 473);
    REQUIRE(blocks == 65);
    REQUIRE(buf_blocks == 66);
    // Crossbar read time at speedup 1.25: 64 blocks' beats (the 4th chunk) and 65 beats.
    const uint64_t xbar = ceil_div(64 * 4, 5);  // ceil(64 / 1.25) = 51.2 -> 52
    REQUIRE(xbar == 52);
    const uint64_t fc_ready = (sw - 1) + xbar + (fc - link);  // after the header: 290
    const uint64_t reverse_end = (sw - 1) + 1 + blocks;       // other flow's packet: 300
    const uint64_t period = link + std::max(fc_ready, reverse_end) + link;
    REQUIRE(fc_ready == 290);
    REQUIRE(period == 1238);
    const uint64_t window = 100'000;
    const double lo = static_cast<double>(window / period * blocks) / static_cast<double>(window);
    const double hi =
        static_cast<double>(ceil_div(window, period) * blocks) / static_cast<double>(window);
    const double loose = static_cast<double>(buf_blocks) / static_cast<double>(link + sw + fc);

    const auto r = ndr::test::run_point(
        {"switch.ports=2", "traffic.pattern=permutation", "traffic.arrivals=backlogged",
         "traffic.size=4096", "switch.buffer_per_vl=4224B", "link.cable_length=100m",
         "link.fec_latency=100ns", "link.propagation_per_m=5ns", "link.fc_processing=5ns",
         "link.fc_min_interval=0ns", "switch.latency=300ns", "switch.speedup=1.25",
         "switch.cut_through=true", "sim.warmup_cycles=20000", "sim.measure_cycles=100000"});
    INFO("ports = " << r["ports"].dump());
    INFO("exact band [" << lo << ", " << hi << "], loose bound " << loose);
    REQUIRE(r["buffer_occupancy"][0]["capacity_blocks"].get<uint64_t>() == buf_blocks);
    for (const auto& p : r["ports"]) {
        const double acc = p["accepted_load"].get<double>();
        CHECK(acc > 0.0);
        CHECK(acc <= loose);
        CHECK(acc >= lo - 1e-12);
        CHECK(acc <= hi + 1e-12);
    }
    CHECK(r["credit_stall_cycles"]["endpoints"].get<uint64_t>() > 0);
    // The source is idle for lack of credit most of the time: ~(P - 65) / P of the window, per
    // port (2 ports): > 1.8 * W.
    CHECK(r["credit_stall_cycles"]["endpoints"].get<uint64_t>() > 18 * window / 10);
}
