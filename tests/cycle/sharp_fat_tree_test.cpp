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

extern "C" int sc_main(int, char*[]) { return 0; }

namespace {

// ---- raw numbers --------------------------------------------------------------------------
constexpr uint64_t CYCLE_PS = 64ULL * 8 * 1'000'000'000'000ULL / 400'000'000'000ULL;  // 1280
constexpr uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
constexpr uint64_t pad4(uint64_t p) { return ceil_div(p, 4) * 4; }
constexpr double CYCLE_NS = static_cast<double>(CYCLE_PS) / 1000.0;
constexpr double ns_of(uint64_t cycles) { return static_cast<double>(cycles * CYCLE_PS) / 1000.0; }
/// SHARP packet: LRH 8 + BTH 12 + DETH 8 + SHARP header 16 + pad4(payload) + ICRC 4 + VCRC 2.
constexpr uint64_t sharp_wire(uint64_t payload) { return 8 + 12 + 8 + 16 + pad4(payload) + 4 + 2; }
constexpr uint64_t beats(uint64_t wire) { return ceil_div(wire, 64); }

// ---- harness ------------------------------------------------------------------------------
std::vector<std::string> base_sets() {
    // Every number used in the hand derivation, set explicitly so a change of defaults cannot
    // move the test.
    return {"link.rate=400Gbps",          "switch.datapath_width=64B", "hca.tx_latency=250ns",
            "hca.rx_latency=250ns",       "link.fec_latency=100ns",    "link.cable_length=3m",
            "link.propagation_per_m=5ns", "switch.latency=300ns",      "switch.cut_through=true",
            "hca.mtu=4096B",              "sharp.vl=1",                "sharp.ost_bytes=2048B",
            "sharp.osts=256",             "sharp.osts_per_tree=64",    "sharp.sat_threshold=16KiB",
            "sharp.sat_chunk=4096B",      "sharp.alu_latency=50ns",    "sharp.max_trees=511"};
}

std::string ranks_list(uint32_t first, uint32_t n) {
    std::string s;
    for (uint32_t r = 0; r < n; ++r) s += (r ? "," : "") + std::to_string(first + r);
    return s;
}

std::string header(uint32_t nranks, const std::string& name) {
    return "{\"type\":\"header\",\"version\":1,\"nranks\":" + std::to_string(nranks) +
           ",\"name\":\"" + name + "\"}\n";
}

std::string comm(uint32_t id, uint32_t first, uint32_t n) {
    return "{\"type\":\"comm\",\"id\":" + std::to_string(id) + ",\"ranks\":[" +
           ranks_list(first, n) + "]}\n";
}

/// One op record per member of comm `id` (global ranks first..first+n-1).
std::string allreduce(uint32_t id, uint32_t first, uint32_t n, uint32_t seq, uint64_t count,
                      const std::string& dtype, const std::string& redop,
                      const std::string& algo) {
    std::string t;
    for (uint32_t r = 0; r < n; ++r) {
        t += "{\"type\":\"op\",\"rank\":" + std::to_string(first + r) + ",\"comm\":" +
             std::to_string(id) + ",\"seq\":" + std::to_string(seq) +
             ",\"op\":\"allreduce\",\"count\":" + std::to_string(count) + ",\"dtype\":\"" +
             dtype + "\",\"redop\":\"" + redop + "\",\"algo\":\"" + algo + "\"}\n";
    }
    return t;
}

struct sim_run {
    ndr::tb::run_outcome out;
    nlohmann::json report;
};

/// ONE simulation (SystemC elaborates once per process; ctest runs each TEST_CASE alone).
sim_run simulate(const std::string& tag, const std::string& trace_text,
                 const std::vector<std::string>& extra) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<std::string> sets = base_sets();
    sets.insert(sets.end(), extra.begin(), extra.end());
    const ndr::cfg::config c = ndr::cfg::load_config("", sets);
    const std::string path = "/tmp/ndrsim_" + tag + "_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << trace_text;
        REQUIRE(f.good());
    }
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    sim_run r;
    r.out = ndr::tb::run_trace(c, tr);
    r.report = ndr::tb::run_report_json(c, tr, r.out);
    return r;
}
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
    const sim_run r = simulate("sharp_ft", header(n, "sharp fat tree") + comm(0, 0, n) +
                                               allreduce(0, 0, n, 0, S / 4, "fp32", "sum", "sharp"),
                               {"fabric.topology=fat_tree", "fabric.levels=2", "switch.ports=16",
                                "sharp.data=on"});
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
