// SHARP bit-exactness in data-carrying mode (sharp.data=on), one dtype family per case, on 8
// hosts of one switch. Each host's contribution is generated deterministically, every switch
// reduces the real bytes with the golden ALU in child-port order, and replay::on_sharp_result
// compares every result byte with the golden tree reduction (and the result size): a mismatch
// throws out of run_trace, so a completed run with data_checked = true is bit-exact.
//
// Sizes are chosen so the last chunk is partial (tail handling) and both chunkings are covered:
//   int32 sum  40000 B (10000 elements) > 16 KiB: SAT, 4096 B chunks -> 9 full + 1 of 3136 B
//   fp16  sum  12300 B ( 6150 elements) <= 16 KiB: LLT, 2048 B chunks -> 6 full + 1 of 12 B
//   bf16  max 100002 B (50001 elements) > 16 KiB: SAT -> 24 full + 1 of 1698 B
//   fp64  min   8200 B ( 1025 elements) <= 16 KiB: LLT -> 4 full + 1 of 8 B
//   chunks per case = ceil(S / chunk); the single aggregation node reduces each once.
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
void run_dtype(const std::string& tag, const std::string& dtype, const std::string& redop,
               uint64_t elem_bytes, uint64_t count, uint64_t chunk_bytes) {
    constexpr uint32_t n = 8;
    const uint64_t S = count * elem_bytes;
    const sim_run r = simulate(tag, header(n, "sharp " + dtype) + comm(0, 0, n) +
                                        allreduce(0, 0, n, 0, count, dtype, redop, "sharp"),
                               {"switch.ports=64", "fabric.topology=single_switch",
                                "sharp.data=on"});
    INFO("collectives = " << r.report["collectives"].dump());
    INFO("sharp = " << r.report["sharp"].dump());
    REQUIRE(r.out.collectives.size() == 1);
    REQUIRE(r.out.collectives[0].done);
    const auto& c = r.report["collectives"][0];
    CHECK(c["algo"] == "sharp");
    CHECK_FALSE(c.contains("fallback"));
    CHECK(c["bytes"].get<uint64_t>() == S);
    REQUIRE(c.contains("sharp"));
    CHECK(c["sharp"]["data_checked"].get<bool>());
    const auto& lv = r.report["sharp"]["levels"];
    REQUIRE(lv.size() == 1);
    CHECK(lv[0]["chunks_reduced"].get<double>() == static_cast<double>(ceil_div(S, chunk_bytes)));
}

}  // namespace

TEST_CASE("sharp data: int32 sum bit-exact (SAT, partial tail chunk)", "[run][sharp]") {
    run_dtype("sharp_dt_i32", "int32", "sum", 4, 10000, 4096);
}

TEST_CASE("sharp data: fp16 sum bit-exact (LLT, partial tail chunk)", "[run][sharp]") {
    run_dtype("sharp_dt_f16", "fp16", "sum", 2, 6150, 2048);
}

TEST_CASE("sharp data: bf16 max bit-exact (SAT, partial tail chunk)", "[run][sharp]") {
    run_dtype("sharp_dt_bf16", "bf16", "max", 2, 50001, 4096);
}

TEST_CASE("sharp data: fp64 min bit-exact (LLT, partial tail chunk)", "[run][sharp]") {
    run_dtype("sharp_dt_f64", "fp64", "min", 8, 1025, 2048);
}
