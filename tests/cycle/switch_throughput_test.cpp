// Throughput and fairness of the cycle-level switch against analytic and published figures
// (docs/style.md §10: throughput and fairness within a stated tolerance).
//
// "accepted_load" = beats delivered in the measurement window / window cycles (per port, or
// averaged over all ports for traffic.accepted_load). One 64 B beat per cycle is line rate.
#include "cycle_test_util.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using ndr::test::run_point;

// 36 B payload: 8+12+36+4+2 = 62 B on the wire = 1 beat, the cell of the classic slotted
// switch analyses. (38 B would pad to 40 B = 66 B = 2 beats; see switch_latency_test.cpp.)
const char* const ONE_BEAT = "traffic.size=36";

}  // namespace

TEST_CASE(
    "throughput: permutation, VOQ, backlogged, 64 ports, 4 KiB, 64 KiB buffer: every port >= 0.99",
    "[cycle][throughput]") {
    // A permutation has no output contention: each output has one source, so every port should
    // run at line rate less the delivered-in-window quantisation (<= one 65-beat packet per
    // window: 65/20000 = 0.33 %), given an input buffer that covers the credit loop. Deterministic
    // pattern, so 20k cycles suffice. The loop of the last credits of a packet is 480 cycles
    // (FC packets wait for the data packet on the reverse wire, fc_wire_test.cpp), more than the
    // 455 cycles that the default 32 KiB (7 packets) covers, so this case sets 64 KiB (15
    // packets = 975 cycles); the default is fc_wire_test's case (0.948).
    const auto r =
        run_point({"switch.ports=64", "traffic.pattern=permutation", "traffic.arrivals=backlogged",
                   "traffic.size=4096", "switch.queueing=voq", "switch.buffer_per_vl=64KiB",
                   "sim.warmup_cycles=5000", "sim.measure_cycles=20000"});
    const auto& ports = r["ports"];
    REQUIRE(ports.size() == 64);
    for (const auto& p : ports) {
        INFO("port " << p["port"].get<int>());
        CHECK(p["accepted_load"].get<double>() >= 0.99);
    }
}

TEST_CASE("throughput: FIFO input queueing saturates at 2 - sqrt(2) (Karol et al. 1987)",
          "[cycle][throughput][hol]") {
    // Head-of-line blocking: Karol, Hluchyj & Morgan, "Input versus output queueing on a
    // space-division packet switch", IEEE Trans. Commun. 35(12):1347-1356, Dec. 1987: with
    // FIFO input queues, uniform destinations, saturated inputs and fixed-size cells, the
    // saturation throughput is 0.6553 for N=4, 0.6184 for N=8, and tends to 2 - sqrt(2) =
    // 0.5858 as N -> inf; for N >= 32 it lies between ~0.590 and 0.5858 (the finite-N excess is
    // O(1/N)). Model match: 1-beat packets (cells), switch.speedup=1.0 (a cell per slot),
    // backlogged sources, one VL (SL 0).
    //
    // Saturated inputs: the FIFO must never run empty. Big buffers (128 KiB = 2048 blocks per
    // VL, the most a VL may have outstanding) guarantee it: the credit loop (data link 90 + FC
    // 94 cycles) and the 234-cycle pipeline hold only ~(184 + 234) * 0.59 ~= 250 blocks. (The
    // default 32 KiB would do too and gives the same 0.590.)
    //
    // Tolerance: expected band 0.5858..0.5900 (N=64 lies inside), +-2 % of 0.588 around it:
    // [0.576, 0.600]. Statistical error over 64 ports x 20k cycles: seeds 1..3 gave 0.5903,
    // 0.5896, 0.5893 (spread 0.001), so 2 % (~0.012) is >10 sigma of noise and still far from
    // the neighbouring regimes it must exclude (0.618 at N=8, ~1.0 for VOQ).
    const auto r =
        run_point({"switch.ports=64", "traffic.pattern=uniform", "traffic.arrivals=backlogged",
                   ONE_BEAT, "traffic.sl=0", "switch.queueing=fifo", "switch.speedup=1.0",
                   "switch.buffer_per_vl=128KiB", "endpoint.rx_buffer_per_vl=128KiB",
                   "sim.warmup_cycles=5000", "sim.measure_cycles=20000"});
    const double acc = r["traffic"]["accepted_load"].get<double>();
    const double asymptote = 2.0 - std::sqrt(2.0);  // 0.585786...
    INFO("accepted_load = " << acc << ", 2 - sqrt(2) = " << asymptote);
    CHECK(acc >= 0.5858 - 0.012);
    CHECK(acc <= 0.5900 + 0.010);
}

TEST_CASE("throughput: VOQ + iSLIP, uniform, backlogged 1-beat cells, 64 ports: >= 0.95",
          "[cycle][throughput][islip]") {
    // McKeown, "The iSLIP scheduling algorithm for input-queued switches", IEEE/ACM Trans.
    // Netw. 7(2):188-201, Apr. 1999: with VOQs and iSLIP the switch sustains ~100 % of uniform
    // i.i.d. traffic (the grant pointers desynchronise under saturation), versus 58.6 % for
    // FIFO queues. Same setup as the FIFO test (default islip_iterations = 2).
    //
    // Buffers matter here: at saturation every input's 64 VOQs share one input buffer, and the
    // pointers only stay desynchronised while (nearly) every VOQ is non-empty. With 128 KiB
    // (2048 blocks) the VOQs fill during the run: measured 0.980 after 5k + 20k cycles and 0.990
    // after 50k + 50k (the throughput climbs as the VOQs fill). With the default 32 KiB
    // (~330 usable blocks after the credit loop, ~5 per VOQ) it stays at ~0.915 (see the test
    // report). 95 % leaves ~3 points of margin for the warm-up transient; noise over 64 ports x
    // 20k cycles is ~0.001.
    const auto r = run_point(
        {"switch.ports=64", "traffic.pattern=uniform", "traffic.arrivals=backlogged", ONE_BEAT,
         "traffic.sl=0", "switch.queueing=voq", "switch.allocator=islip",
         "switch.islip_iterations=2", "switch.speedup=1.0", "switch.buffer_per_vl=128KiB",
         "endpoint.rx_buffer_per_vl=128KiB", "sim.warmup_cycles=5000", "sim.measure_cycles=20000"});
    const double acc = r["traffic"]["accepted_load"].get<double>();
    INFO("accepted_load = " << acc);
    CHECK(acc >= 0.95);
}

TEST_CASE("fairness: uniform Bernoulli 0.7, 4 KiB, 64 ports: each port within 5 % of offered",
          "[cycle][throughput][fairness]") {
    // Load 0.7 is below VOQ/iSLIP saturation (0.92 at the defaults, README), so every
    // destination should receive what is sent to it. Port p's accepted load (beats delivered to
    // p) is compared with its offered load (beats created at source p); both are random counts
    // of 4 KiB packets with geometric gaps, ~Poisson: n = 0.7 * W / 65 packets each, relative sd
    // 1/sqrt(n) each, ~sqrt(2/n) for the difference. W = 1.2M cycles gives n ~= 12900, sd of the
    // difference ~= 1.25 %, so 5 % is 4 sd: P(any of 64 ports outside) ~= 64 * 6e-5 ~= 0.4 %
    // (and the seed is fixed). A 300k window would give sd 2.5 %: too short for 5 %.
    // 4 KiB packets make this window cheap (~2-3 s).
    const auto r = run_point({"switch.ports=64", "traffic.pattern=uniform",
                              "traffic.arrivals=bernoulli", "traffic.load=0.7", "traffic.size=4096",
                              "sim.warmup_cycles=20000", "sim.measure_cycles=1200000"});
    const auto& ports = r["ports"];
    REQUIRE(ports.size() == 64);
    for (const auto& p : ports) {
        const double off = p["offered_load"].get<double>();
        const double acc = p["accepted_load"].get<double>();
        INFO("port " << p["port"].get<int>() << ": offered " << off << ", accepted " << acc);
        REQUIRE(off > 0.6);
        CHECK(std::fabs(acc - off) <= 0.05 * off);
    }
    // Jain's index over receivers: (sum x)^2 / (n sum x^2); 1 = perfectly fair. With every
    // port within +-5 % it is >= 0.997 by construction; 0.99 is the stated requirement.
    CHECK(r["fairness"]["jain_index_receivers"].get<double>() >= 0.99);
    CHECK(r["traffic"]["accepted_load"].get<double>() ==
          Approx(r["traffic"]["offered_load"].get<double>()).epsilon(0.01));
}

TEST_CASE("throughput: speedup 1.25 applies to 2-beat packets (fractional crossbar time)",
          "[cycle][throughput][speedup]") {
    // Issue 15 item 3. A 64 B payload is 2 beats on the wire; at switch.speedup 1.25 a 2-beat
    // transfer takes 1.6 cycles. Rounding each packet up to 2 cycles gave it no speedup at all
    // (identical results at 1.0, 1.25 and 1.5: 0.9302 accepted at load 0.95 and 1.0). With the
    // fraction carried per port (common/xbar_clock.h), a VOQ/iSLIP switch with speedup > 1
    // sustains admissible uniform Bernoulli traffic (McKeown 1999; with speedup the crossbar
    // can catch up after a mismatched slot): at load 0.95 every offered beat is accepted.
    // Tolerance 1 % of offered: the window holds ~64 x 0.95 x 30k / 2 = 0.9 M packets
    // (sd ~0.1 %); the old code is 2 % below.
    const auto r = run_point({"switch.ports=64", "traffic.pattern=uniform",
                              "traffic.arrivals=bernoulli", "traffic.load=0.95", "traffic.size=64",
                              "sim.warmup_cycles=10000", "sim.measure_cycles=30000"});
    const double off = r["traffic"]["offered_load"].get<double>();
    const double acc = r["traffic"]["accepted_load"].get<double>();
    INFO("offered " << off << ", accepted " << acc);
    CHECK(acc == Approx(off).epsilon(0.01));
}

TEST_CASE("throughput: backlogged 2-beat packets get the 1.25 speedup",
          "[cycle][throughput][speedup]") {
    // As above, saturated: the speedup turns into throughput. Per-packet rounding gave the
    // same as speedup 1.0 (0.9298; 0.9290 now that FC packets share the wire); with the
    // fraction carried the default switch moves >= 95 % (0.9531: FC packets, one per few
    // 64 B packets, take the rest of the wire, issue 15 item 2).
    const auto r =
        run_point({"switch.ports=64", "traffic.pattern=uniform", "traffic.arrivals=backlogged",
                   "traffic.size=64", "sim.warmup_cycles=10000", "sim.measure_cycles=20000"});
    const double acc = r["traffic"]["accepted_load"].get<double>();
    INFO("accepted_load = " << acc);
    CHECK(acc >= 0.95);
}

TEST_CASE("throughput: the defaults saturate where the README says (4 KiB, uniform)",
          "[cycle][throughput][defaults]") {
    // Issue 15 items 4 and 8: the figure README.md states for the default switch (VOQ, iSLIP
    // with 2 iterations, speedup 1.25, the shared 2 x 32 KiB input buffer per port, 300 ns
    // latency), "saturate at an accepted load of 0.92", measured here with backlogged sources
    // and nothing else set. One busy VL per input claims 810 blocks (12 packets) against the
    // 480-cycle credit loop, so the VOQs stay deep; what is left is the allocator's loss with
    // 4 KiB packets (docs/architecture.md, "Buffer organisation"). Window noise ~0.002
    // (64 ports x 20k cycles); band +-0.01.
    const auto r =
        run_point({"traffic.pattern=uniform", "traffic.arrivals=backlogged", "traffic.size=4096",
                   "sim.warmup_cycles=10000", "sim.measure_cycles=20000"});
    const double acc = r["traffic"]["accepted_load"].get<double>();
    INFO("accepted_load = " << acc);
    CHECK(acc >= 0.908);
    CHECK(acc <= 0.928);
}

TEST_CASE("throughput: a static 32 KiB per VL saturates where the docs say (4 KiB, uniform)",
          "[cycle][throughput][defaults]") {
    // The same with switch.buffer_model=static: the 512 blocks (7 packets = 455 cycles) are
    // below the 480-cycle loop with FC packets waiting behind data, and the VOQs behind them
    // are shallow: 0.79 (docs/architecture.md, "Buffer organisation"); band +-0.01.
    const auto r = run_point({"traffic.pattern=uniform", "traffic.arrivals=backlogged",
                              "traffic.size=4096", "switch.buffer_model=static",
                              "sim.warmup_cycles=10000", "sim.measure_cycles=20000"});
    const double acc = r["traffic"]["accepted_load"].get<double>();
    INFO("accepted_load = " << acc);
    CHECK(acc >= 0.78);
    CHECK(acc <= 0.80);
}
