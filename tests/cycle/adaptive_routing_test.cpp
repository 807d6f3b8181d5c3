// Adaptive routing against static d-mod-k on a full-bisection two-level fat tree: a random
// permutation of 16 MiB RDMA WRITEs (`ndrsim gen permutation --ranks 128 --bytes 16MiB --seed 1`,
// docs/routing.md), every other key at its default; one simulation per TEST_CASE.
//
// Topology by hand (docs/configuration.md fabric.*): radix 64, 128 hosts -> h = 32 hosts and 32
// up-ports per leaf, 4 leaves, 2 spines, 16 parallel cables per leaf-spine pair. Host n on leaf
// n / 32. Static up/down routing (golden/updown_routing.h): a leaf sends destination d up port
// number d mod 32; the spine sends it down the cable that up port arrives on (d's root path).
// In a permutation every destination receives one flow, and the 32 hosts of a leaf have
// distinct d mod 32, so down links carry one flow each: only up links collide. A flow that shares
// its source leaf's up port with k - 1 other cross-leaf flows gets 1/k of the link, so its
// throughput is line / k (all flows are the same size and start together). The test computes k per
// flow from that rule, not from the LFTs.
//
// Line rate (analytic): 400 Gb/s = 50 GB/s per link; a full-MTU RDMA WRITE packet carries 4096 B
// in 65 beats of 64 B (4122..4142 B on the wire), so payload goodput = 50 x 4096 / 4160 =
// 49.23 GB/s per host.
//
// Adaptive: every host >= 0.9 x line; static: the colliding flows at line / k (+-10 %), so at
// least one host strictly below the adaptive minimum. Both: every byte delivered once, no loss.
//
// TLM level (tlm/ib_switch_tlm calls the same rule, per transaction; sim.tlm_burst=0: per
// packet): radix 8, 32 hosts (8 leaves of h = 4, 4 spines), 1 MiB each. Static routing cannot
// end before k_max x 1 MiB / line (k_max flows share one up-link: 3 for seed 1); adaptive
// must, and must deliver every byte with packets placed out of order.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include "common/traffic_pattern.h"
#include "config/config_loader.h"
#include "run_sim.h"
#include "run_sim_tlm.h"
#include "trace/generators.h"
#include "trace/trace.h"
#include "trace/trace_writer.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

constexpr uint32_t HOSTS = 128;
constexpr uint32_t H = 32;  // hosts and up-ports per leaf (radix 64)
constexpr uint64_t BYTES = 16ULL << 20;
constexpr uint64_t SEED = 1;
constexpr double CYCLE_NS = 1.28;
constexpr double LINE_GBS = 50.0 * 4096.0 / (65.0 * 64.0);  // 49.23 GB/s payload

struct result {
    std::vector<double> gbs;  ///< per initiating host
    ndr::tb::run_outcome o;
};

result run(const std::string& mode) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const std::vector<uint32_t> dest = ndr::tb::random_derangement(HOSTS, SEED);
    const ndr::trace::trace gen = ndr::trace::gen_permutation(dest, BYTES, "permutation");
    std::istringstream in(ndr::trace::to_jsonl(gen, {}));
    const ndr::trace::trace tr = ndr::trace::parse_trace(in, "permutation.jsonl");
    const ndr::cfg::config c = ndr::cfg::load_config(
        "", {"fabric.topology=fat_tree", "fabric.levels=2", "routing.mode=" + mode,
             "sim.check_invariants=true", "sim.level=cycle"});
    result r;
    REQUIRE_NOTHROW(r.o = ndr::tb::run_trace(c, tr));
    r.gbs.assign(HOSTS, 0.0);
    REQUIRE(r.o.collectives.size() == HOSTS);
    for (const auto& cr : r.o.collectives) {
        REQUIRE(cr.done);
        const uint32_t host = tr.collectives[cr.instance].ranks[0];
        const double ns = static_cast<double>(cr.end - cr.start) * CYCLE_NS;
        r.gbs[host] = static_cast<double>(BYTES) / ns;
    }
    // Lossless, every byte once.
    const auto& h = r.o.hca;
    CHECK(h.messages_delivered == HOSTS);
    CHECK(h.payload_bytes_delivered == HOSTS * BYTES);
    CHECK(h.retransmitted_packets == 0);
    CHECK(h.naks_sent == 0);
    CHECK(h.out_of_order_drops == 0);
    return r;
}

/// Flows sharing each flow's static up port (1 for a flow inside its leaf), for `hosts` hosts
/// on leaves of h hosts and h up-ports.
std::vector<uint32_t> static_sharing(uint32_t hosts = HOSTS, uint32_t h = H) {
    const std::vector<uint32_t> dest = ndr::tb::random_derangement(hosts, SEED);
    std::vector<uint32_t> k(hosts, 1);
    for (uint32_t s = 0; s < hosts; ++s) {
        if (dest[s] / h == s / h) continue;
        uint32_t n = 0;
        for (uint32_t o = 0; o < hosts; ++o) {
            n += o / h == s / h && dest[o] / h != o / h && dest[o] % h == dest[s] % h ? 1 : 0;
        }
        k[s] = n;
    }
    return k;
}

}  // namespace

TEST_CASE("permutation of 128 static d-mod-k: colliding flows get line / k", "[ar][cycle]") {
    const std::vector<uint32_t> k = static_sharing();
    REQUIRE(*std::max_element(k.begin(), k.end()) >= 2);  // seed 1 collides
    const result r = run("static");
    CHECK(r.o.hca.out_of_order_placed == 0);
    for (uint32_t s = 0; s < HOSTS; ++s) {
        INFO("host " << s << " k " << k[s] << " " << r.gbs[s] << " GB/s");
        CHECK(r.gbs[s] <= 1.02 * LINE_GBS / k[s]);
        CHECK(r.gbs[s] >= 0.9 * LINE_GBS / k[s]);
    }
    CHECK(*std::min_element(r.gbs.begin(), r.gbs.end()) < 0.9 * LINE_GBS);
}

TEST_CASE("permutation of 128 adaptive: every host at >= 90 % of line rate", "[ar][cycle]") {
    const result r = run("adaptive");
    CHECK(r.o.hca.out_of_order_placed > 0);  // AR reordered packets; placed, not NAKed
    for (uint32_t s = 0; s < HOSTS; ++s) {
        INFO("host " << s << " " << r.gbs[s] << " GB/s");
        CHECK(r.gbs[s] >= 0.9 * LINE_GBS);
        CHECK(r.gbs[s] <= 1.0 * LINE_GBS);
    }
}

TEST_CASE("permutation of 32 at the TLM level adaptive per packet: beats the static bound",
          "[ar][tlm]") {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    constexpr uint32_t N = 32;
    constexpr uint64_t SMALL = 1ULL << 20;
    const std::vector<uint32_t> k = static_sharing(N, 4);
    const uint32_t k_max = *std::max_element(k.begin(), k.end());
    REQUIRE(k_max == 3);
    const ndr::trace::trace gen =
        ndr::trace::gen_permutation(ndr::tb::random_derangement(N, SEED), SMALL, "permutation");
    std::istringstream in(ndr::trace::to_jsonl(gen, {}));
    const ndr::trace::trace tr = ndr::trace::parse_trace(in, "permutation.jsonl");
    const ndr::cfg::config c =
        ndr::cfg::load_config("", {"fabric.topology=fat_tree", "fabric.levels=2", "switch.ports=8",
                                   "routing.mode=adaptive", "sim.level=tlm", "sim.tlm_burst=0",
                                   "sim.check_invariants=true"});
    ndr::tb::run_outcome o;
    REQUIRE_NOTHROW(o = ndr::tb::run_trace_tlm(c, tr));
    CHECK(o.hca.messages_delivered == N);
    CHECK(o.hca.payload_bytes_delivered == N * SMALL);
    CHECK(o.hca.out_of_order_placed > 0);
    uint64_t end = 0;
    for (const auto& cr : o.collectives) {
        REQUIRE(cr.done);
        end = std::max<uint64_t>(end, cr.end);
    }
    const double static_bound_ns = k_max * static_cast<double>(SMALL) / LINE_GBS;
    INFO("adaptive span " << static_cast<double>(end) * CYCLE_NS << " ns, static bound "
                          << static_bound_ns << " ns");
    CHECK(static_cast<double>(end) * CYCLE_NS < static_bound_ns);
}
