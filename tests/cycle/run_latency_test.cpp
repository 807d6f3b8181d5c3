// `ndrsim run` zero-load latency of one point-to-point message host -> switch -> host
// (testbench/run_sim.h run_trace), exact to one cycle.
//
// Every expectation is derived by hand from the raw config numbers set below (never from
// derive_timing() or other model code):
//
//   cycle    c  = datapath 64 B * 8 bit / 400 Gb/s                    = 1280 ps = 1.28 ns
//   TX          = ceil(hca.tx_latency 250 ns / c) = ceil(195.3125)      = 196 cycles
//   RX          = ceil(hca.rx_latency 250 ns / c)                       = 196 cycles
//   LINK        = ceil((link.fec_latency 100 ns + 3 m * 5 ns/m) / c)
//               = ceil(115 ns / 1.28 ns) = ceil(89.84)                  =  90 cycles
//   SW          = ceil(switch.latency 300 ns / c) = ceil(234.375)       = 235 cycles (cut-through,
//                 header in -> header out)
//   wire(P, op) = pad4(P) + LRH 8 + BTH 12 [+ RETH 16 on WRITE first/only] [+ ImmDt 4 on
//                 *_WITH_IMMEDIATE] + ICRC 4 + VCRC 2 ; beats = ceil(wire / 64)
//     RDMA WRITE ONLY (a one-sided rdma_write record has no ImmDt):
//                                       8 B -> 8+42 = 50 B -> 1 beat;  4096 B -> 4138 B -> 65 beats
//     SEND ONLY:                        8 B -> 8+26 = 34 B -> 1 beat;  4096 B -> 4122 B -> 65 beats
//     ACKNOWLEDGE (LRH 8 + BTH 12 + AETH 4 + ICRC 4 + VCRC 2)   = 30 B -> 1 beat
//
//   one-way (post -> data placed at the target, on_delivered)
//            = TX + LINK + SW + LINK + beats + RX
//            8 B: 196+90+235+90+1+196 = 808 cycles = 1034.24 ns;  4096 B: 872 cycles = 1116.16 ns
//   initiator completion (post -> RC ACK received; the ACK leaves at the data's tail)
//            = TX + LINK + SW + LINK + beats + LINK + SW + LINK + 1
//            8 B: 196+415+1+416 = 1028 cycles = 1315.84 ns;  4096 B: 1092 cycles = 1397.76 ns
//
// A collective's time_ns = last member finished - last member issued, and (testbench/replay.h)
// a member's part ends when every transfer it sends is ACKNOWLEDGED and every transfer it
// receives has arrived. So for one message time_ns = max(one-way, initiator completion); with
// these defaults the ACK round trip (416 cycles) is longer than RX (196 cycles) and dominates.
// The pure one-way figure is checked (a) on the receiver's recv slice for send/recv and (b) on
// time_ns itself with hca.rx_latency raised to 1 us so that delivery, not the ACK, ends the
// transfer.
//
// One simulation per TEST_CASE (SystemC elaborates once per process).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
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
#include "run_sim.h"
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

// ---- raw numbers (ps, bytes) --------------------------------------------------------------
constexpr uint64_t CYCLE_PS = 64ULL * 8 * 1'000'000'000'000ULL / 400'000'000'000ULL;  // 1280
constexpr uint64_t TX_PS = 250'000;
constexpr uint64_t RX_PS = 250'000;
constexpr uint64_t FEC_PS = 100'000;
constexpr uint64_t CABLE_MM = 3'000;
constexpr uint64_t PROP_PS_PER_M = 5'000;
constexpr uint64_t SWITCH_PS = 300'000;

constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}
constexpr uint64_t pad4(uint64_t p) {
    return ceil_div(p, 4) * 4;
}

constexpr uint64_t TX = ceil_div(TX_PS, CYCLE_PS);
constexpr uint64_t RX = ceil_div(RX_PS, CYCLE_PS);
constexpr uint64_t LINK = ceil_div(FEC_PS + CABLE_MM * PROP_PS_PER_M / 1000, CYCLE_PS);
constexpr uint64_t SW = ceil_div(SWITCH_PS, CYCLE_PS);
static_assert(CYCLE_PS == 1280 && TX == 196 && RX == 196 && LINK == 90 && SW == 235,
              "hand-derived timing");

constexpr uint64_t write_only_imm_wire(uint64_t p) {
    return pad4(p) + 8 + 12 + 16 + 4 + 4 + 2;
}
constexpr uint64_t send_only_wire(uint64_t p) {
    return pad4(p) + 8 + 12 + 4 + 2;
}
constexpr uint64_t ACK_WIRE = 8 + 12 + 4 + 4 + 2;
constexpr uint64_t beats(uint64_t wire) {
    return ceil_div(wire, 64);
}
static_assert(beats(write_only_imm_wire(8)) == 1 && beats(write_only_imm_wire(4096)) == 65);
static_assert(beats(send_only_wire(8)) == 1 && beats(send_only_wire(4096)) == 65);
static_assert(beats(ACK_WIRE) == 1);

constexpr uint64_t one_way(uint64_t data_beats, uint64_t rx = RX) {
    return TX + LINK + SW + LINK + data_beats + rx;
}
constexpr uint64_t initiator_done(uint64_t data_beats) {
    return TX + LINK + SW + LINK + data_beats + LINK + SW + LINK + beats(ACK_WIRE);
}
static_assert(one_way(1) == 808 && one_way(65) == 872);
static_assert(initiator_done(1) == 1028 && initiator_done(65) == 1092);

constexpr double ns_of(uint64_t cycles) {
    return static_cast<double>(cycles * CYCLE_PS) / 1000.0;
}
constexpr double CYCLE_NS = static_cast<double>(CYCLE_PS) / 1000.0;

// ---- harness ----------------------------------------------------------------------------
std::vector<std::string> base_sets() {
    // Every number used above, set explicitly so a change of defaults cannot move the test.
    return ndr::test::pinned_timing_sets({"fabric.topology=single_switch"});
}

struct sim_run {
    ndr::tb::run_outcome out;
    nlohmann::json report;
};

std::string temp_trace(const std::string& tag, const std::string& text) {
    const std::string path = ndr::test::temp_dir() + "ndrsim_run_latency_" + tag + "_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    std::ofstream f(path);
    f << text;
    REQUIRE(f.good());
    return path;
}

sim_run simulate(const std::string& tag, const std::string& trace_text,
                 std::vector<std::string> extra = {}) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<std::string> sets = base_sets();
    sets.insert(sets.end(), extra.begin(), extra.end());
    const ndr::cfg::config c = ndr::cfg::load_config("", sets);
    const std::string path = temp_trace(tag, trace_text);
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());
    sim_run r;
    r.out = ndr::tb::run_trace(c, tr);
    r.report = ndr::tb::run_report_json(c, tr, r.out);
    return r;
}

std::string rdma_write_trace(uint64_t bytes) {
    return "{\"type\":\"header\",\"version\":1,\"nranks\":2,\"name\":\"rdma write\"}\n"
           "{\"type\":\"comm\",\"id\":0,\"ranks\":[0,1]}\n"
           "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"rdma_write\",\"count\":" +
           std::to_string(bytes) + ",\"dtype\":\"uint8\",\"peer\":1}\n";
}

std::string send_recv_trace(uint64_t bytes) {
    const std::string n = std::to_string(bytes);
    return "{\"type\":\"header\",\"version\":1,\"nranks\":2,\"name\":\"send recv\"}\n"
           "{\"type\":\"comm\",\"id\":0,\"ranks\":[0,1]}\n"
           "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"send\",\"count\":" +
           n +
           ",\"dtype\":\"uint8\",\"peer\":1}\n"
           "{\"type\":\"op\",\"rank\":1,\"comm\":0,\"seq\":0,\"op\":\"recv\",\"count\":" +
           n + ",\"dtype\":\"uint8\",\"peer\":0}\n";
}

/// Checks shared by every case: one collective, done, one message each way, clean counters.
void check_common(const sim_run& r, const char* op, uint64_t bytes) {
    INFO("report collectives = " << r.report["collectives"].dump());
    INFO("report hca = " << r.report["hca"].dump());
    REQUIRE(r.out.collectives.size() == 1);
    REQUIRE(r.out.collectives[0].done);
    const auto& c = r.report["collectives"][0];
    CHECK(c["op"] == op);
    CHECK(c["bytes"].get<uint64_t>() == bytes);
    CHECK(c["ranks"].get<uint32_t>() == 2);
    CHECK(c["algo"] == "direct");
    CHECK(r.out.hca.messages_posted == 1);
    CHECK(r.out.hca.messages_delivered == 1);
    CHECK(r.out.hca.data_packets_sent == 1);
    CHECK(r.out.hca.payload_bytes_delivered == bytes);
    CHECK(r.out.hca.retransmitted_packets == 0);
    CHECK(r.out.hca.acks_sent == 1);
    REQUIRE(r.out.pair_bytes.hosts() == 2);
    CHECK(r.out.pair_bytes.get(0, 1) == bytes);
    CHECK(r.out.pair_bytes.get(1, 0) == 0);
}

void check_time(const sim_run& r, uint64_t expect_cycles) {
    const auto& c = r.report["collectives"][0];
    const double t = c["time_ns"].get<double>();
    INFO("time_ns " << t << ", expected " << expect_cycles << " cycles = " << ns_of(expect_cycles)
                    << " ns (+-1 cycle)");
    CHECK(std::fabs(t - ns_of(expect_cycles)) <= CYCLE_NS + 1e-9);
    CHECK(c["end_ns"].get<double>() - c["start_ns"].get<double>() == Approx(t));
}

/// Duration (cycles) of rank `rank`'s only slice.
uint64_t slice_cycles(const sim_run& r, uint32_t rank) {
    for (const auto& s : r.out.slices) {
        if (s.rank == rank) return s.end - s.start;
    }
    FAIL("no slice for rank " << rank);
    return 0;
}

}  // namespace

TEST_CASE("run latency: RDMA WRITE 8 B host-switch-host = max(one-way, ACK return)",
          "[run][latency]") {
    const sim_run r = simulate("w8", rdma_write_trace(8));
    check_common(r, "rdma_write", 8);
    // one-way 808 cycles (1034.24 ns), initiator ACK at 1028 cycles (1315.84 ns): the ACK ends it.
    check_time(r, std::max(one_way(1), initiator_done(1)));
    CHECK(slice_cycles(r, 0) == initiator_done(1));
}

TEST_CASE("run latency: RDMA WRITE 4096 B host-switch-host = max(one-way, ACK return)",
          "[run][latency]") {
    const sim_run r = simulate("w4096", rdma_write_trace(4096));
    check_common(r, "rdma_write", 4096);
    // one-way 872 cycles (1116.16 ns), ACK at 1092 cycles (1397.76 ns).
    check_time(r, std::max(one_way(65), initiator_done(65)));
}

TEST_CASE("run latency: RDMA WRITE 8 B one-way = tx+link+switch+link+ser+rx (rx 1 us)",
          "[run][latency]") {
    // hca.rx_latency = 1 us: RX = ceil(1000/1.28) = 782 cycles; one-way = 196+90+235+90+1+782
    // = 1394 cycles > ACK completion 1028, so time_ns is the pure one-way latency.
    constexpr uint64_t rx = ceil_div(1'000'000, CYCLE_PS);
    static_assert(rx == 782 && one_way(1, rx) == 1394);
    const sim_run r = simulate("w8rx", rdma_write_trace(8), {"hca.rx_latency=1us"});
    check_common(r, "rdma_write", 8);
    check_time(r, one_way(1, rx));
}

TEST_CASE("run latency: RDMA WRITE 4096 B one-way = tx+link+switch+link+ser+rx (rx 1 us)",
          "[run][latency]") {
    constexpr uint64_t rx = ceil_div(1'000'000, CYCLE_PS);
    static_assert(one_way(65, rx) == 1458);
    const sim_run r = simulate("w4096rx", rdma_write_trace(4096), {"hca.rx_latency=1us"});
    check_common(r, "rdma_write", 4096);
    check_time(r, one_way(65, rx));
}

TEST_CASE("run latency: send/recv 8 B: recv ends one-way, send ends at the ACK", "[run][latency]") {
    const sim_run r = simulate("s8", send_recv_trace(8));
    check_common(r, "send", 8);
    check_time(r, std::max(one_way(1), initiator_done(1)));
    REQUIRE(r.out.slices.size() == 2);
    CHECK(slice_cycles(r, 1) == one_way(1));         // recv: 808 cycles = 1034.24 ns
    CHECK(slice_cycles(r, 0) == initiator_done(1));  // send: 1028 cycles = 1315.84 ns
}

TEST_CASE("run latency: send/recv 4096 B: recv ends one-way, send ends at the ACK",
          "[run][latency]") {
    const sim_run r = simulate("s4096", send_recv_trace(4096));
    check_common(r, "send", 4096);
    check_time(r, std::max(one_way(65), initiator_done(65)));
    REQUIRE(r.out.slices.size() == 2);
    CHECK(slice_cycles(r, 1) == one_way(65));         // recv: 872 cycles = 1116.16 ns
    CHECK(slice_cycles(r, 0) == initiator_done(65));  // send: 1092 cycles = 1397.76 ns
}
