// 16-bit floating-point formats of the SHARP aggregation ALU (docs/domain.md §7), SystemC-free:
// bit-exact software conversions between IEEE 754 binary16 ("fp16"), bfloat16 ("bf16") and
// binary32 ("fp32", the C++ `float`), plus the canonical NaN encodings of every float format.
//
// Formats (bit fields, most significant first):
//   fp16: sign 1 | exponent 5 (bias 15)  | fraction 10. Max 65504 = 0x7BFF; min normal 2^-14 =
//         0x0400; min subnormal 2^-24 = 0x0001; 1.0 = 0x3C00; +inf = 0x7C00.
//   bf16: sign 1 | exponent 8 (bias 127) | fraction 7, i.e. the upper half of an fp32. 1.0 =
//         0x3F80; +inf = 0x7F80; same exponent range as fp32, subnormals included.
//
// Conversions to float are exact (every fp16/bf16 value is an fp32 value). Conversions from
// float round to nearest, ties to even (IEEE 754 roundTiesToEven), with gradual underflow
// (subnormal results, never flushed to zero) and overflow to ±inf. NaN handling (the same rule
// as x86 F16C VCVTPH2PS/VCVTPS2PH): the sign and the most significant fraction bits are kept
// and the result is quieted (fraction MSB set); the reduction code replaces NaN results by the
// canonical NaNs below anyway.
#pragma once
#include <cstdint>

namespace ndr::golden {

/// Canonical quiet NaN of each format, produced for every NaN result of a reduction (choice:
/// positive sign, quiet bit set, zero payload; the RISC-V "canonical NaN").
inline constexpr uint16_t FP16_CANONICAL_NAN = 0x7E00;
inline constexpr uint16_t BF16_CANONICAL_NAN = 0x7FC0;
inline constexpr uint32_t FP32_CANONICAL_NAN = 0x7FC00000u;
inline constexpr uint64_t FP64_CANONICAL_NAN = 0x7FF8000000000000u;

/// Exact fp16 -> float (subnormals normalised; NaN quieted, payload kept in the upper bits).
float fp16_to_float(uint16_t h);
/// float -> fp16, round to nearest even; |x| >= 65520 (halfway between 65504 and 2^16) -> ±inf.
uint16_t float_to_fp16(float f);
/// Exact bf16 -> float (the bf16 bits become the upper 16 bits of the fp32).
float bf16_to_float(uint16_t b);
/// float -> bf16, round to nearest even on the 16 dropped bits; overflow -> ±inf.
uint16_t float_to_bf16(float f);

bool fp16_is_nan(uint16_t h);
bool bf16_is_nan(uint16_t b);

/// Bit casts (memcpy based, no aliasing UB).
uint32_t float_bits(float f);
float float_from_bits(uint32_t u);
uint64_t double_bits(double d);
double double_from_bits(uint64_t u);

}  // namespace ndr::golden
