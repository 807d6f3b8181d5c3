// rtl/sharp_alu/ibs_sharp_alu.sv against the golden reduce_elementwise through the check of
// `ndrsim verify sharp_alu` (rtl/sharp_alu/sharp_alu_check.h): seeded random vectors on all
// 108 supported (op, dtype) pairs with specials, random stalls, handshake and exact latency
// checked every cycle. Also: the fault build is caught, an unknown fault is an error, the
// waveform and the coverage summary are produced, a run is deterministic. The long run (tag
// [.sharp_alu_long], not in CI) is documented in rtl/README.md.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>
#include <catch2/catch.hpp>

#include "sharp_alu/sharp_alu_check.h"

namespace {

using ndr::verify::check_options;
using ndr::verify::check_result;
using ndr::verify::check_sharp_alu;

std::string describe(const check_result& r) {
    if (r.ok()) return "ok";
    const auto& m = *r.first_mismatch;
    return "cycle " + std::to_string(m.cycle) + ", " + m.what + ": expected " + m.expected +
           ", got " + m.got;
}

void check_seed(uint64_t seed, uint64_t cycles) {
    check_options opt;
    opt.seed = seed;
    opt.cycles = cycles;
    const check_result r = check_sharp_alu(opt);
    INFO(describe(r));
    REQUIRE(r.ok());
    CHECK(r.block == "sharp_alu");
    CHECK(r.cycles == cycles);
    // Per cycle 2 handshake comparisons, per delivered beat 2 more; random stalls deliver fewer
    // beats than cycles, but at least a third of them (the lowest input rate is 0.3 in phases).
    CHECK(r.comparisons > 2 * cycles + cycles / 2);
    CHECK(r.coverage.points > 0);
    CHECK(r.coverage.hit > r.coverage.points / 2);
    CHECK(r.coverage.hit <= r.coverage.points);
}

}  // namespace

TEST_CASE("verify sharp_alu passes on the real RTL seed 1", "[rtl]") {
    check_seed(1, 1'000'000);
}
TEST_CASE("verify sharp_alu passes on the real RTL seed 2", "[rtl]") {
    check_seed(2, 1'000'000);
}
TEST_CASE("verify sharp_alu passes on the real RTL seed 3", "[rtl]") {
    check_seed(3, 1'000'000);
}

TEST_CASE("verify sharp_alu reports the truncating fault build", "[rtl]") {
    check_options opt;
    opt.seed = 7;
    opt.cycles = 100'000;
    opt.fault = "rounding";
    const check_result r = check_sharp_alu(opt);
    REQUIRE_FALSE(r.ok());
    const auto& m = *r.first_mismatch;
    INFO(describe(r));
    // A float sum is the first to differ.
    CHECK(m.what.rfind("res_o sum ", 0) == 0);
    CHECK((m.what.find(" fp") != std::string::npos || m.what.find(" bf16") != std::string::npos));
    CHECK(m.port == -1);
    CHECK(m.vl == -1);
    CHECK(m.expected != m.got);
    CHECK(r.cycles == m.cycle);  // stopped at the first mismatch (cycles counts completed ones)
    // Truncation is one ulp below the RNE result for a positive operand pair or above it for a
    // negative one: the two differ in the low bits only.
    const uint64_t e = std::stoull(m.expected, nullptr, 16);
    const uint64_t g = std::stoull(m.got, nullptr, 16);
    CHECK(((e > g ? e - g : g - e) == 1));
}

TEST_CASE("verify sharp_alu reports the one-cycle-late fault build", "[rtl]") {
    check_options opt;
    opt.seed = 8;
    opt.cycles = 10'000;
    opt.fault = "latency";
    const check_result r = check_sharp_alu(opt);
    REQUIRE_FALSE(r.ok());
    const auto& m = *r.first_mismatch;
    INFO(describe(r));
    // The first phase runs at full rate: the first beat enters at cycle 0 and is due at cycle
    // Stages; the faulty pipeline has one register more, so out_valid_o is still 0 there.
    CHECK(m.what.rfind("out_valid_o ", 0) == 0);
    CHECK(m.cycle == NDR_RTL_SHARP_ALU_STAGES);
    CHECK(m.expected == "1");
    CHECK(m.got == "0");
}

TEST_CASE("verify sharp_alu rejects an unknown fault name", "[rtl]") {
    check_options opt;
    opt.fault = "no_such_fault";
    CHECK_THROWS_WITH(check_sharp_alu(opt),
                      Catch::Contains("no_such_fault") && Catch::Contains("rounding"));
}

TEST_CASE("verify sharp_alu writes an FST waveform", "[rtl]") {
    const auto path = std::filesystem::temp_directory_path() /
                      ("ndr_sharp_alu_wave_" + std::to_string(::getpid()) + ".fst");
    check_options opt;
    opt.seed = 4;
    opt.cycles = 3'000;
    opt.wave_path = path.string();
    const check_result r = check_sharp_alu(opt);
    CHECK(r.ok());
    REQUIRE(std::filesystem::exists(path));
    CHECK(std::filesystem::file_size(path) > 1'000);
    std::ifstream in(path, std::ios::binary);
    char block_type = 1;
    in.read(&block_type, 1);
    CHECK(block_type == 0);  // FST files open with a header block, type FST_BL_HDR = 0
    std::filesystem::remove(path);

    check_options bad = opt;
    bad.wave_path = "/nonexistent_dir/x.fst";
    CHECK_THROWS_AS(check_sharp_alu(bad), std::runtime_error);
}

TEST_CASE("verify sharp_alu is deterministic for a seed", "[rtl]") {
    check_options opt;
    opt.seed = 9;
    opt.cycles = 20'000;
    const check_result a = check_sharp_alu(opt);
    const check_result b = check_sharp_alu(opt);
    REQUIRE(a.ok());
    CHECK(a.comparisons == b.comparisons);
    CHECK(a.coverage.hit == b.coverage.hit);
    opt.seed = 10;
    CHECK(check_sharp_alu(opt).comparisons != a.comparisons);
}

// Opt-in long run (hidden tag, not in CI): NDR_SHARP_ALU_LONG_CYCLES cycles (default 20M), e.g.
//   build/tests/rtl/rtl_tests "[.sharp_alu_long]" -s
TEST_CASE("verify sharp_alu long run", "[.sharp_alu_long]") {
    check_options opt;
    opt.seed = 2026;
    opt.cycles = 20'000'000;
    if (const char* env = std::getenv("NDR_SHARP_ALU_LONG_CYCLES")) opt.cycles = std::stoull(env);
    const check_result r = check_sharp_alu(opt);
    INFO(describe(r));
    REQUIRE(r.ok());
    WARN("cycles " << r.cycles << ", comparisons " << r.comparisons << ", coverage "
                   << r.coverage.hit << "/" << r.coverage.points);
}
