// Zero-load latency of the cycle-level switch, exact to the cycle (docs/style.md §10).
//
// Timing model (expectations below are computed by hand from these rules, not by the model):
//   cycle           = 64 B at the link rate: 64*8 bits / rate (1280 ps at 400 Gb/s)
//   link (L)        = ceil((link.fec_latency + cable_length * propagation_per_m) / cycle),
//                     at least 1 cycle
//   switch (S)      = ceil(switch.latency / cycle), header in -> header out
//   beats (B)       = ceil(wire bytes / 64), wire = LRH 8 + BTH 12 + pad4(payload) + ICRC 4 +
//                     VCRC 2
//   latency         = creation at the source -> the cycle after the last beat arrives:
//                     cut-through 2L + S + B; store-and-forward adds B - 1.
//
// No contention: `permutation` gives every destination exactly one source. The only queueing
// left is at a source when a Bernoulli arrival comes while that source's previous packet is
// still on the wire (probability ~= load per packet, geometric gaps). The load is chosen so
// the expected number of such packets over the whole run is about 0.1, and the window is long
// enough for several hundred samples; the run is deterministic (fixed seed), and since idle
// cycles cost nothing (event-driven engine) a 10M-cycle window takes well under a second.
// With 1-beat packets a source can never queue (gaps are >= 1 cycle), so that case runs at a
// real load.
#include "cycle_test_util.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using ndr::test::beats_of;
using ndr::test::ceil_div;
using ndr::test::ns_to_cycles;
using ndr::test::run_point;

constexpr uint64_t PS_PER_S = 1'000'000'000'000ULL;

constexpr uint64_t cycle_ps_at(uint64_t rate_bps) {
    return 64 * 8 * PS_PER_S / rate_bps;
}

/// Checks that every measured packet had exactly `expect_cycles` of latency and that there
/// were at least `min_samples` of them.
void require_exact_latency(const nlohmann::json& r, uint64_t cycle_ps, uint64_t expect_cycles,
                           uint64_t min_samples, bool exact_max = true) {
    const auto& lat = r["latency_ns"];
    INFO("latency_ns = " << lat.dump());
    INFO("expected " << expect_cycles << " cycles = "
                     << static_cast<double>(expect_cycles * cycle_ps) / 1000.0 << " ns");
    REQUIRE(lat["complete"].get<bool>());
    REQUIRE(lat["samples"].get<uint64_t>() >= min_samples);
    CHECK(ns_to_cycles(r["sim"]["cycle_ns"].get<double>(), cycle_ps) == 1);
    CHECK(ns_to_cycles(lat["min"].get<double>(), cycle_ps) == expect_cycles);
    CHECK(ns_to_cycles(lat["p50"].get<double>(), cycle_ps) == expect_cycles);
    if (exact_max) CHECK(ns_to_cycles(lat["max"].get<double>(), cycle_ps) == expect_cycles);
    CHECK(ns_to_cycles(lat["max"].get<double>(), cycle_ps) >= expect_cycles);
    CHECK(lat["min"].get<double>() ==
          Approx(static_cast<double>(expect_cycles * cycle_ps) / 1000.0).epsilon(1e-12));
    CHECK(r["packets"]["dropped"].get<uint64_t>() == 0);
}

// Sets shared by the 4 KiB cases: 8 ports, permutation, very low Bernoulli load (see the file
// comment), 10M-cycle window: 8 sources * 10M * 0.0003/65 ~= 370 packets.
std::vector<std::string> low_load_4k(std::vector<std::string> extra) {
    std::vector<std::string> s = {"switch.ports=8",         "traffic.pattern=permutation",
                                  "traffic.load=0.0003",    "traffic.size=4096",
                                  "sim.warmup_cycles=2000", "sim.measure_cycles=10000000"};
    s.insert(s.end(), extra.begin(), extra.end());
    return s;
}

}  // namespace

TEST_CASE("latency: zero load, cut-through, 400G defaults, 4 KiB = 2L+S+B = 480 cycles",
          "[cycle][latency]") {
    // 400 Gb/s: cycle = 512 bits / 400e9 = 1280 ps.
    const uint64_t cyc = cycle_ps_at(400'000'000'000ULL);
    REQUIRE(cyc == 1280);
    // Link: FEC 100 ns + 3 m * 5 ns/m = 115 ns -> ceil(115000 / 1280) = 90 cycles (115.2 ns).
    const uint64_t link = ceil_div(100'000 + 3 * 5'000, cyc);
    REQUIRE(link == 90);
    // Switch: 300 ns -> ceil(300000 / 1280) = 235 cycles (300.8 ns).
    const uint64_t sw = ceil_div(300'000, cyc);
    REQUIRE(sw == 235);
    // 4096 B payload + 26 B = 4122 B -> 65 beats.
    const uint64_t beats = beats_of(4096);
    REQUIRE(beats == 65);
    // 2*90 + 235 + 65 = 480 cycles = 614.4 ns.
    const auto r = run_point(low_load_4k({"switch.latency=300ns", "link.fec_latency=100ns",
                                          "link.cable_length=3m", "link.propagation_per_m=5ns"}));
    require_exact_latency(r, cyc, 2 * link + sw + beats, 200);
    CHECK(r["latency_ns"]["max"].get<double>() == Approx(614.4).epsilon(1e-12));
}

TEST_CASE("latency: switch.latency_split moves latency after the crossbar, zero-load total equal",
          "[cycle][latency]") {
    // switch.latency_split 0.5: the 234 cycles after the header's arrival cycle split into
    // round(0.5 x 234) = 117 of egress pipeline and 117 of ingress; header in -> header out is
    // still 235 cycles, so the zero-load latency is the 2 x 90 + 235 + 65 = 480 cycles above.
    const uint64_t cyc = cycle_ps_at(400'000'000'000ULL);
    const auto r = run_point(
        low_load_4k({"switch.latency=300ns", "link.fec_latency=100ns", "link.cable_length=3m",
                     "link.propagation_per_m=5ns", "switch.latency_split=0.5"}));
    require_exact_latency(r, cyc, 2 * 90 + 235 + 65, 200);
}

TEST_CASE("latency: zero load, even numbers: 256 ns switch, no FEC, no cable, 1-beat packet",
          "[cycle][latency]") {
    const uint64_t cyc = cycle_ps_at(400'000'000'000ULL);
    // Link: 0 ps of FEC and cable. The model enforces a minimum link latency of 1 cycle (a beat
    // sent in cycle t is received at t+1 at the earliest), so L = 1, not 0.
    const uint64_t link = 1;
    // Switch: 256 ns = 200 cycles exactly.
    REQUIRE(256'000 % cyc == 0);
    const uint64_t sw = 256'000 / cyc;
    REQUIRE(sw == 200);
    // 36 B payload -> 8+12+36+4+2 = 62 B -> 1 beat. (38 B pads to 40 B -> 66 B -> 2 beats: the
    // largest 1-beat payload is 36 B.)
    REQUIRE(ndr::test::ib_wire_bytes(36) == 62);
    const uint64_t beats = beats_of(36);
    REQUIRE(beats == 1);
    // 2*1 + 200 + 1 = 203 cycles = 259.84 ns. 1-beat packets never queue at the source (a gap
    // is >= 1 cycle), so a real load is fine: 8 * 100k * 0.1 = 80k samples.
    const auto r =
        run_point({"switch.ports=8", "traffic.pattern=permutation", "traffic.load=0.1",
                   "traffic.size=36", "switch.latency=256ns", "link.fec_latency=0ns",
                   "link.cable_length=0m", "sim.warmup_cycles=2000", "sim.measure_cycles=100000"});
    // Not the maximum: FC packets (6 B each, one per 1-beat packet received, paced at
    // link.fc_min_interval) take wire time, a beat per 64 B of them, so now and then a packet
    // waits a cycle or a few behind one (docs/architecture.md, "Credits"). Minimum and median
    // stay exact.
    require_exact_latency(r, cyc, 2 * link + sw + beats, 50'000, false);
}

TEST_CASE("latency: zero load, store-and-forward adds beats-1 = 64 cycles for 4 KiB",
          "[cycle][latency]") {
    const uint64_t cyc = cycle_ps_at(400'000'000'000ULL);
    const uint64_t link = ceil_div(115'000, cyc);  // 90
    const uint64_t sw = ceil_div(300'000, cyc);    // 235
    const uint64_t beats = beats_of(4096);         // 65
    // Cut-through 480 cycles + (65 - 1) = 544 cycles = 696.32 ns.
    const uint64_t expect = 2 * link + sw + beats + (beats - 1);
    REQUIRE(expect == 544);
    const auto r = run_point(low_load_4k({"switch.cut_through=false"}));
    require_exact_latency(r, cyc, expect, 200);
}

TEST_CASE("latency: zero load at 200 Gb/s (2.56 ns cycle), 4 KiB = 273 cycles",
          "[cycle][latency]") {
    // 200 Gb/s: cycle = 512 bits / 200e9 = 2560 ps.
    const uint64_t cyc = cycle_ps_at(200'000'000'000ULL);
    REQUIRE(cyc == 2560);
    const uint64_t link = ceil_div(115'000, cyc);  // 44.92 -> 45
    REQUIRE(link == 45);
    const uint64_t sw = ceil_div(300'000, cyc);  // 117.19 -> 118
    REQUIRE(sw == 118);
    const uint64_t beats = beats_of(4096);  // 65 (64 B per beat at any rate)
    // 2*45 + 118 + 65 = 273 cycles = 698.88 ns.
    const auto r = run_point(low_load_4k({"link.rate=200Gbps"}));
    require_exact_latency(r, cyc, 2 * link + sw + beats, 200);
    CHECK(r["latency_ns"]["min"].get<double>() == Approx(698.88).epsilon(1e-12));
}

TEST_CASE("latency: 38 B payload is padded to 40 B: 66 B on the wire = 2 beats",
          "[cycle][latency]") {
    // The IBA pads the payload to a multiple of 4 B (BTH.PadCnt): 38 -> 40, wire 66 B, which
    // needs 2 beats. Same even-numbered setup as the 1-beat case: 2*1 + 200 + 2 = 204 cycles.
    // A 2-beat packet queues at its source when the next arrival is 1 cycle later; at load
    // 0.001 that is ~0.05% of packets: 8 * 1M * 0.001/2 = 4000 samples -> ~2 expected, so use
    // 0.0001 and 4M cycles (~1600 samples, ~0.1 expected).
    const uint64_t cyc = cycle_ps_at(400'000'000'000ULL);
    REQUIRE(ndr::test::ib_wire_bytes(38) == 66);
    const uint64_t beats = beats_of(38);
    REQUIRE(beats == 2);
    const auto r =
        run_point({"switch.ports=8", "traffic.pattern=permutation", "traffic.load=0.0001",
                   "traffic.size=38", "switch.latency=256ns", "link.fec_latency=0ns",
                   "link.cable_length=0m", "sim.warmup_cycles=2000", "sim.measure_cycles=4000000"});
    require_exact_latency(r, cyc, 2 * 1 + 200 + beats, 500);
}
