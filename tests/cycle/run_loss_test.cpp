// `ndrsim run` with injected loss: fault.icrc_error_rate corrupts packets arriving at HCAs
// (data and ACK/NAK alike); RC go-back-N (NAK on a PSN gap, or hca.ack_timeout) recovers.
// hca.ack_timeout = 20 us so that tail losses (no later packet to trigger a NAK) recover fast.
//
// Workload: ring allreduce, 8 ranks, S = 8 MiB, one switch, collective.chunk 1 MiB.
// Loss-free expectations, derived by hand (cycle 1.28 ns, MTU packets 65 beats, see
// run_ring_bound_test.cpp for the derivation of 65 beats and alpha = 872 cycles):
//   block S/n = 1 MiB = 256 packets; rank r sends 2(n-1) = 14 blocks to r+1, nothing else
//   pair_bytes[r][r+1]       = 14 MiB = 14680064 B, every other pair 0
//   payload_bytes_delivered  = 8 * 14 MiB = 117440512 B (duplicates are dropped by the PSN
//                              check and must not be counted twice)
//   beta (hard lower bound)  = 14 * 256 * 65 cycles = 232960 cycles = 298188.8 ns
//   alpha-beta bound         = beta + 14 * 872 * 1.28 ns = 298188.8 + 15626.24 = 313815.04 ns
// With loss, each uplink also carries its retransmissions: with R retransmitted packets in
// total, some uplink carries >= R/8 of them, so t >= (3584 + R/8) * 65 cycles; and the run
// must take longer than the loss-free alpha-beta bound.
//
// One simulation per TEST_CASE.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <systemc>

#include "../temp_dir.h"
#include "config/config_loader.h"
#include "pinned_timing.h"
#include "run_report.h"
#include "run_sim.h"
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

constexpr uint64_t CYCLE_PS = 64ULL * 8 * 1'000'000'000'000ULL / 400'000'000'000ULL;  // 1280
constexpr double CYCLE_NS = static_cast<double>(CYCLE_PS) / 1000.0;
constexpr uint32_t N = 8;
constexpr uint64_t S = 8ULL << 20;
constexpr uint64_t BLOCK = S / N;                  // 1 MiB
constexpr uint64_t PKTS_PER_BLOCK = BLOCK / 4096;  // 256
constexpr uint64_t PKT_BEATS = 65;
constexpr uint64_t ALPHA_CYCLES = 872;
constexpr uint64_t STEPS = 2 * (N - 1);  // 14
constexpr uint64_t BETA_CYCLES = STEPS * PKTS_PER_BLOCK * PKT_BEATS;
static_assert(BETA_CYCLES == 232960);
constexpr double BOUND_NS = static_cast<double>(BETA_CYCLES + STEPS * ALPHA_CYCLES) * CYCLE_NS;

std::vector<std::string> sets_with_loss(const std::string& rate) {
    return ndr::test::pinned_timing_sets({"collective.chunk=1MiB", "hca.ack_timeout=20us",
                                          "hca.retry_count=7", "sim.seed=1",
                                          "fault.icrc_error_rate=" + rate});
}

ndr::tb::run_outcome run_lossy(const std::string& rate) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::string ranks;
    for (uint32_t r = 0; r < N; ++r) ranks += (r ? "," : "") + std::to_string(r);
    std::string text =
        "{\"type\":\"header\",\"version\":1,\"nranks\":8,\"name\":\"loss\"}\n"
        "{\"type\":\"comm\",\"id\":0,\"ranks\":[" +
        ranks + "]}\n";
    for (uint32_t r = 0; r < N; ++r) {
        text += "{\"type\":\"op\",\"rank\":" + std::to_string(r) +
                ",\"comm\":0,\"seq\":0,\"op\":\"allreduce\",\"count\":" + std::to_string(S / 4) +
                ",\"dtype\":\"fp32\",\"redop\":\"sum\",\"algo\":\"ring\"}\n";
    }
    const std::string path = ndr::test::temp_dir() + "ndrsim_run_loss_" + rate + "_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << text;
        REQUIRE(f.good());
    }
    const ndr::cfg::config c = ndr::cfg::load_config("", sets_with_loss(rate));
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());

    ndr::tb::run_outcome o;
    REQUIRE_NOTHROW(o = ndr::tb::run_trace(c, tr));  // completes: no retry-count or hang error
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, o);
    const auto& h = o.hca;
    INFO("hca = " << rep["hca"].dump());
    REQUIRE(o.collectives.size() == 1);
    REQUIRE(o.collectives[0].done);
    const double t = rep["collectives"][0]["time_ns"].get<double>();
    const double retx_bound_ns =
        static_cast<double>((STEPS * PKTS_PER_BLOCK + h.retransmitted_packets / N) * PKT_BEATS) *
        CYCLE_NS;
    WARN("icrc_error_rate " << rate << ": time " << t << " ns (loss-free alpha-beta bound "
                            << BOUND_NS << " ns, +" << (t / BOUND_NS - 1.0) * 100.0
                            << " %), icrc_drops " << h.icrc_drops << ", retransmitted "
                            << h.retransmitted_packets << ", timeouts " << h.timeouts << ", naks "
                            << h.naks_sent << ", wall " << o.wall_s << " s");

    CHECK(h.icrc_drops > 0);
    CHECK(h.retransmitted_packets > 0);
    CHECK(h.messages_delivered == h.messages_posted);
    // Exactly-once: the loss-free byte accounting holds exactly; a ring touches N pairs.
    CHECK(o.pair_bytes.pairs() == N);
    for (uint32_t s = 0; s < N; ++s) {
        for (uint32_t d = 0; d < N; ++d) {
            INFO("pair " << s << "->" << d);
            CHECK(o.pair_bytes.get(s, d) == (d == (s + 1) % N ? STEPS * BLOCK : 0));
        }
    }
    CHECK(h.payload_bytes_delivered == N * STEPS * BLOCK);
    CHECK(h.data_packets_sent == N * STEPS * PKTS_PER_BLOCK);  // first transmissions only
    // Slower than without loss.
    CHECK(t > BOUND_NS);
    CHECK(t >= retx_bound_ns);
    return o;
}

}  // namespace

TEST_CASE("run loss: ring allreduce 8 ranks 8 MiB icrc_error_rate 0.001", "[run][loss]") {
    run_lossy("0.001");
}

TEST_CASE("run loss: ring allreduce 8 ranks 8 MiB icrc_error_rate 0.01", "[run][loss]") {
    run_lossy("0.01");
}

// Not asserted: "timeouts <= icrc_drops". With loss, some RC timeouts fire without a lost
// packet because 1-beat ACKs can wait ~20 us behind full-rate ring data: the crossbar is
// allocated per packet, and an input busy with 4 KiB transfers and an output busy receiving
// from another input can stay out of phase (measured: 34 timeouts for 23 drops at rate 0.001;
// 0 with switch.speedup=2). Recorded as a known model weakness in docs/architecture.md.
