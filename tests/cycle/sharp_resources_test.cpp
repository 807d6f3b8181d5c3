// Finite SHARP resources (issue 15 item 5), at both model levels (the rule is in the shared
// core, models/common/sharp_an and testbench/host/sharp_manager):
//  - the ALU of an aggregation node reduces at sharp.alu_bandwidth, shared by its trees;
//  - sharp.ost_bytes = 1 B runs (slowly: chunks of osts_per_tree OSTs), bit-exact, no error;
//  - sharp.sat_per_switch / sharp.sat_per_port make concurrent SAT collectives wait.
//
//   cycle c = 64 B * 8 bit / 400 Gb/s = 1.28 ns; a 4096 B SAT chunk is 4146 B on the wire =
//   65 beats, so a link carries B = 4096 B / (65 * 1.28 ns) = 49.23 GB/s of chunk payload.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
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

constexpr double B_LINK = 4096.0 / (65 * CYCLE_NS);  // GB/s = B/ns

/// ONE simulation at the level sim.level in `extra` says (run_trace_at_level).
nlohmann::json run_at_level(const std::string& tag, const std::string& trace_text,
                            const std::vector<std::string>& extra) {
    const auto [c, tr] = prepare(tag, trace_text, extra);
    const ndr::tb::run_outcome out = ndr::tb::run_trace_at_level(c, tr);
    return ndr::tb::run_report_json(c, tr, out);
}

// ALU bound: 1 MiB fp32 allreduce on 2 hosts of one switch, sharp.alu_bandwidth = 100 Gb/s
// = 12.5 B/ns. The root ALU reads both contributions: 2 * 1 MiB / 12.5 B/ns = 167,772 ns,
// while the links alone would take 1 MiB / 49.23 B/ns = 21,300 ns (the old, unlimited ALU).
// Add at most a few us of pipeline (first chunk up, last result down).
void alu_bound(const std::string& level) {
    constexpr uint32_t n = 2;
    constexpr uint64_t S = 1ULL << 20;
    const nlohmann::json r = run_at_level(
        "sharp_alu",
        header(n, "alu") + comm(0, 0, n) + allreduce(0, 0, n, 0, S / 4, "fp32", "sum", "sharp"),
        {"fabric.topology=single_switch", "switch.ports=8", "sharp.alu_bandwidth=100Gbps",
         "sharp.data=on", "sim.level=" + level});
    const nlohmann::json& cl = r["collectives"][0];
    REQUIRE(cl["algo"] == "sharp");
    CHECK(cl["sharp"]["data_checked"].get<bool>());
    const double t_alu = 2.0 * static_cast<double>(S) / 12.5;
    const double t = cl["time_ns"].get<double>();
    INFO("time " << t << " ns, ALU bound " << t_alu << " ns, link bound " << S / B_LINK);
    CHECK(t >= t_alu);
    CHECK(t <= t_alu + 3000.0);
    // alu_utilisation = ALU work / run span: close to 1 when the ALU binds.
    CHECK(r["sharp"]["levels"][0]["alu_utilisation"].get<double>() > 0.95);
}

// sharp.ost_bytes = 1 B: a SAT chunk is capped at osts_per_tree 64 OSTs * 1 B = 64 B, and the
// host window is 64 / 64 = 1 chunk in flight; 64 KiB (> 16 KiB: SAT) = 1024 chunks. It used to
// stop with an invariant error (a 4096 B chunk needed 4096 of the node's 256 OSTs).
void ost_one_byte(const std::string& level) {
    constexpr uint32_t n = 2;
    constexpr uint64_t S = 64ULL << 10;
    const nlohmann::json r = run_at_level(
        "sharp_ost1",
        header(n, "ost1") + comm(0, 0, n) + allreduce(0, 0, n, 0, S / 4, "fp32", "sum", "sharp"),
        {"fabric.topology=single_switch", "switch.ports=8", "sharp.ost_bytes=1B", "sharp.data=on",
         "sim.level=" + level});
    const nlohmann::json& cl = r["collectives"][0];
    REQUIRE(cl["algo"] == "sharp");
    CHECK(cl["sharp"]["data_checked"]
              .get<bool>());  // every result byte equal to the golden reduction
    CHECK(r["sharp"]["levels"][0]["chunks_reduced"].get<uint64_t>() == S / 64);
    CHECK(r["sharp"]["levels"][0]["max_osts_in_use"].get<uint64_t>() <= 64);
    // Slowly: one 64 B chunk per round trip (>= 2 link crossings each way, 2 * 4 * 90 cycles).
    CHECK(cl["time_ns"].get<double>() >= 1024.0 * 4 * 90 * CYCLE_NS);
}

// Two communicators of 2 hosts each on one switch run a 4 MiB SAT allreduce at the same time.
// Alone each takes T = 4 MiB / 49.23 B/ns = 85,196 ns (+ ~1 us). With sharp.sat_per_switch = 1
// the second waits for the first: it ends after ~2T, timed from when it first tried.
void sat_two_comms(const std::string& level, uint32_t per_switch) {
    constexpr uint64_t S = 4ULL << 20;
    const nlohmann::json r =
        run_at_level("sharp_sat2",
                     header(4, "sat2") + comm(0, 0, 2) + comm(1, 2, 2) +
                         allreduce(0, 0, 2, 0, S / 4, "fp32", "sum", "sharp") +
                         allreduce(1, 2, 2, 0, S / 4, "fp32", "sum", "sharp"),
                     {"fabric.topology=single_switch", "switch.ports=8", "sharp.data=off",
                      "sharp.sat_per_switch=" + std::to_string(per_switch), "sim.level=" + level});
    const double T = static_cast<double>(S) / B_LINK;
    double longest = 0;
    for (const nlohmann::json& cl : r["collectives"]) {
        REQUIRE(cl["algo"] == "sharp");
        longest = std::max(longest, cl["time_ns"].get<double>());
    }
    INFO("longest " << longest << " ns, T " << T << " ns");
    if (per_switch == 1) {
        CHECK(longest >= 2 * T);
        CHECK(longest <= 2 * T + 4000.0);
    } else {
        CHECK(longest >= T);
        CHECK(longest <= T + 2000.0);
    }
}

}  // namespace

TEST_CASE("sharp resources: ALU bandwidth binds a 1 MiB allreduce (cycle)", "[run][sharp]") {
    alu_bound("cycle");
}
TEST_CASE("sharp resources: ALU bandwidth binds a 1 MiB allreduce (tlm)", "[run][sharp]") {
    alu_bound("tlm");
}
TEST_CASE("sharp resources: sharp.ost_bytes=1B completes bit-exact (cycle)", "[run][sharp]") {
    ost_one_byte("cycle");
}
TEST_CASE("sharp resources: sharp.ost_bytes=1B completes bit-exact (tlm)", "[run][sharp]") {
    ost_one_byte("tlm");
}
TEST_CASE("sharp resources: sat_per_switch=1 serialises two communicators (cycle)",
          "[run][sharp]") {
    sat_two_comms("cycle", 1);
}
TEST_CASE("sharp resources: sat_per_switch=1 serialises two communicators (tlm)", "[run][sharp]") {
    sat_two_comms("tlm", 1);
}
TEST_CASE("sharp resources: sat_per_switch=2 runs two communicators together (cycle)",
          "[run][sharp]") {
    sat_two_comms("cycle", 2);
}
