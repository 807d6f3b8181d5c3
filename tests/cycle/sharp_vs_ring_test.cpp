// SHARP vs ring allreduce on 64 hosts of one switch at S = 256 MiB fp32: SHARP must be >= 1.8x
// faster. One simulation: the same communicator runs seq 0 = SHARP, then seq 1 = ring (each
// rank issues seq 1 when its seq 0 part is done); each collective's time_ns is its own.
//
//   cycle c = 1.28 ns; every packet of both algorithms is 65 beats:
//     ring: RDMA WRITE of 4096 B MTU packets (4122..4138 B wire) -> 65 beats
//     SHARP SAT: 4096 B chunks, wire 8+12+8+16+4096+4+2 = 4146 B -> 65 beats
//   B = 4096 B / (65 * 1.28 ns) = 49.2308 GB/s; S / B = 65536 * 83.2 ns = 5452595.2 ns
//
//   ring (docs/domain.md §9 alpha-beta; as in run_ring_bound_test):
//     t_ring = 2(n-1)/n * S/B + 2(n-1) * alpha,
//     alpha  = TX 196 + LINK 90 + SW 235 + LINK 90 + 65 + RX 196 = 872 cycles = 1116.16 ns
//            = 1.96875 * 5452595.2 + 126 * 1116.16 = 10734796.8 + 140636.16 = 10875432.96 ns
//   SHARP: each host streams its 65536 chunks back to back (window 32 chunks = 2080 cycles >
//     one chunk's round trip, so the uplink never idles); the last chunk leaves the host at
//     TX + (K-1)*65 and its result is placed LINK + SW + ALU + 1 + LINK + 65 + RX later:
//     t_sharp = K*65 + TX + LINK + SW + ALU + 1 + LINK + RX
//             = S/B + (196+90+235+40+1+90+196 = 848 cycles = 1085.44 ns) = 5453680.64 ns
//   Credit loop (as in run_ring_bound_test): with every host link busy both ways, FC packets
//   wait for the data packet on the reverse wire, so the default 32 KiB buffer moves a ring
//   stream at 7 * 65 / 480 of B: t_ring = 10734796.8 / 0.947917 + 140636.16 = 11465242.4 ns.
//   (SHARP streams keep ~B: a SHARP packet's blocks are freed at once when it reaches the node.)
//   expected ratio = 11465242.4 / 5453680.64 = 2.102 (without the credit loop 1.9941: the bandwidth
//   terms alone give 2(n-1)/n = 1.96875; the ring's 126 alpha steps add 1.3 %); required >= 1.8.
//   Each time is also checked within 3 % of its own formula.
// Runtime (Release, 1 core): ~6 s ring + ~2 s SHARP; 256 MiB is used as briefed.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <string>
#include <vector>

#include <unistd.h>

#include <systemc>

#include "config/config_loader.h"
#include "run_report.h"
#include "run_sim.h"
#include "trace/trace.h"

#include "sharp_test_util.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using namespace sharp_test;  // NOLINT: test-local helpers
constexpr uint64_t TX = ceil_div(250'000, CYCLE_PS);
constexpr uint64_t RX = ceil_div(250'000, CYCLE_PS);
constexpr uint64_t LINK = ceil_div(100'000 + 3'000 * 5'000 / 1000, CYCLE_PS);
constexpr uint64_t SW = ceil_div(300'000, CYCLE_PS);
constexpr uint64_t ALU = ceil_div(50'000, CYCLE_PS);
constexpr uint64_t PKT_BEATS = 65;
static_assert(beats(sharp_wire(4096)) == PKT_BEATS);
static_assert(ceil_div(4096 + 8 + 12 + 16 + 4 + 2, 64) == PKT_BEATS);  // RDMA WRITE FIRST
constexpr uint64_t ALPHA = TX + LINK + SW + LINK + PKT_BEATS + RX;
constexpr uint64_t SHARP_LAT = TX + LINK + SW + ALU + 1 + LINK + RX;
static_assert(ALPHA == 872 && SHARP_LAT == 848);
constexpr double B_EFF = 4096.0 / (PKT_BEATS * CYCLE_NS);

}  // namespace

TEST_CASE("sharp vs ring: 256 MiB allreduce on 64 hosts, SHARP >= 1.8x faster", "[run][sharp]") {
    constexpr uint32_t n = 64;
    constexpr uint64_t S = 256ULL << 20;
    const sim_run r = simulate("sharp_vs_ring",
                               header(n, "sharp vs ring") + comm(0, 0, n) +
                                   allreduce(0, 0, n, 0, S / 4, "fp32", "sum", "sharp") +
                                   allreduce(0, 0, n, 1, S / 4, "fp32", "sum", "ring"),
                               {"switch.ports=64", "fabric.topology=single_switch",
                                "collective.chunk=1MiB", "sharp.data=auto"});
    INFO("collectives = " << r.report["collectives"].dump());
    REQUIRE(r.out.collectives.size() == 2);
    REQUIRE(r.out.collectives[0].done);
    REQUIRE(r.out.collectives[1].done);
    const auto& cs = r.report["collectives"][0];
    const auto& cr = r.report["collectives"][1];
    CHECK(cs["algo"] == "sharp");
    CHECK_FALSE(cs.contains("fallback"));
    CHECK(cr["algo"] == "ring");
    const double ts = cs["time_ns"].get<double>();
    const double trg = cr["time_ns"].get<double>();
    const double SB = static_cast<double>(S) / B_EFF;
    const double t_ring =
        2.0 * (n - 1) / n * SB / (7.0 * 65.0 / 480.0) + 2.0 * (n - 1) * ns_of(ALPHA);
    const double t_sharp = SB + ns_of(SHARP_LAT);
    const double ratio = trg / ts;
    WARN(std::fixed << std::setprecision(2) << "256 MiB on 64 hosts: SHARP " << ts << " ns (model "
                    << t_sharp << "), ring " << trg << " ns (model " << t_ring << "), ratio "
                    << std::setprecision(4) << ratio << " (model " << t_ring / t_sharp << "), wall "
                    << std::setprecision(2) << r.out.wall_s << " s");
    CHECK(ratio >= 1.8);
    CHECK(ts >= SB);
    CHECK(std::fabs(ts - t_sharp) <= 0.03 * t_sharp);
    CHECK(std::fabs(trg - t_ring) <= 0.03 * t_ring);
    // The sequence: ring starts after SHARP ends (same ranks, seq 1 after seq 0).
    CHECK(cr["start_ns"].get<double>() >= cs["end_ns"].get<double>());
}
