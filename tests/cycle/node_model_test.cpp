// The node model (docs/architecture.md "Node model", issue 17's done-when cases), at the cycle
// level and, for the rail cases, the TLM level. Expectations are derived by hand here from the
// configured numbers (set explicitly below, the values of --preset dgx-h100), not read from the
// model:
//   cycle       = 64 B * 8 / 400 Gb/s = 1.28 ns
//   B (NVLink)  = 450 GB/s per GPU per direction raw x node.nvlink_efficiency 0.824 (NCCL's
//                 20.6 of 25 GB/s per link) = 370.8 GB/s = 370.8e9 * 1.28e-9 = 474.624 B/cycle
//   alpha       = node.nvlink_latency 936.25 ns -> ceil(936250 / 1280) = 732 cycles = 936.96 ns
//   ring allreduce, n GPUs of one node, S bytes (docs/domain.md §9 alpha-beta model):
//     t >= 2(n-1) alpha + 2(n-1)/n * S / B;  busbw = 2(n-1)/n * S / t <= B
//     n = 8, S = 1 GiB: 14 * 936.96 ns + 1.75 * 1073741824 / 370.8 = 13117.44 + 5067551.8 ns
//     = 5080669.2 ns; busbw <= 369.84 GB/s
//   NVLS allreduce (NCCL: member m reduces share m with multimem.ld_reduce and multicasts it
//   with multimem.st, so each GPU's link carries S + S/n each way, reduced in the switch at
//   most at node.nvls_efficiency 0.85 of B):
//     t = alpha + ceil((S + S/8) / (0.85 B)) cycles; S = 256 MiB:
//     732 + ceil(301989888 / 403.4304) = 732 + 748556 = 749288 cycles = 959088.64 ns
//   rail writes: 16 MiB RDMA WRITE over one NDR link: 4096 packets of 4096 B payload, each
//     65 beats (4122..4138 B on the wire), B_eff = 4096 / (65 * 1.28) = 49.23 B/ns;
//     16 MiB / B_eff = 340787.2 ns, plus fixed latencies of a few us.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <systemc>

#include "../temp_dir.h"
#include "config/config_loader.h"
#include "run_report.h"
#include "run_sim.h"
#include "run_sim_tlm.h"
#include "trace/trace.h"

namespace {

constexpr double CYCLE_NS = 1.28;
constexpr double B_NVL = 450.0 * 0.824;  // B/ns: raw rate x node.nvlink_efficiency
constexpr uint64_t ALPHA_CYCLES = (936'250 + 1280 - 1) / 1280;
static_assert(ALPHA_CYCLES == 732);

std::vector<std::string> dgx_sets(std::vector<std::string> extra = {}) {
    std::vector<std::string> s = {"link.rate=400Gbps",
                                  "switch.datapath_width=64B",
                                  "node.gpus=8",
                                  "node.hcas=8",
                                  "node.nvlink_bandwidth=450GBps",
                                  "node.nvlink_links=18",
                                  "node.nvlink_efficiency=0.824",
                                  "node.nvswitch_ports=144",
                                  "node.nvlink_latency=936.25ns",
                                  "node.pcie_latency=150ns",
                                  "node.nvls=true",
                                  "node.nvls_efficiency=0.85",
                                  "fabric.topology=rail_fat_tree",
                                  "fabric.levels=2",
                                  "switch.ports=64",
                                  "collective.chunk=1MiB"};
    s.insert(s.end(), extra.begin(), extra.end());
    return s;
}

ndr::trace::trace load(const std::string& tag, const std::string& text) {
    const std::string path = ndr::test::temp_dir() + "ndrsim_node_" + tag + "_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << text;
    }
    ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    return tr;
}

std::string allreduce_trace(uint32_t n, uint64_t bytes, const std::string& algo) {
    std::string ranks;
    for (uint32_t r = 0; r < n; ++r) ranks += (r ? "," : "") + std::to_string(r);
    std::string t = "{\"type\":\"header\",\"version\":1,\"nranks\":" + std::to_string(n) +
                    "}\n{\"type\":\"comm\",\"id\":0,\"ranks\":[" + ranks + "]}\n";
    for (uint32_t r = 0; r < n; ++r) {
        t += "{\"type\":\"op\",\"rank\":" + std::to_string(r) +
             ",\"comm\":0,\"seq\":0,\"op\":\"allreduce\",\"count\":" + std::to_string(bytes / 4) +
             ",\"dtype\":\"fp32\",\"redop\":\"sum\",\"algo\":\"" + algo + "\"}\n";
    }
    return t;
}

/// 4 nodes x 8 GPUs: GPU k of node i writes 16 MiB to GPU (k + shift) % 8 of node i + 1.
std::string rail_trace(uint32_t shift) {
    std::string ranks;
    for (uint32_t r = 0; r < 32; ++r) ranks += (r ? "," : "") + std::to_string(r);
    std::string t =
        "{\"type\":\"header\",\"version\":1,\"nranks\":32}\n"
        "{\"type\":\"comm\",\"id\":0,\"ranks\":[" +
        ranks + "]}\n";
    for (uint32_t i = 0; i < 4; ++i) {
        for (uint32_t k = 0; k < 8; ++k) {
            const uint32_t peer = ((i + 1) % 4) * 8 + (k + shift) % 8;
            t += "{\"type\":\"op\",\"rank\":" + std::to_string(i * 8 + k) +
                 ",\"comm\":0,\"seq\":0,\"op\":\"rdma_write\",\"count\":16777216,\"dtype\":"
                 "\"uint8\",\"peer\":" +
                 std::to_string(peer) + ",\"algo\":\"direct\"}\n";
        }
    }
    return t;
}

void quiet() {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

uint64_t tier_bytes(const nlohmann::json& rep, uint32_t min_tier) {
    uint64_t b = 0;
    for (const auto& l : rep["links"]) {
        if (l["tier"].get<uint32_t>() >= min_tier) b += l["bytes"].get<uint64_t>();
    }
    return b;
}

void check_rail(bool tlm, uint32_t shift) {
    quiet();
    const ndr::cfg::config c = ndr::cfg::load_config("", dgx_sets());
    const ndr::trace::trace tr = load(std::string("rail") + (tlm ? "t" : "c"), rail_trace(shift));
    const ndr::tb::run_outcome o = tlm ? ndr::tb::run_trace_tlm(c, tr) : ndr::tb::run_trace(c, tr);
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, o);
    REQUIRE(rep["collectives"].size() == 32);
    CHECK(rep["fabric"]["nodes"] == 4);
    CHECK(rep["fabric"]["gpus"] == 32);
    CHECK(rep["fabric"]["rails"] == 8);
    CHECK(rep["fabric"]["leaves"] == 8);
    CHECK(rep["fabric"]["spines"] == 4);
    constexpr double S = 16.0 * 1024 * 1024;
    const double line_ns = S / (4096.0 / (65 * CYCLE_NS));
    if (shift == 0) {
        CHECK(tier_bytes(rep, 1) == 0);  // every write stays on its rail's leaf
        for (const auto& cj : rep["collectives"]) {
            // Each write alone on its host link: line rate, plus at most 5 us of latency. The
            // host links are busy both ways (each HCA sends and receives), so at the cycle level
            // FC packets wait for data on the reverse wire and the default 32 KiB buffer caps a
            // stream at 7 x 65 / 480 of line rate (issue 15 item 2; docs/architecture.md, known
            // weaknesses); TLM bursts do not see that wait (docs/fidelity_tlm.md).
            const double t = cj["time_ns"].get<double>();
            const double bound = tlm ? line_ns : line_ns * 480.0 / (7.0 * 65.0);
            CHECK(t >= line_ns);
            CHECK(t <= bound + 5000.0);
        }
        for (const auto& r : rep["rails"]) {
            for (const auto& tj : r["tiers"]) {
                if (tj["tier"].get<uint32_t>() >= 1) CHECK(tj["bytes"].get<uint64_t>() == 0);
            }
        }
    } else {
        // Every write crosses leaf -> spine -> leaf: at least 2 x 32 x 16 MiB on tier 1.
        CHECK(tier_bytes(rep, 1) >= static_cast<uint64_t>(2 * 32 * S));
    }
    // NVLink idle: no intra-node transfer in these traces.
    for (const auto& g : rep["node"]["gpus"]) CHECK(g["nvlink_tx_bytes"] == 0);
}

}  // namespace

TEST_CASE(
    "node: 1 node x 8 GPUs ring allreduce 1 GiB on NVLink is within 5 % of the alpha-beta "
    "bound and never above B",
    "[node]") {
    quiet();
    const ndr::cfg::config c = ndr::cfg::load_config("", dgx_sets());
    constexpr uint32_t n = 8;
    constexpr uint64_t S = 1ULL << 30;
    const ndr::trace::trace tr = load("ring", allreduce_trace(n, S, "ring"));
    const ndr::tb::run_outcome o = ndr::tb::run_trace(c, tr);
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, o);
    const auto& cj = rep["collectives"][0];
    const double t = cj["time_ns"].get<double>();
    const double bound = 2.0 * (n - 1) * ALPHA_CYCLES * CYCLE_NS +
                         2.0 * (n - 1) / n * static_cast<double>(S) / B_NVL;
    WARN("ring 8 GPUs 1 GiB: " << t << " ns, bound " << bound << " ns, busbw "
                               << cj["busbw_GBps"].get<double>() << " GB/s");
    CHECK(cj["algo"] == "ring");
    CHECK(t >= bound * (1 - 1e-9));
    CHECK((t - bound) / bound <= 0.05);
    CHECK(cj["busbw_GBps"].get<double>() <= B_NVL);
    // Intra-node only: no byte on any HCA link, every GPU sent 2(n-1)/n * S over NVLink.
    CHECK(tier_bytes(rep, 0) == 0);
    CHECK(rep["hca"]["messages_posted"] == 0);
    for (const auto& g : rep["node"]["gpus"]) {
        CHECK(g["nvlink_tx_bytes"].get<uint64_t>() == 2 * (n - 1) * (S / n));
    }
}

TEST_CASE("node: NVLS allreduce takes alpha + (S + S/n) / (0.85 B)", "[node]") {
    quiet();
    const ndr::cfg::config c = ndr::cfg::load_config("", dgx_sets());
    constexpr uint64_t S = 256ULL << 20;
    const ndr::trace::trace tr = load("nvls", allreduce_trace(8, S, "nvls"));
    const ndr::tb::run_outcome o = ndr::tb::run_trace(c, tr);
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, o);
    const auto& cj = rep["collectives"][0];
    CHECK(cj["algo"] == "nvls");
    const auto want =
        ALPHA_CYCLES + static_cast<uint64_t>(std::ceil((S + S / 8) / (0.85 * B_NVL * CYCLE_NS)));
    CHECK(want == 749288);
    CHECK(cj["time_ns"].get<double>() == Approx(want * CYCLE_NS).margin(CYCLE_NS));
    for (const auto& g : rep["node"]["gpus"]) {
        CHECK(g["nvlink_tx_bytes"].get<uint64_t>() == S + S / 8);
        CHECK(g["nvlink_rx_bytes"].get<uint64_t>() == S + S / 8);
    }
}

TEST_CASE("node: NVLS falls back across nodes and without node.nvls", "[node]") {
    quiet();
    const ndr::cfg::config c = ndr::cfg::load_config("", dgx_sets({"node.nvls=false"}));
    const ndr::trace::trace tr = load("nvlsoff", allreduce_trace(8, 1 << 20, "nvls"));
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, ndr::tb::run_trace(c, tr));
    const auto& cj = rep["collectives"][0];
    CHECK(cj["algo"] != "nvls");
    CHECK(cj["fallback"].get<std::string>().find("node.nvls") != std::string::npos);
}

TEST_CASE("node: 4 x 8 same-rail writes stay on the leaves at line rate (cycle)", "[node]") {
    check_rail(false, 0);
}
TEST_CASE("node: 4 x 8 cross-rail writes cross the spines (cycle)", "[node]") {
    check_rail(false, 1);
}
TEST_CASE("node: 4 x 8 same-rail writes stay on the leaves at line rate (tlm)", "[node]") {
    check_rail(true, 0);
}
TEST_CASE("node: 4 x 8 cross-rail writes cross the spines (tlm)", "[node]") {
    check_rail(true, 1);
}
