// Random operands for the SHARP ALU check (sharp_alu_check.h): uniform bits mixed with the values
// where reductions go wrong: for floats +-0, +-inf, quiet and signalling NaNs with payloads,
// subnormals, the smallest normal, the largest finite (sums that overflow), operand pairs that
// cancel or nearly cancel and exponent differences around the alignment width (guard, round,
// sticky); for integers 0, 1, -1, the signed extremes (sums that wrap) and equal operands (the
// equal-value index rule of minloc/maxloc). Deterministic for a seed.
#pragma once
#include <cstdint>
#include <random>

#include "golden/reduce_op.h"

namespace ndr::verify {

/// One operand pair of a dtype, in the low bits of 64-bit words (upper bits 0), and a pair of
/// minloc/maxloc indices.
struct sharp_alu_operand_pair {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
    std::uint32_t a_idx = 0;
    std::uint32_t b_idx = 0;
};

class sharp_alu_operands {
public:
    explicit sharp_alu_operands(std::uint64_t seed) : rng_(seed) {}

    sharp_alu_operand_pair next(golden::red_type type);

private:
    std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi);
    std::uint64_t random_int(std::uint64_t mask);
    std::uint64_t random_float(golden::red_type type);
    std::uint64_t related_float(golden::red_type type, std::uint64_t a);
    std::uint32_t random_index();

    std::mt19937_64 rng_;
};

}  // namespace ndr::verify
