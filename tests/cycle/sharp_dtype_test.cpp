// SHARP bit-exactness in data-carrying mode (sharp.data=on), one dtype family per case, on 8
// hosts of one switch. Each host's contribution is generated deterministically, every switch
// reduces the real bytes with the golden ALU in child-port order, and replay::on_sharp_result
// compares every result byte with the golden tree reduction (and the result size): a mismatch
// throws out of run_trace, so a completed run with data_checked = true is bit-exact.
//
// Sizes are chosen so the last chunk is partial (tail handling) and both chunkings are covered:
//   int32 sum  40000 B (10000 elements) > 16 KiB: SAT, 4096 B chunks -> 9 full + 1 of 3136 B
//   fp16  sum  12300 B ( 6150 elements) <= 16 KiB: LLT, 2048 B chunks -> 6 full + 1 of 12 B
//   bf16  max 100002 B (50001 elements) > 16 KiB: SAT -> 24 full + 1 of 1698 B
//   fp64  min   8200 B ( 1025 elements) <= 16 KiB: LLT -> 4 full + 1 of 8 B
//   chunks per case = ceil(S / chunk); the single aggregation node reduces each once.
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
void run_dtype(const std::string& tag, const std::string& dtype, const std::string& redop,
               uint64_t elem_bytes, uint64_t count, uint64_t chunk_bytes) {
    constexpr uint32_t n = 8;
    const uint64_t S = count * elem_bytes;
    const sim_run r =
        simulate(tag,
                 header(n, "sharp " + dtype) + comm(0, 0, n) +
                     allreduce(0, 0, n, 0, count, dtype, redop, "sharp"),
                 {"switch.ports=64", "fabric.topology=single_switch", "sharp.data=on"});
    INFO("collectives = " << r.report["collectives"].dump());
    INFO("sharp = " << r.report["sharp"].dump());
    REQUIRE(r.out.collectives.size() == 1);
    REQUIRE(r.out.collectives[0].done);
    const auto& c = r.report["collectives"][0];
    CHECK(c["algo"] == "sharp");
    CHECK_FALSE(c.contains("fallback"));
    CHECK(c["bytes"].get<uint64_t>() == S);
    REQUIRE(c.contains("sharp"));
    CHECK(c["sharp"]["data_checked"].get<bool>());
    const auto& lv = r.report["sharp"]["levels"];
    REQUIRE(lv.size() == 1);
    CHECK(lv[0]["chunks_reduced"].get<double>() == static_cast<double>(ceil_div(S, chunk_bytes)));
}

}  // namespace

TEST_CASE("sharp data: int32 sum bit-exact (SAT, partial tail chunk)", "[run][sharp]") {
    run_dtype("sharp_dt_i32", "int32", "sum", 4, 10000, 4096);
}

TEST_CASE("sharp data: fp16 sum bit-exact (LLT, partial tail chunk)", "[run][sharp]") {
    run_dtype("sharp_dt_f16", "fp16", "sum", 2, 6150, 2048);
}

TEST_CASE("sharp data: bf16 max bit-exact (SAT, partial tail chunk)", "[run][sharp]") {
    run_dtype("sharp_dt_bf16", "bf16", "max", 2, 50001, 4096);
}

TEST_CASE("sharp data: fp64 min bit-exact (LLT, partial tail chunk)", "[run][sharp]") {
    run_dtype("sharp_dt_f64", "fp64", "min", 8, 1025, 2048);
}
