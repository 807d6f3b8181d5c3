// SHARP fallback to a host algorithm when no tree can be had or the operation is not supported
// (DOMAIN.md §7: sum/min/max only, no prod/avg). The collective must still complete, with
// collectives[i].algo the host algorithm chosen (ring or tree), algo_requested "sharp" and
// collectives[i].fallback saying why.
//
//   Tree exhaustion: sharp.max_trees = 1, 16 hosts on one switch, two disjoint communicators
//   (comm 0 = ranks 0..7, comm 1 = ranks 8..15), each one 64 KiB fp32 sum allreduce with algo
//   sharp, issued together at t = 0. The trace lists comm 0's records first, so its collective
//   starts first and takes the subnet's only tree; comm 1's finds trees_.size() 1 >= 1 and
//   falls back, naming sharp.max_trees.
//   Unsupported redop: prod on 8 hosts falls back naming the redop.
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
bool host_algo(const nlohmann::json& c) { return c["algo"] == "ring" || c["algo"] == "tree"; }

}  // namespace

TEST_CASE("sharp fallback: sharp.max_trees=1, second communicator falls back", "[run][sharp]") {
    constexpr uint32_t half = 8;
    constexpr uint64_t count = (64 * 1024) / 4;
    const sim_run r = simulate(
        "sharp_fb_trees",
        header(2 * half, "sharp max_trees") + comm(0, 0, half) + comm(1, half, half) +
            allreduce(0, 0, half, 0, count, "fp32", "sum", "sharp") +
            allreduce(1, half, half, 0, count, "fp32", "sum", "sharp"),
        {"switch.ports=64", "fabric.topology=single_switch", "sharp.max_trees=1"});
    INFO("collectives = " << r.report["collectives"].dump());
    INFO("sharp = " << r.report["sharp"].dump());
    REQUIRE(r.out.collectives.size() == 2);
    CHECK(r.out.collectives[0].done);
    CHECK(r.out.collectives[1].done);
    const auto& c0 = r.report["collectives"][0];
    const auto& c1 = r.report["collectives"][1];
    CHECK(c0["comm"].get<uint32_t>() == 0);
    CHECK(c1["comm"].get<uint32_t>() == 1);
    // comm 0: on SHARP.
    CHECK(c0["algo"] == "sharp");
    CHECK_FALSE(c0.contains("fallback"));
    CHECK(c0.contains("sharp"));
    // comm 1: host algorithm, with the reason.
    CHECK(c1["algo_requested"] == "sharp");
    CHECK(host_algo(c1));
    CHECK_FALSE(c1.contains("sharp"));
    REQUIRE(c1.contains("fallback"));
    CHECK(c1["fallback"].get<std::string>().find("sharp.max_trees") != std::string::npos);
    CHECK(c1["time_ns"].get<double>() > 0.0);
    CHECK(r.report["sharp"]["trees"].size() == 1);
    // The fallback's busbw factor is the point-to-point one, 2(n-1)/n = 14/8.
    CHECK(c1["busbw_factor"].get<double>() == Approx(2.0 * (half - 1) / half));
    CHECK(c0["busbw_factor"].get<double>() == Approx((half - 1.0) / (half + 1.0)));
    CHECK(r.out.hca.retransmitted_packets == 0);
}

TEST_CASE("sharp fallback: redop prod is not a SHARP operation", "[run][sharp]") {
    constexpr uint32_t n = 8;
    const sim_run r = simulate("sharp_fb_prod",
                               header(n, "sharp prod") + comm(0, 0, n) +
                                   allreduce(0, 0, n, 0, 4096, "fp32", "prod", "sharp"),
                               {"switch.ports=64", "fabric.topology=single_switch"});
    INFO("collectives = " << r.report["collectives"].dump());
    REQUIRE(r.out.collectives.size() == 1);
    CHECK(r.out.collectives[0].done);
    const auto& c = r.report["collectives"][0];
    CHECK(c["algo_requested"] == "sharp");
    CHECK(host_algo(c));
    CHECK_FALSE(c.contains("sharp"));
    REQUIRE(c.contains("fallback"));
    const std::string why = c["fallback"].get<std::string>();
    CHECK(why.find("prod") != std::string::npos);
    CHECK(why.find("redop") != std::string::npos);
    CHECK(r.report["sharp"]["trees"].size() == 0);  // no tree was built for it
}
