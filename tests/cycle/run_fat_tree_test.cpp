// `ndrsim run` on a two-level fat tree (fabric.topology=fat_tree, up/down routing).
//
// Topology by hand (folded Clos of k-port switches, h = k/2 down + h up per leaf,
// docs/configuration.md fabric.*): leaves = ceil(hosts / h); spines = the smallest divisor of
// h that is >= ceil(leaves / 2).
//   k = 64, 128 hosts: h = 32 -> 4 leaves, 2 spines (16 parallel links per leaf-spine pair)
//   k = 8,   32 hosts: h = 4  -> 8 leaves, 4 spines (1 link per leaf-spine pair)
// Host n sits on leaf n / h, so the ring r -> r+1 crosses leaves exactly at r = h-1, 2h-1, ...
// (4 edges for k = 64, 8 edges for k = 8); every other ring edge stays inside one leaf.
//
// Timing (cycle 1.28 ns): TX = RX = 196, host-leaf LINK0 = ceil((100 ns + 3 m * 5 ns/m)/c) = 90,
// leaf-spine LINK1 = ceil((100 ns + 30 m * 5 ns/m)/c) = ceil(195.3) = 196, SW = 235.
// Intra-leaf path (header) = LINK0 + SW + LINK0 = 415; cross-leaf = LINK0 + SW + LINK1 + SW +
// LINK1 + SW + LINK0 = 1277 (862 more).
//
// Ring allreduce, n = 128, S = 4 MiB: block S/n = 32 KiB = 8 MTU packets of 65 beats (520
// beats); ack_coalesce 16 > 8, so exactly one ACK (1 beat) per message, no loss.
//   pair_bytes[r][r+1] = 2(n-1) * 32 KiB = 254 * 32768 = 8323072 B; others 0
//   payload_bytes_delivered = 2(n-1)/n * S * n = 254 * 4 MiB = 1065353216 B
//   tier-1 link bytes: each of the 4 cross-leaf edges carries 254 messages (520 beats) up and
//     down (2 tier-1 links) and its 254 ACKs (1 beat) back the same way:
//     4 * 2 * 254 * 521 beats * 64 B = 67755008 B
//   tier-0 link bytes: every host uplink and downlink carries 254 * 520 data + 254 ACK beats:
//     2 * 128 * 254 * 521 * 64 B = 2168160256 B
//   time: blocks of one chunk each are latency bound. Chunk c of step k on rank r waits for
//     step k-1's chunk to be delivered at r, so every block travels a chain of 254 hops, each
//     TX 196 + path + 520 beats + RX 196 = 1327 cycles intra-leaf, 2189 cross-leaf. A block
//     starting at rank b+1 covers 254 consecutive ring edges: all 128 once plus 126 more, so
//     its chain crosses leaves 7 or 8 times; the slowest chain is 254 * 1327 + 8 * 862 =
//     343954 cycles. The collective ends when the last sender also has its ACK (ACK path 416
//     = LINK0+SW+LINK0+1 vs RX 196 -> +220): ~344174 cycles = 440542.7 ns. Checked: t >=
//     254 * 1327 cycles (hard lower bound) and within 3 % of 344174 cycles.
//
// Radix 8, 32 hosts, ring allreduce S = 4 MiB: block 128 KiB = 32 packets (2080 beats), ACKs
// at packets 16 and 32 (2 beats per message); 2(n-1) = 62 steps.
//   pair_bytes[r][r+1] = 62 * 131072 = 8126464 B;  payload = 62 * 4 MiB = 260046848 B
//   tier-1 bytes = 8 cross edges * 2 links * 62 * (2080 + 2) beats * 64 B = 132182016 B
//   tier-0 bytes = 2 * 32 * 62 * 2082 * 64 B = 528728064 B
//
// One simulation per TEST_CASE.
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
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

constexpr uint64_t CYCLE_PS = 64ULL * 8 * 1'000'000'000'000ULL / 400'000'000'000ULL;  // 1280
constexpr double CYCLE_NS = static_cast<double>(CYCLE_PS) / 1000.0;
constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}
constexpr uint64_t TX = ceil_div(250'000, CYCLE_PS);                             // 196
constexpr uint64_t RX = ceil_div(250'000, CYCLE_PS);                             // 196
constexpr uint64_t LINK0 = ceil_div(100'000 + 3'000 * 5'000 / 1000, CYCLE_PS);   // 90
constexpr uint64_t LINK1 = ceil_div(100'000 + 30'000 * 5'000 / 1000, CYCLE_PS);  // 196
constexpr uint64_t SW = ceil_div(300'000, CYCLE_PS);                             // 235
static_assert(TX == 196 && LINK0 == 90 && LINK1 == 196 && SW == 235);
constexpr uint64_t INTRA = LINK0 + SW + LINK0;                            // 415
constexpr uint64_t CROSS = LINK0 + SW + LINK1 + SW + LINK1 + SW + LINK0;  // 1277
static_assert(INTRA == 415 && CROSS == 1277);
constexpr uint64_t PKT_BEATS = 65;  // full-MTU RDMA WRITE packets (4122..4142 B)

struct fabric_case {
    uint32_t hosts;
    uint32_t ports;
    uint64_t bytes;
    uint32_t leaves;
    uint32_t spines;
};

struct result {
    ndr::tb::run_outcome o;
    nlohmann::json rep;
};

result run_fat_tree(const fabric_case& fc) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const uint32_t n = fc.hosts;
    std::string ranks;
    for (uint32_t r = 0; r < n; ++r) ranks += (r ? "," : "") + std::to_string(r);
    std::string text = "{\"type\":\"header\",\"version\":1,\"nranks\":" + std::to_string(n) +
                       ",\"name\":\"fat tree ring\"}\n{\"type\":\"comm\",\"id\":0,\"ranks\":[" +
                       ranks + "]}\n";
    for (uint32_t r = 0; r < n; ++r) {
        text +=
            "{\"type\":\"op\",\"rank\":" + std::to_string(r) +
            ",\"comm\":0,\"seq\":0,\"op\":\"allreduce\",\"count\":" + std::to_string(fc.bytes / 4) +
            ",\"dtype\":\"fp32\",\"redop\":\"sum\",\"algo\":\"ring\"}\n";
    }
    const std::string path = ndr::test::temp_dir() + "ndrsim_run_fattree_" +
                             std::to_string(fc.ports) + "_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << text;
        REQUIRE(f.good());
    }
    const ndr::cfg::config c =
        ndr::cfg::load_config("", {"fabric.topology=fat_tree",
                                   "fabric.levels=2",
                                   "switch.ports=" + std::to_string(fc.ports),
                                   "link.rate=400Gbps",
                                   "switch.datapath_width=64B",
                                   "hca.tx_latency=250ns",
                                   "hca.rx_latency=250ns",
                                   "hca.ack_latency=0ns",
                                   "hca.cqe_latency=0ns",
                                   "link.fec_latency=100ns",
                                   "link.cable_length=3m",
                                   "link.propagation_per_m=5ns",
                                   "fabric.tier1_cable_length=30m",
                                   "switch.latency=300ns",
                                   "switch.cut_through=true",
                                   "hca.mtu=4096B",
                                   "hca.ack_coalesce=16",
                                   "collective.chunk=1MiB",
                                   "sim.check_invariants=true",
                                   "fault.icrc_error_rate=0"});
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    result r;
    REQUIRE_NOTHROW(r.o = ndr::tb::run_trace(c, tr));  // no invariant error, no hang
    r.rep = ndr::tb::run_report_json(c, tr, r.o);

    // Topology.
    CHECK(r.rep["fabric"]["hosts"].get<uint32_t>() == n);
    CHECK(r.rep["fabric"]["switches"].get<uint32_t>() == fc.leaves + fc.spines);
    uint32_t lv0 = 0, lv1 = 0;
    for (const auto& s : r.rep["switches"]) (s["level"].get<uint32_t>() == 0 ? lv0 : lv1)++;
    CHECK(lv0 == fc.leaves);
    CHECK(lv1 == fc.spines);

    // Completion and loss-free transport.
    REQUIRE(r.o.collectives.size() == 1);
    REQUIRE(r.o.collectives[0].done);
    const auto& h = r.o.hca;
    INFO("hca = " << r.rep["hca"].dump());
    CHECK(h.icrc_drops == 0);
    CHECK(h.retransmitted_packets == 0);
    CHECK(h.timeouts == 0);
    CHECK(h.naks_sent == 0);
    CHECK(h.out_of_order_drops == 0);
    CHECK(h.messages_delivered == h.messages_posted);

    // Bytes.
    const uint64_t block = fc.bytes / n;
    const uint64_t steps = 2ULL * (n - 1);
    CHECK(h.payload_bytes_delivered == steps * block * n);  // 2(n-1)/n * S * n
    uint64_t wrong = 0;
    for (uint32_t s = 0; s < n; ++s) {
        for (uint32_t d = 0; d < n; ++d) {
            const uint64_t want = d == (s + 1) % n ? steps * block : 0;
            if (r.o.pair_bytes.get(s, d) != want) ++wrong;
        }
    }
    CHECK(wrong == 0);

    // Links: expected beats per message = data + ACKs (one per 16 packets and per last packet).
    const uint64_t pkts = block / 4096;
    const uint64_t acks = ceil_div(pkts, 16);
    const uint64_t msg_beats = pkts * PKT_BEATS + acks;
    const uint64_t cross_edges = n / (fc.ports / 2);
    uint64_t tier0 = 0, tier1 = 0, tier1_links = 0, tier1_used = 0;
    for (const auto& l : r.rep["links"]) {
        if (l["tier"].get<uint32_t>() == 0) {
            tier0 += l["bytes"].get<uint64_t>();
        } else {
            ++tier1_links;
            const uint64_t b = l["bytes"].get<uint64_t>();
            tier1 += b;
            tier1_used += b > 0 ? 1 : 0;
        }
    }
    WARN("fat tree k=" << fc.ports << " " << n << " hosts: time "
                       << r.rep["collectives"][0]["time_ns"].get<double>() << " ns, tier-1 "
                       << tier1 << " B on " << tier1_used << " of " << tier1_links
                       << " directed links, tier-0 " << tier0 << " B, wall " << r.o.wall_s << " s");
    CHECK(tier1_links == 2ULL * fc.leaves * (fc.ports / 2));
    CHECK(tier1 > 0);
    CHECK(tier1 == cross_edges * 2 * steps * msg_beats * 64);
    CHECK(tier0 == 2ULL * n * steps * msg_beats * 64);
    return r;
}

}  // namespace

TEST_CASE("run fat tree: 128 hosts radix 64 (4 leaves 2 spines) ring allreduce 4 MiB",
          "[run][fat_tree]") {
    const result r = run_fat_tree({128, 64, 4ULL << 20, 4, 2});
    // Latency-bound chain (file comment): >= 254 * 1327 cycles, ~344174 cycles.
    constexpr uint64_t hop = TX + INTRA + 8 * PKT_BEATS + RX;
    static_assert(hop == 1327);
    constexpr uint64_t predicted = 254 * hop + 8 * (CROSS - INTRA) + (INTRA + 1 - RX);
    static_assert(predicted == 344174);
    const double t = r.rep["collectives"][0]["time_ns"].get<double>();
    INFO("time " << t << " ns, predicted " << static_cast<double>(predicted) * CYCLE_NS << " ns");
    CHECK(t >= static_cast<double>(254 * hop) * CYCLE_NS);
    CHECK(std::fabs(t / (static_cast<double>(predicted) * CYCLE_NS) - 1.0) <= 0.03);
}

TEST_CASE("run fat tree: 32 hosts radix 8 (8 leaves 4 spines) ring allreduce crosses spines",
          "[run][fat_tree]") {
    const result r = run_fat_tree({32, 8, 4ULL << 20, 8, 4});
    // Hard lower bound: every uplink carries 62 blocks of 32 MTU packets.
    const double t = r.rep["collectives"][0]["time_ns"].get<double>();
    CHECK(t >= static_cast<double>(62 * 32 * PKT_BEATS) * CYCLE_NS);
}
