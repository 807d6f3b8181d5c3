// rtl/sharp_alu/ibs_sharp_alu.sv against the golden reduce_elementwise (models/golden/reduce_op.h,
// count 1), bit for bit, with Verilator --assert. One test case per dtype (int32, uint32, int64,
// uint64, fp32, fp16, bf16), 1M vectors per op (sum, min, max) each, ops interleaved. Operands
// mix uniform bits with special values (+-0, +-inf, quiet and signalling NaNs with payloads,
// subnormals, min normal, max finite), operand pairs that cancel or nearly cancel, exponent
// differences around the alignment width and sums near overflow. A scoreboard expects results
// in order; the first 20k cycles run without back-pressure and check the latency (Stages cycles)
// exactly, later phases add input bubbles and output back-pressure.
#include <cstdint>
#include <cstring>
#include <deque>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "Vibs_sharp_alu.h"
#include "golden/reduce_op.h"
#include "rtl_checker.h"

namespace {

using ndr::golden::red_op;
using ndr::golden::red_type;
using ndr::rtl_test::mismatch_log;
using ndr::rtl_test::verilated_dut;

constexpr uint64_t STAGES = NDR_RTL_SHARP_ALU_STAGES;

struct float_fmt {
    unsigned exp_w;
    unsigned man_w;
    unsigned width() const { return 1 + exp_w + man_w; }
};

float_fmt fmt_of(red_type t) {
    switch (t) {
        case red_type::fp16: return {5, 10};
        case red_type::bf16: return {8, 7};
        default: return {8, 23};
    }
}

class operand_gen {
public:
    operand_gen(red_type type, uint64_t seed) : type_(type), rng_(seed) {}

    /// A pair (a, b) of operands in the low bits.
    void next(uint64_t& a, uint64_t& b) {
        if (ndr::golden::is_float_type(type_)) {
            a = random_float();
            b = related_float(a);
        } else {
            a = random_int();
            b = uniform(0, 9) == 0 ? a : random_int();
        }
        a &= mask();
        b &= mask();
    }

private:
    uint64_t uniform(uint64_t lo, uint64_t hi) {
        return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
    }
    uint64_t mask() const {
        const size_t bytes = ndr::golden::red_type_size(type_);
        return bytes == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * bytes)) - 1;
    }
    uint64_t random_int() {
        switch (uniform(0, 9)) {
            case 0: return uniform(0, 8) - 4;                        // small, both signs
            case 1: {
                const uint64_t extremes[] = {0, ~uint64_t{0}, mask() >> 1, (mask() >> 1) + 1, 1};
                return extremes[uniform(0, 4)];
            }
            default: return rng_();
        }
    }
    // Float fields.
    uint64_t pack(uint64_t sign, uint64_t exp, uint64_t man) const {
        const float_fmt f = fmt_of(type_);
        return sign << (f.width() - 1) | exp << f.man_w | (man & ((uint64_t{1} << f.man_w) - 1));
    }
    uint64_t random_float() {
        const float_fmt f = fmt_of(type_);
        const uint64_t emax = (uint64_t{1} << f.exp_w) - 1;
        const uint64_t mmax = (uint64_t{1} << f.man_w) - 1;
        const uint64_t s = uniform(0, 1);
        switch (uniform(0, 9)) {
            case 0: {  // specials
                const uint64_t special[] = {
                    pack(s, 0, 0),                       // +-0
                    pack(s, emax, 0),                    // +-inf
                    pack(s, emax, uint64_t{1} << (f.man_w - 1)),  // quiet NaN
                    pack(s, emax, 1),                    // signalling NaN
                    pack(s, emax, uniform(1, mmax)),     // NaN with a payload
                    pack(s, 0, 1),                       // min subnormal
                    pack(s, 0, mmax),                    // max subnormal
                    pack(s, 1, 0),                       // min normal
                    pack(s, emax - 1, mmax),             // max finite
                    pack(s, emax >> 1, 0)};              // 1.0
                return special[uniform(0, 9)];
            }
            case 1:
            case 2: return pack(s, 0, uniform(0, mmax));              // subnormal
            case 3: return pack(s, uniform(emax - 3, emax - 1), uniform(0, mmax));  // large
            case 4: return pack(s, uniform(1, 4), uniform(0, mmax));  // near the subnormals
            default: return rng_();                                    // uniform bits
        }
    }
    uint64_t related_float(uint64_t a) {
        const float_fmt f = fmt_of(type_);
        const uint64_t emax = (uint64_t{1} << f.exp_w) - 1;
        const uint64_t sign_bit = uint64_t{1} << (f.width() - 1);
        const uint64_t ea = (a >> f.man_w) & emax;
        switch (uniform(0, 9)) {
            case 0: return random_float();
            case 1: return rng_();
            case 2: return a ^ sign_bit;                               // exact cancellation
            case 3: return (a ^ sign_bit) + (uniform(0, 1) ? 1 : -1);  // near cancellation
            case 4: return a;
            default: {  // exponent difference 0 .. man_w + 5 (alignment, GRS), either sign
                const uint64_t d = uniform(0, f.man_w + 5);
                const uint64_t eb = ea > d ? ea - d : uniform(0, 1);
                return pack(uniform(0, 1), eb == emax ? emax - 1 : eb,
                            rng_() & ((uint64_t{1} << f.man_w) - 1));
            }
        }
    }

    red_type type_;
    std::mt19937_64 rng_;
};

uint64_t golden_result(red_op op, red_type type, uint64_t a, uint64_t b) {
    uint8_t acc[8];
    uint8_t in[8];
    for (int k = 0; k < 8; ++k) {  // little-endian element storage (reduce_op.h)
        acc[k] = static_cast<uint8_t>(a >> (8 * k));
        in[k] = static_cast<uint8_t>(b >> (8 * k));
    }
    ndr::golden::reduce_elementwise(op, type, acc, in, 1);
    uint64_t r = 0;
    const size_t bytes = ndr::golden::red_type_size(type);
    for (size_t k = 0; k < bytes; ++k) r |= uint64_t{acc[k]} << (8 * k);
    return r;
}

struct expected {
    uint64_t in_cycle;
    red_op op;
    uint64_t a, b, result;
};

struct run_result {
    std::string mismatch;
    uint64_t per_op[3] = {0, 0, 0};
    uint64_t stalls = 0;
};

/// Runs `per_op` vectors of each of the ops in `ops` (interleaved) on `type`.
run_result run_alu(red_type type, const std::vector<red_op>& ops, uint64_t per_op, uint64_t seed,
                   bool fault) {
    run_result res;
    mismatch_log log;
    std::mt19937_64 rng(seed ^ 0x5A5A);
    operand_gen gen(type, seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };

    verilated_dut<Vibs_sharp_alu> dut;
    auto& m = dut.m();
    m.in_valid_i = 0;
    m.out_ready_i = 1;
    m.op_i = 0;
    m.type_i = static_cast<uint8_t>(type);
    m.a_i = 0;
    m.b_i = 0;
    m.fault_round_i = fault ? 1 : 0;
    dut.reset();

    const uint64_t total = per_op * ops.size();
    uint64_t issued = 0;
    uint64_t done = 0;
    bool pending = false;
    expected cur{};
    std::deque<expected> scoreboard;
    double p_valid = 1.0;
    double p_ready = 1.0;
    for (uint64_t cyc = 0; done < total && log.ok(); ++cyc) {
        if (cyc >= 20'000 && cyc % 5'000 == 0) {
            const double rates[] = {1.0, 0.95, 0.7, 0.3};
            p_valid = rates[cyc % 20'000 == 0 ? 0 : rng() % 4];
            p_ready = rates[rng() % 4];
        }
        if (!pending && issued < total && chance(p_valid)) {
            cur.op = ops[issued % ops.size()];
            gen.next(cur.a, cur.b);
            cur.result = golden_result(cur.op, type, cur.a, cur.b);
            pending = true;
            ++issued;
        }
        m.in_valid_i = pending;
        m.op_i = static_cast<uint8_t>(cur.op);
        m.a_i = cur.a;
        m.b_i = cur.b;
        const bool ready = chance(p_ready);
        m.out_ready_i = ready;
        dut.settle();

        if (m.out_valid_o && ready) {
            if (scoreboard.empty()) {
                log.fail("cycle " + std::to_string(cyc) + ": result without an operand beat");
                break;
            }
            const expected e = scoreboard.front();
            scoreboard.pop_front();
            if (static_cast<uint64_t>(m.res_o) != e.result) {
                std::ostringstream os;
                os << "cycle " << cyc << ", " << ndr::golden::red_op_name(e.op)
                   << " " << ndr::golden::red_type_name(type) << " a=0x" << std::hex << e.a
                   << " b=0x" << e.b << ": expected 0x" << e.result << ", got 0x"
                   << static_cast<uint64_t>(m.res_o);
                log.fail(os.str());
            }
            if (cyc < 20'000) log.check(cyc, -1, "latency", STAGES, cyc - e.in_cycle);
            ++res.per_op[static_cast<int>(e.op)];
            ++done;
        } else if (m.out_valid_o) {
            ++res.stalls;
        }
        if (pending && m.in_ready_o) {
            cur.in_cycle = cyc;
            scoreboard.push_back(cur);
            pending = false;
        }
        dut.edge();
        if (dut.asserted()) {
            log.fail("cycle " + std::to_string(cyc) + ": RTL assertion failed (see output)");
        }
    }
    res.mismatch = log.first();
    return res;
}

void check_type(red_type type, uint64_t seed) {
    constexpr uint64_t PER_OP = 1'000'000;
    const run_result r =
        run_alu(type, {red_op::sum, red_op::min, red_op::max}, PER_OP, seed, false);
    INFO(ndr::golden::red_type_name(type) << ": " << r.mismatch);
    REQUIRE(r.mismatch.empty());
    for (const uint64_t n : r.per_op) CHECK(n == PER_OP);
    CHECK(r.stalls > 10'000);
}

}  // namespace

TEST_CASE("sharp_alu RTL matches golden reduce_elementwise: int32 sum/min/max, 1M each", "[rtl]") {
    check_type(red_type::int32, 1);
}
TEST_CASE("sharp_alu RTL matches golden reduce_elementwise: uint32 sum/min/max, 1M each", "[rtl]") {
    check_type(red_type::uint32, 2);
}
TEST_CASE("sharp_alu RTL matches golden reduce_elementwise: int64 sum/min/max, 1M each", "[rtl]") {
    check_type(red_type::int64, 3);
}
TEST_CASE("sharp_alu RTL matches golden reduce_elementwise: uint64 sum/min/max, 1M each", "[rtl]") {
    check_type(red_type::uint64, 4);
}
TEST_CASE("sharp_alu RTL matches golden reduce_elementwise: fp32 sum/min/max, 1M each", "[rtl]") {
    check_type(red_type::fp32, 5);
}
TEST_CASE("sharp_alu RTL matches golden reduce_elementwise: fp16 sum/min/max, 1M each", "[rtl]") {
    check_type(red_type::fp16, 6);
}
TEST_CASE("sharp_alu RTL matches golden reduce_elementwise: bf16 sum/min/max, 1M each", "[rtl]") {
    check_type(red_type::bf16, 7);
}

TEST_CASE("sharp_alu checker reports truncating fp32 sums (fault injection)", "[rtl]") {
    const run_result r = run_alu(red_type::fp32, {red_op::sum}, 100'000, 11, true);
    INFO(r.mismatch);
    REQUIRE_FALSE(r.mismatch.empty());
    CHECK(r.mismatch.find("sum fp32") != std::string::npos);
}
