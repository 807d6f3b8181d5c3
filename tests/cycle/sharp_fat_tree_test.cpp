// SHARP on a two-level fat tree: fabric.topology=fat_tree, switch.ports=16 (8 host ports and 8
// uplinks per leaf), 64 hosts -> 8 leaf switches. The aggregation manager builds one tree: the
// 8 leaves (level 0, 8 host children each) and one common spine (level 1, 8 leaf children).
//
//   1 MiB fp32 sum, sharp.data=on: 1 MiB > sharp.sat_threshold 16 KiB -> SAT chunks of
//   sharp.sat_chunk 4096 B -> 1 MiB / 4096 B = 256 chunks.
//   Each leaf reduces every chunk once (8 * 256 = 2048 level-0 reductions), the spine reduces
//   every chunk once (256 level-1 reductions) and sends the result down through the leaves.
//   Data mode: every result byte is compared with the golden reduction in tree order (each
//   switch folds its children in port order); a mismatch throws, so completing with
//   data_checked = true means bit-exact.
//   Lower bound: every host sends and receives S = 1 MiB over its own link:
//     t >= 256 chunks * 65 beats * 1.28 ns = 21299.2 ns (wire 4146 B -> 65 beats).
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
static_assert(CHUNK_BEATS == 65);

}  // namespace

TEST_CASE("sharp fat tree: 1 MiB allreduce on 64 hosts, 2-level tree, data checked",
          "[run][sharp]") {
    constexpr uint32_t n = 64;
    constexpr uint64_t S = 1ULL << 20;
    constexpr uint64_t CHUNKS = S / SAT_CHUNK;
    static_assert(CHUNKS == 256);
    const sim_run r = simulate(
        "sharp_ft",
        header(n, "sharp fat tree") + comm(0, 0, n) +
            allreduce(0, 0, n, 0, S / 4, "fp32", "sum", "sharp"),
        {"fabric.topology=fat_tree", "fabric.levels=2", "switch.ports=16", "sharp.data=on"});
    INFO("collectives = " << r.report["collectives"].dump());
    INFO("sharp = " << r.report["sharp"].dump());
    INFO("fabric = " << r.report["fabric"].dump());
    REQUIRE(r.out.collectives.size() == 1);
    REQUIRE(r.out.collectives[0].done);
    const auto& c = r.report["collectives"][0];
    CHECK(c["algo"] == "sharp");
    CHECK_FALSE(c.contains("fallback"));
    REQUIRE(c.contains("sharp"));
    CHECK(c["sharp"]["levels"].get<uint32_t>() == 2);
    CHECK(c["sharp"]["data_checked"].get<bool>());
    const double t = c["time_ns"].get<double>();
    WARN(std::fixed << std::setprecision(2) << "fat tree SHARP 1 MiB on 64 hosts: time " << t
                    << " ns, algbw " << c["algbw_GBps"].get<double>() << " GB/s, wall "
                    << r.out.wall_s << " s");
    CHECK(t >= ns_of(CHUNKS * CHUNK_BEATS));
    CHECK(c["busbw_factor"].get<double>() == Approx(63.0 / 65.0).epsilon(1e-12));
    const auto& trees = r.report["sharp"]["trees"];
    CHECK(trees.size() == 1);
    const auto& lv = r.report["sharp"]["levels"];
    bool have0 = false;
    bool have1 = false;
    for (const auto& l : lv) {
        const uint32_t level = l["level"].get<uint32_t>();
        if (level == 0) {
            have0 = true;
            CHECK(l["aggregation_nodes"].get<double>() == 8.0);
            CHECK(l["chunks_reduced"].get<double>() == 8.0 * CHUNKS);
        } else if (level == 1) {
            have1 = true;
            CHECK(l["aggregation_nodes"].get<double>() == 1.0);
            CHECK(l["chunks_reduced"].get<double>() == static_cast<double>(CHUNKS));
        }
    }
    CHECK(have0);
    CHECK(have1);
    CHECK(lv.size() == 2);
    CHECK(r.out.hca.retransmitted_packets == 0);
}
