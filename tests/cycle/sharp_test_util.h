// Shared harness of the SHARP tests: the raw timing numbers every hand derivation starts from,
// the explicit config they use, trace-text builders and a one-simulation runner. Included by
// one test file per process (SystemC elaborates once per process).
#pragma once
#include <unistd.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "../temp_dir.h"
#include "config/config_loader.h"
#include "pinned_timing.h"
#include "run_report.h"
#include "run_sim.h"
#include "trace/trace.h"

namespace sharp_test {

// ---- raw numbers --------------------------------------------------------------------------
constexpr uint64_t CYCLE_PS = 64ULL * 8 * 1'000'000'000'000ULL / 400'000'000'000ULL;  // 1280
constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}
constexpr uint64_t pad4(uint64_t p) {
    return ceil_div(p, 4) * 4;
}
constexpr double CYCLE_NS = static_cast<double>(CYCLE_PS) / 1000.0;
constexpr double ns_of(uint64_t cycles) {
    return static_cast<double>(cycles * CYCLE_PS) / 1000.0;
}
/// SHARP packet: LRH 8 + BTH 12 + DETH 8 + SHARP header 16 + pad4(payload) + ICRC 4 + VCRC 2.
constexpr uint64_t sharp_wire(uint64_t payload) {
    return 8 + 12 + 8 + 16 + pad4(payload) + 4 + 2;
}
constexpr uint64_t beats(uint64_t wire) {
    return ceil_div(wire, 64);
}

// ---- harness ------------------------------------------------------------------------------
std::vector<std::string> base_sets() {
    // Every number used in the hand derivation, set explicitly so a change of defaults cannot
    // move the test.
    return ndr::test::pinned_timing_sets({"sharp.vl=1", "sharp.ost_bytes=2048B", "sharp.osts=256",
                                          "sharp.osts_per_tree=64", "sharp.sat_threshold=16KiB",
                                          "sharp.sat_chunk=4096B", "sharp.alu_latency=50ns",
                                          "sharp.max_trees=511"});
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
                      const std::string& dtype, const std::string& redop, const std::string& algo) {
    std::string t;
    for (uint32_t r = 0; r < n; ++r) {
        t += "{\"type\":\"op\",\"rank\":" + std::to_string(first + r) +
             ",\"comm\":" + std::to_string(id) + ",\"seq\":" + std::to_string(seq) +
             ",\"op\":\"allreduce\",\"count\":" + std::to_string(count) + ",\"dtype\":\"" + dtype +
             "\",\"redop\":\"" + redop + "\",\"algo\":\"" + algo + "\"}\n";
    }
    return t;
}

struct sim_run {
    ndr::tb::run_outcome out;
    nlohmann::json report;
};

/// The config (base_sets() + `extra`) and the trace of `trace_text` for ONE simulation
/// (SystemC elaborates once per process; ctest runs each TEST_CASE alone).
std::pair<ndr::cfg::config, ndr::trace::trace> prepare(const std::string& tag,
                                                       const std::string& trace_text,
                                                       const std::vector<std::string>& extra) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<std::string> sets = base_sets();
    sets.insert(sets.end(), extra.begin(), extra.end());
    ndr::cfg::config c = ndr::cfg::load_config("", sets);
    const std::string path = ndr::test::temp_dir() + "ndrsim_" + tag + "_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << trace_text;
        REQUIRE(f.good());
    }
    ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    return {std::move(c), std::move(tr)};
}

/// ONE simulation at the cycle level.
sim_run simulate(const std::string& tag, const std::string& trace_text,
                 const std::vector<std::string>& extra) {
    const auto [c, tr] = prepare(tag, trace_text, extra);
    sim_run r;
    r.out = ndr::tb::run_trace(c, tr);
    r.report = ndr::tb::run_report_json(c, tr, r.out);
    return r;
}

}  // namespace sharp_test
