// SHARP streaming aggregation (SAT): 64 MiB fp32 sum allreduce on 16 hosts of one switch must
// run at >= 90 % of the link payload rate, and report the in-network busbw factor.
//
//   cycle c = 64 B * 8 bit / 400 Gb/s = 1.28 ns
//   64 MiB > sharp.sat_threshold 16 KiB -> SAT, chunks of sharp.sat_chunk = 4096 B:
//     16384 chunks per host; wire = 8+12+8+16 + 4096 + 4+2 = 4146 B -> 65 beats (64 B each)
//   link payload rate B = 4096 B / (65 * 1.28 ns) = 49.2308 GB/s (same 65 beats as an MTU
//     RDMA packet). Every host sends S once up and receives S once down, each on its own
//     full-duplex link, so t >= S / B = 1363148.8 ns and algbw = S / t <= B.
//   Window: sharp.osts_per_tree 64 / (4096 / sharp.ost_bytes 2048 = 2 OSTs per chunk) = 32 chunks
//     in flight = 32 * 65 = 2080 cycles of link time, far above one chunk's round trip
//     (TX 196 + LINK 90 + SW 235 + ALU 40 + 1 + LINK 90 + 65 + RX 196 ~ 913 cycles), so the link,
//     not the window, limits: expected algbw ~ B * S/B / (S/B + ~1 us) ~ 99.9 % of B.
//   busbw factor (docs/domain.md §9, in-network allreduce) = (n-1)/(n+1) = 15/17.
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
constexpr uint64_t SAT_CHUNK = 4096;
constexpr uint64_t CHUNK_BEATS = beats(sharp_wire(SAT_CHUNK));
static_assert(sharp_wire(SAT_CHUNK) == 4146 && CHUNK_BEATS == 65);
constexpr double B_LINK = static_cast<double>(SAT_CHUNK) / (CHUNK_BEATS * CYCLE_NS);  // GB/s

}  // namespace

TEST_CASE("sharp SAT: 64 MiB allreduce on 16 hosts runs at >= 90% of link payload rate",
          "[run][sharp]") {
    constexpr uint32_t n = 16;
    constexpr uint64_t S = 64ULL << 20;
    const sim_run r =
        simulate("sharp_sat",
                 header(n, "sharp sat") + comm(0, 0, n) +
                     allreduce(0, 0, n, 0, S / 4, "fp32", "sum", "sharp"),
                 {"switch.ports=64", "fabric.topology=single_switch", "sharp.data=auto"});
    INFO("collectives = " << r.report["collectives"].dump());
    INFO("sharp = " << r.report["sharp"].dump());
    REQUIRE(r.out.collectives.size() == 1);
    REQUIRE(r.out.collectives[0].done);
    const auto& c = r.report["collectives"][0];
    CHECK(c["algo"] == "sharp");
    CHECK_FALSE(c.contains("fallback"));
    CHECK(c["bytes"].get<uint64_t>() == S);
    CHECK(c["sharp"]["levels"].get<uint32_t>() == 1);
    CHECK_FALSE(c["sharp"]["data_checked"].get<bool>());  // auto: only <= 1 MiB carries data
    const double t = c["time_ns"].get<double>();
    const double algbw = c["algbw_GBps"].get<double>();
    WARN(std::fixed << std::setprecision(3) << "SAT 64 MiB on 16 hosts: time " << t
                    << " ns (S/B = " << static_cast<double>(S) / B_LINK << " ns), algbw " << algbw
                    << " GB/s = " << 100.0 * algbw / B_LINK << " % of " << B_LINK << " GB/s, busbw "
                    << c["busbw_GBps"].get<double>() << " GB/s, wall " << r.out.wall_s << " s");
    CHECK(algbw == Approx(static_cast<double>(S) / t).epsilon(1e-9));
    CHECK(t >= static_cast<double>(S) / B_LINK);  // physical bound: S over one link
    CHECK(algbw >= 0.90 * B_LINK);
    CHECK(c["busbw_factor"].get<double>() == Approx(15.0 / 17.0).epsilon(1e-12));
    CHECK(c["busbw_GBps"].get<double>() == Approx(algbw * 15.0 / 17.0).epsilon(1e-9));
    // One level; every one of the 16384 chunks reduced once.
    const auto& lv = r.report["sharp"]["levels"];
    REQUIRE(lv.size() == 1);
    CHECK(lv[0]["chunks_reduced"].get<double>() == static_cast<double>(S / SAT_CHUNK));
    CHECK(lv[0]["max_osts_in_use"].get<double>() <= 64.0);  // sharp.osts_per_tree
    CHECK(r.out.hca.retransmitted_packets == 0);
}
