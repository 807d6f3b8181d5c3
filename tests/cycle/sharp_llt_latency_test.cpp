// SHARP low-latency tree (LLT): 8-byte fp32 sum allreduce on 64 hosts of one 64-port switch,
// against the latency chain read from the model code and computed by hand from raw numbers.
//
//   cycle c = 64 B * 8 bit / 400 Gb/s = 1.28 ns
//   TX   = ceil(hca.tx_latency 250 ns / c)                  = ceil(195.31) = 196 cycles
//   LINK = ceil((link.fec_latency 100 ns + 3 m * 5 ns/m) / c) = ceil(89.84) =  90 cycles
//   SW   = ceil(switch.latency 300 ns / c)                  = ceil(234.38) = 235 cycles
//          (ingress pipeline = SW - 1 = 234 cycles after the header arrives)
//   ALU  = ceil(sharp.alu_latency 50 ns / c)                = ceil(39.06)  =  40 cycles
//   RX   = ceil(hca.rx_latency 250 ns / c)                  = 196 cycles
//   packet: 8 B payload (<= sharp.sat_threshold 16 KiB: LLT, one 2048 B OST chunk holds it)
//          wire = 8 + 12 + 8 + 16 + 8 + 4 + 2 = 58 B -> BEATS = 1
//
// The chain (t0 = the cycle the last member issues = the collective's start):
//   t0                 replay::start_sharp -> hca sharp_send(t0)          (every host at once)
//   t0+TX              EV_SHARP_READY: the packet joins the host's queue; the host link is idle,
//                      so transmit() starts it in that same cycle          = t0 + 196
//   +LINK              EV_HDR at the switch (hdr_in)                        = t0 + 286
//   hdr_in+SW-1        on_eligible (cut-through ingress pipeline)           = t0 + 520
//   max(elig+1, hdr_in+BEATS) = hdr_in+SW: EV_SHARP_IN, sharp_an::on_packet  = t0 + 521
//                      (all 64 inputs arrive in the same cycle; the 64th completes the chunk)
//   done = last + ALU  sharp_emit.at; EV_SHARP_OUT at max(done, t+1) = done = t0 + 561
//   sharp_egress in that cycle: link start = max(done+1, link_free) = done+1 = t0 + 562
//                      (64 results, one per output port, all start together)
//   +LINK              EV_HDR at the host                                   = t0 + 652
//   +BEATS             EV_TAIL (whole packet in)                            = t0 + 653
//   +RX                EV_SHARP_PLACED -> replay::on_sharp_result: member done = t0 + 849
//   time_ns = 849 cycles * 1.28 ns = 1086.72 ns
//   i.e. TX + LINK + SW + ALU + 1 + LINK + BEATS + RX = 196+90+235+40+1+90+1+196 = 849.
// Asserted within 5 % (as briefed) and printed with the cycle difference; it is expected exact.
// Data mode (sharp.data=auto, 8 B <= 1 MiB): every result byte is checked against the golden
// tree reduction (a mismatch throws), so data_checked must be true.
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

#include "sharp_test_util.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using namespace sharp_test;  // NOLINT: test-local helpers
constexpr uint64_t TX = ceil_div(250'000, CYCLE_PS);
constexpr uint64_t RX = ceil_div(250'000, CYCLE_PS);
constexpr uint64_t LINK = ceil_div(100'000 + 3'000 * 5'000 / 1000, CYCLE_PS);
constexpr uint64_t SW = ceil_div(300'000, CYCLE_PS);
constexpr uint64_t ALU = ceil_div(50'000, CYCLE_PS);
constexpr uint64_t BEATS = beats(sharp_wire(8));
static_assert(TX == 196 && RX == 196 && LINK == 90 && SW == 235 && ALU == 40);
static_assert(sharp_wire(8) == 58 && BEATS == 1);
constexpr uint64_t T_READY = TX;                                         // 196
constexpr uint64_t T_HDR_SW = T_READY + LINK;                            // 286
constexpr uint64_t T_ELIG = T_HDR_SW + SW - 1;                           // 520
constexpr uint64_t T_SHARP_IN = std::max(T_ELIG + 1, T_HDR_SW + BEATS);  // 521
constexpr uint64_t T_DONE = T_SHARP_IN + ALU;                            // 561
constexpr uint64_t T_LINK_START = T_DONE + 1;                            // 562
constexpr uint64_t T_HDR_HOST = T_LINK_START + LINK;                     // 652
constexpr uint64_t T_TAIL = T_HDR_HOST + BEATS;                          // 653
constexpr uint64_t T_PLACED = T_TAIL + RX;                               // 849
static_assert(T_SHARP_IN == 521 && T_DONE == 561 && T_PLACED == 849);

}  // namespace

TEST_CASE("sharp LLT: 8 B allreduce on 64 hosts, one switch, hand-computed latency",
          "[run][sharp]") {
    constexpr uint32_t n = 64;
    const sim_run r = simulate(
        "sharp_llt",
        header(n, "sharp llt") + comm(0, 0, n) + allreduce(0, 0, n, 0, 2, "fp32", "sum", "sharp"),
        {"switch.ports=64", "fabric.topology=single_switch", "sharp.data=auto"});
    INFO("collectives = " << r.report["collectives"].dump());
    INFO("sharp = " << r.report["sharp"].dump());
    REQUIRE(r.out.collectives.size() == 1);
    REQUIRE(r.out.collectives[0].done);
    const auto& c = r.report["collectives"][0];
    CHECK(c["algo"] == "sharp");
    CHECK(c["bytes"].get<uint64_t>() == 8);
    CHECK(c["ranks"].get<uint32_t>() == n);
    CHECK_FALSE(c.contains("fallback"));
    REQUIRE(c.contains("sharp"));
    CHECK(c["sharp"]["levels"].get<uint32_t>() == 1);
    CHECK(c["sharp"]["data_checked"].get<bool>());
    CHECK(c["busbw_factor"].get<double>() == Approx(63.0 / 65.0));
    const double t = c["time_ns"].get<double>();
    const double expect = ns_of(T_PLACED);
    const double diff_cycles = (t - expect) / CYCLE_NS;
    WARN(std::fixed << std::setprecision(2) << "LLT 8 B on 64 hosts: time " << t
                    << " ns, hand-computed " << expect << " ns (" << T_PLACED
                    << " cycles), difference " << diff_cycles << " cycles");
    CHECK(std::fabs(t - expect) <= 0.05 * expect);
    // One chunk, one reduction at the only aggregation node.
    const auto& lv = r.report["sharp"]["levels"];
    REQUIRE(lv.size() == 1);
    CHECK(lv[0]["level"].get<uint32_t>() == 0);
    CHECK(lv[0]["chunks_reduced"].get<double>() == 1.0);
    // Aggregation latency = first arrival -> result out = ALU (all inputs arrive together).
    CHECK(lv[0]["mean_aggregation_latency_ns"].get<double>() == Approx(ns_of(ALU)));
    CHECK(r.out.hca.retransmitted_packets == 0);
}
