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
//   busbw factor (DOMAIN.md §9, in-network allreduce) = (n-1)/(n+1) = 15/17.
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
static_assert(sharp_wire(SAT_CHUNK) == 4146 && CHUNK_BEATS == 65);
constexpr double B_LINK = static_cast<double>(SAT_CHUNK) / (CHUNK_BEATS * CYCLE_NS);  // GB/s

}  // namespace

TEST_CASE("sharp SAT: 64 MiB allreduce on 16 hosts runs at >= 90% of link payload rate",
          "[run][sharp]") {
    constexpr uint32_t n = 16;
    constexpr uint64_t S = 64ULL << 20;
    const sim_run r = simulate("sharp_sat", header(n, "sharp sat") + comm(0, 0, n) +
                                                allreduce(0, 0, n, 0, S / 4, "fp32", "sum", "sharp"),
                               {"switch.ports=64", "fabric.topology=single_switch",
                                "sharp.data=auto"});
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
                    << " ns (S/B = " << static_cast<double>(S) / B_LINK << " ns), algbw "
                    << algbw << " GB/s = " << 100.0 * algbw / B_LINK << " % of " << B_LINK
                    << " GB/s, busbw " << c["busbw_GBps"].get<double>() << " GB/s, wall "
                    << r.out.wall_s << " s");
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
