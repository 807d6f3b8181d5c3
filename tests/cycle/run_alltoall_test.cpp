// `ndrsim run`: all-to-all on 16 ranks, one switch: every byte delivered exactly once.
//
// Trace semantics (docs/trace_format.md): for alltoall `count` is the TOTAL number of elements
// each rank sends (n blocks of count/n) and S = count * dtype size. Here count = 262144 fp32,
// so S = 1 MiB and every rank sends S/n = 64 KiB to each of the other 15 ranks (its own block
// is a local copy, not a network transfer).
//
// Hand-derived expectations:
//   pair_bytes[s][d]          = S/n = 65536 B for s != d, 0 for s == d
//   payload_bytes_delivered   = n (n-1) S/n = 16 * 15 * 65536 = 15728640 B
//   data packets              = 16 * 15 * 64 KiB / 4096 B = 3840 (no retransmission)
//   messages                  = 240 (collective.chunk 1 MiB > 64 KiB: one RDMA WRITE per pair)
//   time: pairwise exchange, step k waits for the ACK of step k-1 (models/collective/alltoall.cpp),
//     and in each step the destinations form a permutation (no contention). Per step, in cycles
//     of 1.28 ns: TX 196 + 16 packets * 65 beats (4138/4122/4126 B each) 1040 + LINK 90 + SW 235
//     + LINK 90 (last packet's header to the receiver; its tail 65 beats later is already in
//     the 1040) + ACK LINK 90 + SW 235 + LINK 90 + 1 beat = 2067 cycles. The receiver's uplink
//     may be busy with one of its own data packets when the ACK is queued (control packets go
//     first, but after the packet on the wire): at most 64 cycles more per step.
//     => 15 * 2067 = 31005 cycles (39686.4 ns) <= t <= 15 * (2067 + 64) = 31965 cycles
//        (40915.2 ns). Lower bound independent of the protocol: 15 * 1040 cycles = 19968 ns.
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
constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}
constexpr uint64_t TX = ceil_div(250'000, CYCLE_PS);                           // 196
constexpr uint64_t LINK = ceil_div(100'000 + 3'000 * 5'000 / 1000, CYCLE_PS);  // 90
constexpr uint64_t SW = ceil_div(300'000, CYCLE_PS);                           // 235
constexpr double CYCLE_NS = static_cast<double>(CYCLE_PS) / 1000.0;

std::vector<std::string> base_sets() {
    return ndr::test::pinned_timing_sets(
        {"collective.chunk=1MiB", "hca.ack_coalesce=16", "fabric.topology=single_switch"});
}

}  // namespace

TEST_CASE("run alltoall: 16 ranks x 64 KiB per pair: every byte exactly once", "[run][alltoall]") {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    constexpr uint32_t n = 16;
    constexpr uint64_t per_pair = 64 * 1024;
    constexpr uint64_t S = per_pair * n;  // 1 MiB
    constexpr uint64_t count = S / 4;     // fp32 elements, total each rank sends

    std::string ranks;
    for (uint32_t r = 0; r < n; ++r) ranks += (r ? "," : "") + std::to_string(r);
    std::string text =
        "{\"type\":\"header\",\"version\":1,\"nranks\":16,\"name\":\"a2a\"}\n"
        "{\"type\":\"comm\",\"id\":0,\"ranks\":[" +
        ranks + "]}\n";
    for (uint32_t r = 0; r < n; ++r) {
        text += "{\"type\":\"op\",\"rank\":" + std::to_string(r) +
                ",\"comm\":0,\"seq\":0,\"op\":\"alltoall\",\"count\":" + std::to_string(count) +
                ",\"dtype\":\"fp32\"}\n";
    }
    const std::string path = ndr::test::temp_dir() + "ndrsim_run_a2a_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << text;
        REQUIRE(f.good());
    }
    const ndr::cfg::config c = ndr::cfg::load_config("", base_sets());
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    REQUIRE(tr.collectives.size() == 1);
    CHECK(tr.collectives[0].bytes == S);

    const ndr::tb::run_outcome o = ndr::tb::run_trace(c, tr);
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, o);
    INFO("hca = " << rep["hca"].dump());
    INFO("collective = " << rep["collectives"][0].dump());

    REQUIRE(o.collectives.size() == 1);
    REQUIRE(o.collectives[0].done);
    const auto& cj = rep["collectives"][0];
    CHECK(cj["op"] == "alltoall");
    CHECK(cj["algo"] == "pairwise");
    CHECK(cj["bytes"].get<uint64_t>() == S);
    CHECK(cj["ranks"].get<uint32_t>() == n);
    CHECK(cj["transfers"].get<uint64_t>() == n * (n - 1));

    REQUIRE(o.pair_bytes.hosts() == n);
    CHECK(o.pair_bytes.pairs() == n * (n - 1));  // every ordered pair of distinct ranks, no self
    uint64_t wrong = 0;
    for (uint32_t s = 0; s < n; ++s) {
        for (uint32_t d = 0; d < n; ++d) {
            const uint64_t want = s == d ? 0 : per_pair;
            if (o.pair_bytes.get(s, d) != want) {
                ++wrong;
                UNSCOPED_INFO("pair " << s << "->" << d << ": " << o.pair_bytes.get(s, d)
                                      << " B, want " << want);
            }
        }
    }
    CHECK(wrong == 0);
    CHECK(o.hca.payload_bytes_delivered == n * (n - 1) * per_pair);     // 15728640
    CHECK(o.hca.data_packets_sent == n * (n - 1) * (per_pair / 4096));  // 3840
    CHECK(o.hca.messages_posted == n * (n - 1));
    CHECK(o.hca.messages_delivered == n * (n - 1));
    CHECK(o.hca.retransmitted_packets == 0);
    CHECK(o.hca.timeouts == 0);
    CHECK(o.hca.naks_sent == 0);
    CHECK(o.hca.icrc_drops == 0);
    CHECK(o.hca.out_of_order_drops == 0);

    // Timing (file comment): 15 steps of 2067..2131 cycles.
    constexpr uint64_t step = TX + 16 * 65 + LINK + SW + LINK + LINK + SW + LINK + 1;
    static_assert(step == 2067);
    const double t = cj["time_ns"].get<double>();
    const double lo = static_cast<double>((n - 1) * step) * CYCLE_NS;
    const double hi = static_cast<double>((n - 1) * (step + 64)) * CYCLE_NS;
    WARN("alltoall time " << t << " ns, expected " << lo << " .. " << hi << " ns, wall " << o.wall_s
                          << " s");
    CHECK(t >= static_cast<double>((n - 1) * 16 * 65) * CYCLE_NS);
    CHECK(t >= lo - CYCLE_NS);
    CHECK(t <= hi + CYCLE_NS);
}
