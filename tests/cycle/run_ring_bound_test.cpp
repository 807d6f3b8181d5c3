// `ndrsim run`: ring allreduce on 8 ranks, one switch, against the alpha-beta bound
// (docs/domain.md §9: ring allreduce ~ 2(N-1) alpha + 2(N-1)/N * S/B).
//
// Hand derivation (raw config numbers set explicitly below; no model helper is used):
//   cycle c = 64 B * 8 / 400 Gb/s = 1.28 ns
//   Every data packet of a 1 MiB chunk (collective.chunk) carries MTU = 4096 B:
//     RDMA WRITE FIRST        4096 + LRH 8 + BTH 12 + RETH 16 + ICRC 4 + VCRC 2 = 4138 B -> 65
//     beats RDMA WRITE MIDDLE       4096 + 8 + 12 + 4 + 2                            = 4122 B -> 65
//     beats RDMA WRITE LAST w/ IMM  4096 + 8 + 12 + ImmDt 4 + 4 + 2                  = 4126 B -> 65
//     beats
//   so B_eff = 4096 B / (65 * 1.28 ns) = 49.2308 B/ns (98.46 % of 50 B/ns: header overhead).
//   beta term  = 2(n-1) * (S/n) / B_eff   (every rank's uplink carries 2(n-1) blocks of S/n)
//   alpha      = TX 196 + LINK 90 + SW 235 + LINK 90 + one MTU packet 65 + RX 196
//              = 872 cycles = 1116.16 ns  (per-hop latency of one packet, i.e. the time a chunk
//                needs to reach the next rank after the link starts sending it). One CHUNK's
//                serialisation (1 MiB = 256 * 65 cycles = 21.3 us) is deliberately NOT in alpha:
//                chunks are pipelined, the uplink stays busy, and the chunk time is already
//                paid in beta; putting it into every one of the 2(n-1) steps would add 14 *
//                21.3 us = 298 us (12.5 % of 64 MiB's time) that the pipelined ring never pays.
//   bound t    = 2(n-1)(S/n)/B_eff + 2(n-1) alpha
//     S = 64 MiB: 14 * 8 MiB / B_eff = 14 * 170393.6 ns = 2385510.4 ns; + 14 * 1116.16 ns
//                 = 15626.24 ns -> t = 2401136.64 ns.
//     S = 1 GiB:  14 * 128 MiB / B_eff = 14 * 2726297.6 ns = 38168166.4 ns; + 15626.24 ns
//                 -> t = 38183792.64 ns.
//   The beta term alone is a hard lower bound (no uplink can carry its 2(n-1) S/n payload
//   faster); the simulated time must be >= it and within 3 % of t.
//   Credit loop: every host link is busy both ways, so each FC packet waits for the data packet
//   on the reverse wire (docs/architecture.md, "Credits"): a packet sent at s is granted at
//   s + 90 + 234, on the next link's wire [s + 325, s + 390); its last credits are freed by
//   s + 376, their FC packet waits for the end of the packet then on the reverse wire, which
//   carries the previous rank's stream in the same phase (s + 390), and is back at s + 480.
//   Default shared input buffer (switch.buffer_model = shared: 2 x 512 blocks per port, 128
//   reserved per VL, alpha 8): the ring's one busy VL claims 128 + floor(8 * 768 / 9) = 810
//   blocks = 12 packets = 780 cycles > 480, so the loop never binds: the beta term at B_eff.
//   A static 32 KiB buffer (512 blocks) holds 7 packets (455 cycles), so a stream moves 7
//   packets per 480 cycles: the beta term uses B_eff * 7 * 65 / 480 (0.948 of it). The hard
//   lower bound stays the line-rate beta term.
//
// One simulation per TEST_CASE.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <string>
#include <vector>

#include <unistd.h>

#include <systemc>

#include "../temp_dir.h"
#include "config/config_loader.h"
#include "run_report.h"
#include "run_sim.h"
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

constexpr uint64_t CYCLE_PS = 64ULL * 8 * 1'000'000'000'000ULL / 400'000'000'000ULL;  // 1280
constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}
constexpr uint64_t TX = ceil_div(250'000, CYCLE_PS);                           // 196
constexpr uint64_t RX = ceil_div(250'000, CYCLE_PS);                           // 196
constexpr uint64_t LINK = ceil_div(100'000 + 3'000 * 5'000 / 1000, CYCLE_PS);  // 90
constexpr uint64_t SW = ceil_div(300'000, CYCLE_PS);                           // 235
constexpr uint64_t MTU = 4096;
constexpr uint64_t FIRST_BEATS = ceil_div(MTU + 8 + 12 + 16 + 4 + 2, 64);
constexpr uint64_t MIDDLE_BEATS = ceil_div(MTU + 8 + 12 + 4 + 2, 64);
constexpr uint64_t LAST_BEATS = ceil_div(MTU + 8 + 12 + 4 + 4 + 2, 64);
static_assert(FIRST_BEATS == 65 && MIDDLE_BEATS == 65 && LAST_BEATS == 65);
constexpr uint64_t PKT_BEATS = 65;
constexpr uint64_t ALPHA_CYCLES = TX + LINK + SW + LINK + PKT_BEATS + RX;
static_assert(ALPHA_CYCLES == 872);

constexpr double CYCLE_NS = static_cast<double>(CYCLE_PS) / 1000.0;
constexpr double B_EFF = static_cast<double>(MTU) / (static_cast<double>(PKT_BEATS) * CYCLE_NS);

std::vector<std::string> base_sets() {
    return {"link.rate=400Gbps",          "switch.datapath_width=64B",
            "hca.tx_latency=250ns",       "hca.rx_latency=250ns",
            "link.fec_latency=100ns",     "link.cable_length=3m",
            "link.propagation_per_m=5ns", "switch.latency=300ns",
            "switch.cut_through=true",    "hca.mtu=4096B",
            "collective.chunk=1MiB",      "fabric.topology=single_switch",
            "hca.ack_latency=0ns",        "hca.cqe_latency=0ns"};
}

std::string ring_allreduce_trace(uint32_t n, uint64_t bytes) {
    std::string ranks;
    for (uint32_t r = 0; r < n; ++r) ranks += (r ? "," : "") + std::to_string(r);
    std::string t = "{\"type\":\"header\",\"version\":1,\"nranks\":" + std::to_string(n) +
                    ",\"name\":\"ring bound\"}\n{\"type\":\"comm\",\"id\":0,\"ranks\":[" + ranks +
                    "]}\n";
    for (uint32_t r = 0; r < n; ++r) {
        t += "{\"type\":\"op\",\"rank\":" + std::to_string(r) +
             ",\"comm\":0,\"seq\":0,\"op\":\"allreduce\",\"count\":" + std::to_string(bytes / 4) +
             ",\"dtype\":\"fp32\",\"redop\":\"sum\",\"algo\":\"ring\"}\n";
    }
    return t;
}

void run_ring_bound(const std::string& tag, uint64_t S, const std::string& model = "shared") {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    constexpr uint32_t n = 8;
    std::vector<std::string> sets = base_sets();
    sets.push_back("switch.buffer_model=" + model);
    const ndr::cfg::config c = ndr::cfg::load_config("", sets);
    const std::string path = ndr::test::temp_dir() + "ndrsim_run_ring_" + tag + "_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << ring_allreduce_trace(n, S);
        REQUIRE(f.good());
    }
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    const ndr::tb::run_outcome o = ndr::tb::run_trace(c, tr);
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, o);

    const uint64_t block = S / n;
    REQUIRE(block % MTU == 0);  // every packet is a full MTU packet (65 beats)
    const double beta_ns = 2.0 * (n - 1) * static_cast<double>(block) / B_EFF;
    const double CREDIT_RATE = model == "static" ? 7.0 * 65.0 / 480.0 : 1.0;  // the loop above
    const double alpha_ns = static_cast<double>(ALPHA_CYCLES) * CYCLE_NS;
    const double bound_ns = beta_ns / CREDIT_RATE + 2.0 * (n - 1) * alpha_ns;

    REQUIRE(o.collectives.size() == 1);
    REQUIRE(o.collectives[0].done);
    const auto& cj = rep["collectives"][0];
    const double t = cj["time_ns"].get<double>();
    const double dev = (t - bound_ns) / bound_ns;
    WARN(std::fixed << std::setprecision(2) << tag << ": S=" << S << " B: time " << t
                    << " ns, beta " << beta_ns << " ns, bound " << bound_ns << " ns, deviation "
                    << dev * 100.0 << " %, wall " << o.wall_s << " s, busbw "
                    << cj["busbw_GBps"].get<double>() << " GB/s");
    CHECK(cj["op"] == "allreduce");
    CHECK(cj["algo"] == "ring");
    CHECK(cj["bytes"].get<uint64_t>() == S);
    CHECK(cj["ranks"].get<uint32_t>() == n);
    CHECK(t >= beta_ns);
    CHECK(std::fabs(dev) <= 0.03);
    // nccl-tests definitions (docs/domain.md §9): algbw = S / t, busbw = algbw * 2(n-1)/n.
    CHECK(cj["algbw_GBps"].get<double>() == Approx(static_cast<double>(S) / t).epsilon(1e-9));
    CHECK(cj["busbw_GBps"].get<double>() ==
          Approx(static_cast<double>(S) / t * 2.0 * (n - 1) / n).epsilon(1e-9));
    // Byte accounting: rank r sends 2(n-1) blocks to r+1 and nothing to anyone else.
    for (uint32_t s = 0; s < n; ++s) {
        for (uint32_t d = 0; d < n; ++d) {
            const uint64_t want = d == (s + 1) % n ? 2ULL * (n - 1) * block : 0;
            INFO("pair " << s << "->" << d);
            CHECK(o.pair_bytes.get(s, d) == want);
        }
    }
    CHECK(o.hca.payload_bytes_delivered == 2ULL * (n - 1) * block * n);
    CHECK(o.hca.data_packets_sent == 2ULL * (n - 1) * (block / MTU) * n);
    CHECK(o.hca.retransmitted_packets == 0);
    CHECK(o.hca.icrc_drops == 0);
    CHECK(o.hca.timeouts == 0);
    CHECK(o.hca.messages_delivered == o.hca.messages_posted);
}

}  // namespace

TEST_CASE("run ring bound: allreduce 8 ranks 64 MiB within 3% of alpha-beta", "[run][ring]") {
    run_ring_bound("64MiB", 64ULL << 20);
}

TEST_CASE("run ring bound: allreduce 8 ranks 1 GiB within 3% of alpha-beta", "[run][ring]") {
    run_ring_bound("1GiB", 1ULL << 30);
}

TEST_CASE(
    "run ring bound: static 32 KiB buffer, 8 ranks 64 MiB within 3% of the credit-bound "
    "alpha-beta",
    "[run][ring]") {
    run_ring_bound("64MiB_static", 64ULL << 20, "static");
}
