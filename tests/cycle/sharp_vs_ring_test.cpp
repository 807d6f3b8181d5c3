// SHARP vs ring allreduce on 64 hosts of one switch at S = 256 MiB fp32: SHARP must be >= 1.8x
// faster. One simulation: the same communicator runs seq 0 = SHARP, then seq 1 = ring (each
// rank issues seq 1 when its seq 0 part is done); each collective's time_ns is its own.
//
//   cycle c = 1.28 ns; every packet of both algorithms is 65 beats:
//     ring: RDMA WRITE of 4096 B MTU packets (4122..4138 B wire) -> 65 beats
//     SHARP SAT: 4096 B chunks, wire 8+12+8+16+4096+4+2 = 4146 B -> 65 beats
//   B = 4096 B / (65 * 1.28 ns) = 49.2308 GB/s; S / B = 65536 * 83.2 ns = 5452595.2 ns
//
//   ring (DOMAIN.md §9 alpha-beta; as in run_ring_bound_test):
//     t_ring = 2(n-1)/n * S/B + 2(n-1) * alpha,
//     alpha  = TX 196 + LINK 90 + SW 235 + LINK 90 + 65 + RX 196 = 872 cycles = 1116.16 ns
//            = 1.96875 * 5452595.2 + 126 * 1116.16 = 10734796.8 + 140636.16 = 10875432.96 ns
//   SHARP: each host streams its 65536 chunks back to back (window 32 chunks = 2080 cycles >
//     one chunk's round trip, so the uplink never idles); the last chunk leaves the host at
//     TX + (K-1)*65 and its result is placed LINK + SW + ALU + 1 + LINK + 65 + RX later:
//     t_sharp = K*65 + TX + LINK + SW + ALU + 1 + LINK + RX
//             = S/B + (196+90+235+40+1+90+196 = 848 cycles = 1085.44 ns) = 5453680.64 ns
//   expected ratio = 10875432.96 / 5453680.64 = 1.9941 (the bandwidth terms alone give
//   2(n-1)/n = 1.96875; the ring's 126 alpha steps add 1.3 %); required >= 1.8.
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

TEST_CASE("sharp vs ring: 256 MiB allreduce on 64 hosts, SHARP >= 1.8x faster",
          "[run][sharp]") {
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
    const double t_ring = 2.0 * (n - 1) / n * SB + 2.0 * (n - 1) * ns_of(ALPHA);
    const double t_sharp = SB + ns_of(SHARP_LAT);
    const double ratio = trg / ts;
    WARN(std::fixed << std::setprecision(2) << "256 MiB on 64 hosts: SHARP " << ts
                    << " ns (model " << t_sharp << "), ring " << trg << " ns (model " << t_ring
                    << "), ratio " << std::setprecision(4) << ratio << " (model "
                    << t_ring / t_sharp << "), wall " << std::setprecision(2) << r.out.wall_s
                    << " s");
    CHECK(ratio >= 1.8);
    CHECK(ts >= SB);
    CHECK(std::fabs(ts - t_sharp) <= 0.03 * t_sharp);
    CHECK(std::fabs(trg - t_ring) <= 0.03 * t_ring);
    // The sequence: ring starts after SHARP ends (same ranks, seq 1 after seq 0).
    CHECK(cr["start_ns"].get<double>() >= cs["end_ns"].get<double>());
}
