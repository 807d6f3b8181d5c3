// An RC send window smaller than the responder's ACK coalescing (hca.max_outstanding 1 or 2 <
// hca.ack_coalesce 16) must not stall: the requester sets AckReq on the packet that fills its
// window (golden/rc_ack.h), so each window costs exactly one ACK round trip, with no timeout and
// no retransmission, at the cycle level and at the TLM level (bursts on and off).
//
// Expectation by hand from the raw config numbers (pinned_timing.h; never from model code):
//
//   cycle 1.28 ns; TX = ceil(250 ns / 1.28 ns) = 196; LINK = ceil((100 ns + 3 m x 5 ns/m) /
//   1.28 ns) = 90; SW = ceil(300 ns / 1.28 ns) = 235 (cut-through)
//   10 KiB RDMA WRITE (no ImmDt) at MTU 4096 = 3 packets:
//     FIRST  4096 B + LRH 8 + BTH 12 + RETH 16 + ICRC 4 + VCRC 2 = 4138 B -> 65 beats
//     MIDDLE 4096 B + 26 B                                       = 4122 B -> 65 beats
//     LAST   2048 B + 26 B                                       = 2074 B -> 33 beats
//   ACK = LRH 8 + BTH 12 + AETH 4 + ICRC 4 + VCRC 2 = 30 B -> 1 beat
//   The packets of one window leave back to back (payload DMA 51 cycles < 65 beats); the
//   responder ACKs the window's last packet at its tail (AckReq), and the ACK's tail reaches
//   the requester RTT = 2 x (LINK + SW + LINK) + 1 = 831 cycles after the data's tail left it,
//   when the next window starts. The transfer ends at the last ACK (the ACK return is longer
//   than hca.rx_latency), so
//     time = TX + (65 + 65 + 33) + windows x RTT
//   windows = ceil(3 / W): W = 1 -> 3 (2852 cycles = 3650.56 ns), W = 2 -> 2 (2021 cycles =
//   2586.88 ns), W >= 3 -> 1 (1190 cycles = 1523.2 ns).
//
// One simulation per TEST_CASE (SystemC elaborates once per process).
#include <catch2/catch.hpp>

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
#include "pinned_timing.h"
#include "run_report.h"
#include "sim_level.h"
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

constexpr uint64_t CYCLE_PS = 1280;
constexpr uint64_t TX = 196;
constexpr uint64_t LINK = 90;
constexpr uint64_t SW = 235;
constexpr uint64_t ACK_BEATS = 1;
constexpr uint64_t DATA_BEATS = 65 + 65 + 33;
constexpr uint64_t RTT = 2 * (LINK + SW + LINK) + ACK_BEATS;
static_assert(RTT == 831, "hand-derived ACK round trip");

constexpr uint64_t expected_cycles(uint64_t window) {
    const uint64_t windows = (3 + window - 1) / window;
    return TX + DATA_BEATS + windows * RTT;
}
static_assert(expected_cycles(1) == 2852 && expected_cycles(2) == 2021 &&
                  expected_cycles(1024) == 1190,
              "hand-derived completion times");

std::string temp_trace() {
    const std::string path = ndr::test::temp_dir() + "ndrsim_rc_window_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    std::ofstream f(path);
    f << "{\"type\":\"header\",\"version\":1,\"nranks\":2,\"name\":\"10 KiB write\"}\n"
         "{\"type\":\"comm\",\"id\":0,\"ranks\":[0,1]}\n"
         "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"rdma_write\",\"count\":10240,"
         "\"dtype\":\"uint8\",\"peer\":1}\n";
    REQUIRE(f.good());
    return path;
}

void check_window(uint64_t window, const std::string& level, const std::string& burst) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const ndr::cfg::config c = ndr::cfg::load_config(
        "", ndr::test::pinned_timing_sets({"fabric.topology=single_switch", "hca.ack_coalesce=16",
                                           "hca.max_outstanding=" + std::to_string(window),
                                           "sim.level=" + level, "sim.tlm_burst=" + burst}));
    const std::string path = temp_trace();
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    const ndr::tb::run_outcome out = ndr::tb::run_trace_at_level(c, tr);
    const nlohmann::json report = ndr::tb::run_report_json(c, tr, out);
    INFO("hca = " << report["hca"].dump());
    REQUIRE(out.collectives.size() == 1);
    REQUIRE(out.collectives[0].done);
    CHECK(out.hca.data_packets_sent == 3);
    CHECK(out.hca.retransmitted_packets == 0);
    CHECK(out.hca.timeouts == 0);
    CHECK(out.hca.payload_bytes_delivered == 10240);
    // One ACK per window (its last packet asks for it; 16 packets never accumulate).
    CHECK(out.hca.acks_sent == (3 + window - 1) / window);
    const double t = report["collectives"][0]["time_ns"].get<double>();
    const double want = static_cast<double>(expected_cycles(window) * CYCLE_PS) / 1000.0;
    INFO("time_ns " << t << ", expected " << want);
    CHECK(std::fabs(t - want) < 1e-6);
}

}  // namespace

TEST_CASE("rc window: 10 KiB write, max_outstanding 2 < ack_coalesce 16, cycle level",
          "[run][rc]") {
    check_window(2, "cycle", "1MiB");
}

TEST_CASE("rc window: 10 KiB write, max_outstanding 1 < ack_coalesce 16, cycle level",
          "[run][rc]") {
    check_window(1, "cycle", "1MiB");
}

TEST_CASE("rc window: 10 KiB write, max_outstanding 2 < ack_coalesce 16, TLM bursts", "[run][rc]") {
    check_window(2, "tlm", "1MiB");
}

TEST_CASE("rc window: 10 KiB write, max_outstanding 1 < ack_coalesce 16, TLM bursts", "[run][rc]") {
    check_window(1, "tlm", "1MiB");
}

TEST_CASE("rc window: 10 KiB write, max_outstanding 2 < ack_coalesce 16, TLM per packet",
          "[run][rc]") {
    check_window(2, "tlm", "0B");
}

TEST_CASE("rc window: 10 KiB write, max_outstanding 3 = one window, cycle level", "[run][rc]") {
    check_window(3, "cycle", "1MiB");
}
