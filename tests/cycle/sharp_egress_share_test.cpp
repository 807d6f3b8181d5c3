// SHARP results compete for a switch output through the port's VL arbiter (docs/architecture.md,
// "SHARP in-network reduction"; rule in common::ib_ports::local_wins), at both levels.
//
// Setup: one switch, 3 hosts. Ranks 0 and 1 run a 4 MiB fp32 sum allreduce on SHARP (SAT chunks
// of 4096 B: N = 1024 chunks per member, 4146 B = 65 beats on the wire, on sharp.vl = 1); at the
// same time host 2 RDMA-writes 64 MiB into rank 0 (4122 B = 65-beat packets on VL 0, hca.sl 0).
// Both streams leave through the switch port of rank 0.
//
// Alone (hand derivation, cycles of 1.28 ns): the first chunk's result reaches a member
//   HCA TX 196 + link 90 + switch pipeline 235 + ALU 40 + egress 1 + link 90 + 65 beats + RX 196
//   = 913 cycles after the post; the members stream one chunk per 65 beats (window 32 chunks
//   = 2080 cycles >> 913), so T_alone = 913 + (N - 1) * 65 = 67408 cycles = 86282.24 ns.
// With the write: at rank 0's output both VLs always have a packet waiting, so the low table's
//   entries take turns; a turn of weight w sends packets while w * 64 bytes are not used up:
//   k(w, wire) = ceil(w * 64 / wire) packets. SHARP's share of the packets (all 65 beats) is
//   s = k1 / (k0 + k1), and rank 0 receives a result every 65 / s cycles (the tree moves at its
//   slowest member's pace): T = 913 + (N - 1) * 65 / s cycles.
//   Weights 64:64   -> k0 = ceil(4096/4122) = 1, k1 = ceil(4096/4146) = 1, s = 1/2:
//                      T = 913 + 1023 * 130 = 133903 cycles = 171395.84 ns.
//   Weights 64:128  -> k1 = ceil(8192/4146) = 2, s = 2/3: T = 913 + 1023 * 97.5 = 128839.0 ns.
// (The write itself lasts 16384 * 65 cycles = 1.36 ms, far longer than the allreduce.) The old
// egress (SHARP sent only when the link was free at t + 1, outside the arbiter) gave 1449 µs:
// the allocator keeps the link booked ahead, so SHARP waited for the end of the write.
// Tolerance 0.5 %: the first result may wait for up to one write packet, and the streams start
// a few hundred cycles apart.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "sharp_test_util.h"
#include "sim_level.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using namespace sharp_test;  // NOLINT: test-local helpers

constexpr uint64_t N = 1024;  // 4 MiB / 4096 B chunks
constexpr uint64_t CHUNK_BEATS = beats(sharp_wire(4096));
constexpr uint64_t WRITE_WIRE = 4096 + 26;  // RDMA WRITE MIDDLE: LRH 8 BTH 12 ICRC 4 VCRC 2
constexpr uint64_t FIRST = 196 + 90 + 235 + 40 + 1 + 90 + CHUNK_BEATS + 196;
static_assert(sharp_wire(4096) == 4146 && CHUNK_BEATS == 65 && beats(WRITE_WIRE) == 65);
static_assert(FIRST == 913);

/// Packets one turn of weight w sends (golden vl_arbiter: a packet may start while bytes are
/// left; the last one overshoots).
constexpr uint64_t per_turn(uint64_t w, uint64_t wire) {
    return ceil_div(w * 64, wire);
}

double expected_ns(uint64_t w_data, uint64_t w_sharp) {
    const double k0 = static_cast<double>(per_turn(w_data, WRITE_WIRE));
    const double k1 = static_cast<double>(per_turn(w_sharp, sharp_wire(4096)));
    const double s = k1 / (k0 + k1);
    return (static_cast<double>(FIRST) + static_cast<double>(N - 1) * CHUNK_BEATS / s) * CYCLE_NS;
}

std::string trace_text(bool with_write) {
    std::string t = header(with_write ? 3 : 2, "sharp egress share") + comm(0, 0, 2);
    if (with_write) t += comm(1, 0, 3);
    t += allreduce(0, 0, 2, 0, N * 1024, "fp32", "sum", "sharp");
    if (with_write) {
        t += "{\"type\":\"op\",\"rank\":2,\"comm\":1,\"seq\":0,\"op\":\"rdma_write\",\"count\":" +
             std::to_string(64ULL << 20) + ",\"dtype\":\"uint8\",\"peer\":0,\"algo\":\"direct\"}\n";
    }
    return t;
}

/// One simulation at `level` (cycle or tlm); returns the SHARP allreduce's time in ns. At the
/// TLM level SHARP goes packet by packet (sim.tlm_sharp_burst=0): a burst holds the output for
/// its whole span, past the arbiter's turns (the burst case is its own test below).
double sharp_time_ns(const std::string& level, bool with_write, const std::string& vl_arb_low,
                     uint64_t* contended = nullptr) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<std::string> sets = base_sets();
    for (const std::string& s : std::vector<std::string>{
             "switch.ports=8", "fabric.topology=single_switch", "switch.vls=2", "hca.sl=0",
             "switch.vl_arb_high=", "sharp.data=off", "sim.level=" + level,
             "switch.vl_arb_low=" + vl_arb_low,
             contended != nullptr ? "sim.tlm_sharp_burst=64KiB" : "sim.tlm_sharp_burst=0"}) {
        sets.push_back(s);
    }
    const ndr::cfg::config c = ndr::cfg::load_config("", sets);
    const std::string path = ndr::test::temp_dir() + "ndrsim_sharp_egress_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << trace_text(with_write);
        REQUIRE(f.good());
    }
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    const ndr::tb::run_outcome out = ndr::tb::run_trace_at_level(c, tr);
    if (contended != nullptr) *contended = out.sharp_bursts_contended;
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, out);
    INFO("collectives = " << rep["collectives"].dump());
    REQUIRE(rep["collectives"].size() == (with_write ? 2U : 1U));
    const nlohmann::json& ar = rep["collectives"][0];
    REQUIRE(ar["algo"] == "sharp");
    REQUIRE_FALSE(ar.contains("fallback"));
    if (with_write) {  // the write outlasts the allreduce, so the contention lasts throughout
        CHECK(rep["collectives"][1]["time_ns"].get<double>() > 2.0 * ar["time_ns"].get<double>());
    }
    WARN(level << " " << vl_arb_low << (with_write ? " with write" : " alone") << ": SHARP "
               << ar["time_ns"].get<double>() << " ns");
    return ar["time_ns"].get<double>();
}

}  // namespace

TEST_CASE("SHARP egress: alone 4 MiB on 2 ranks takes 913 + 1023 * 65 cycles",
          "[run][sharp][egress]") {
    // The egress change leaves the lone stream alone. FC packets that wait for the data packet
    // on the reverse wire and their 6 B of wire time (one per chunk each way, 1023 * 6 / 64 =
    // 96 beats) add about 0.4 % (measured 86631.68 ns; 86282.24 ns before FC packets took
    // wire time): hence 0.5 %.
    const double t = sharp_time_ns("cycle", false, "0:64,1:64");
    CHECK(t ==
          Approx(static_cast<double>(FIRST + (N - 1) * CHUNK_BEATS) * CYCLE_NS).epsilon(0.005));
    CHECK(t >= static_cast<double>(FIRST + (N - 1) * CHUNK_BEATS) * CYCLE_NS);
}

TEST_CASE("SHARP egress: beside a bulk write weights 64:64 give SHARP half the link (cycle)",
          "[run][sharp][egress]") {
    const double t = sharp_time_ns("cycle", true, "0:64,1:64");
    CHECK(t == Approx(expected_ns(64, 64)).epsilon(0.005));
}

TEST_CASE("SHARP egress: beside a bulk write weights 64:128 give SHARP 2/3 of the link (cycle)",
          "[run][sharp][egress]") {
    const double t = sharp_time_ns("cycle", true, "0:64,1:128");
    CHECK(t == Approx(expected_ns(64, 128)).epsilon(0.005));
}

TEST_CASE("SHARP egress: beside a bulk write weights 64:64 give SHARP half the link (TLM)",
          "[run][sharp][egress][tlm]") {
    const double t = sharp_time_ns("tlm", true, "0:64,1:64");
    CHECK(t == Approx(expected_ns(64, 64)).epsilon(0.005));
}

TEST_CASE("SHARP egress: beside a bulk write weights 64:128 give SHARP 2/3 of the link (TLM)",
          "[run][sharp][egress][tlm]") {
    const double t = sharp_time_ns("tlm", true, "0:64,1:128");
    CHECK(t == Approx(expected_ns(64, 128)).epsilon(0.005));
}

TEST_CASE("SHARP egress: a sharp.vl without VL-arbitration weight falls back to a host algorithm",
          "[run][sharp][egress]") {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const sim_run r = simulate("sharp_egress_fallback",
                               header(2, "sharp no weight") + comm(0, 0, 2) +
                                   allreduce(0, 0, 2, 0, 1024, "fp32", "sum", "sharp"),
                               {"switch.ports=8", "fabric.topology=single_switch", "switch.vls=2",
                                "switch.vl_arb_high=", "switch.vl_arb_low=0:64,1:0"});
    const nlohmann::json& ar = r.report["collectives"][0];
    INFO("collective = " << ar.dump());
    REQUIRE(ar.contains("fallback"));
    CHECK(ar["fallback"].get<std::string>().find("sharp.vl 1 has no entry of nonzero weight") !=
          std::string::npos);
}

TEST_CASE("SHARP egress: TLM bursts beside a bulk write take more than their share and say so",
          "[run][sharp][egress][tlm]") {
    // Bursts of 8 chunks (a quarter of the 32-chunk window): the arbiter's turn sends a whole
    // burst, so SHARP gets more than half the link (at most all of it: T_alone), and the run
    // counts the bursts that won against the write (the `ndrsim run` note).
    uint64_t contended = 0;
    const double t = sharp_time_ns("tlm", true, "0:64,1:64", &contended);
    CHECK(t < 0.9 * expected_ns(64, 64));
    CHECK(t >= static_cast<double>(FIRST + (N - 1) * CHUNK_BEATS) * CYCLE_NS);
    CHECK(contended > 0);
    CHECK(contended <= N / 8);
}
