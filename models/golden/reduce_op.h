// Golden reduction arithmetic of the SHARP aggregation ALU (docs/domain.md §7), SystemC-free.
// One source of truth for the bits a switch aggregation node produces; the cycle/TLM models and
// the RTL checks call it. Operations and types follow docs/domain.md §7 (UCC tl_sharp, SHARP docs);
// the switch's summation order and rounding are not documented, so every rule below is an
// ndrsim *choice*, stated here and checked in tests/golden/reduce_op_test.cpp against an
// independent wide-precision oracle.
//
// Element storage: little-endian, packed, `red_elem_size(op, type)` bytes per element.
//   * Integers: two's complement.  * fp16/bf16: see golden/float_formats.h.  * fp32/fp64: IEEE.
//   * minloc/maxloc: a (value, index) pair of red_type_size(type) + 4 bytes, no padding: the
//     value (in the dtype) at offset 0, followed by a uint32 index (little-endian) at offset
//     red_type_size(type). E.g. fp64 minloc = 12-byte elements, int8 minloc = 5-byte elements.
//     (Unlike MPI_DOUBLE_INT there is no alignment padding.)
//
// Semantics of one pairwise step r = a op b (acc = acc op in):
//   sum     Integers wrap modulo 2^bits (two's complement, no saturation, no trap).
//           fp32/fp64: one IEEE 754 addition, round to nearest even, computed with C++ float /
//           double arithmetic. On x86-64 this is SSE2 scalar code (FLT_EVAL_METHOD 0, checked by
//           a static_assert): no x87 excess precision, so neither `volatile` nor -ffloat-store is
//           needed; there is no multiply, so FMA contraction cannot occur. Subnormals are kept
//           (ndrsim is never built with -ffast-math / FTZ / DAZ).
//           fp16/bf16: both operands are converted exactly to float, added in float (one RNE
//           rounding to 24 bits), and the float result is rounded to the 16-bit format (RNE) at
//           every pairwise step. The float sum is not always exact (fp16 operands can span 40
//           bits), but the double rounding is innocuous: float has p' = 24 >= 2p + 2 bits for
//           fp16 (p = 11, 24 >= 24) and bf16 (p = 8, 24 >= 18), which by Figueroa's theorem
//           (S. A. Figueroa, "When is double rounding innocuous?", SIGNUM Newsl. 30(3), 1995)
//           makes the result identical to a single RNE rounding of the exact sum. Verified
//           exhaustively over all 2^32 fp16 pairs and all 2^32 bf16 pairs against an exact
//           oracle during development; the unit tests re-check random and special pairs.
//   min/max Integers: signed or unsigned compare by dtype.
//           Floats: IEEE 754-2019 minimum / maximum: a NaN operand gives NaN; -0 < +0, so
//           min(-0, +0) = -0 and max(-0, +0) = +0 in either operand order; otherwise the
//           smaller/larger operand is returned bit-for-bit (subnormals and infinities as-is).
//   band/bor/bxor  Bitwise on the integer bits.
//   land/lor/lxor  Logical: each operand is true iff nonzero; the result is 1 or 0 in the dtype.
//   minloc/maxloc  On the value: the min/max rules above (floats: NaN wins, -0 < +0); the index
//           travels with the selected value. Equal values (identical bits) -> the lower index.
//           A NaN value -> canonical NaN with the NaN operand's index (both NaN: lower index).
// NaN results: every NaN a float step produces (NaN operand, inf - inf) is replaced by the
//   canonical quiet NaN of the format (FP16_CANONICAL_NAN etc. in float_formats.h: positive,
//   quiet bit only), so results do not depend on the host's NaN payload propagation.
// Infinities follow IEEE (inf + -inf = NaN -> canonical NaN; finite overflow -> ±inf).
// Supported: sum/min/max/minloc/maxloc on every dtype; bitwise and logical ops on the integer
//   dtypes only (see supported()).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ndr::golden {

enum class red_op : uint8_t { sum, min, max, band, bor, bxor, land, lor, lxor, minloc, maxloc };

enum class red_type : uint8_t {
    int8,
    uint8,
    int16,
    uint16,
    int32,
    uint32,
    int64,
    uint64,
    fp16,
    bf16,
    fp32,
    fp64
};

inline constexpr std::array<red_op, 11> ALL_RED_OPS = {
    red_op::sum,  red_op::min, red_op::max,  red_op::band,   red_op::bor,   red_op::bxor,
    red_op::land, red_op::lor, red_op::lxor, red_op::minloc, red_op::maxloc};

inline constexpr std::array<red_type, 12> ALL_RED_TYPES = {
    red_type::int8,  red_type::uint8,  red_type::int16, red_type::uint16,
    red_type::int32, red_type::uint32, red_type::int64, red_type::uint64,
    red_type::fp16,  red_type::bf16,   red_type::fp32,  red_type::fp64};

inline constexpr size_t RED_LOC_INDEX_SIZE = 4;  ///< bytes of the uint32 index of minloc/maxloc

/// Lower-case names: "sum" "min" "max" "band" "bor" "bxor" "land" "lor" "lxor" "minloc" "maxloc".
const char* red_op_name(red_op op);
/// "int8" "uint8" "int16" "uint16" "int32" "uint32" "int64" "uint64" "fp16" "bf16" "fp32" "fp64".
const char* red_type_name(red_type type);
/// Inverse of red_op_name / red_type_name (exact, case-sensitive match); throws
/// std::invalid_argument naming the bad string and the accepted names.
red_op parse_red_op(std::string_view name);
red_type parse_red_type(std::string_view name);

/// Bytes of one value of `type` (1, 2, 4 or 8).
size_t red_type_size(red_type type);
/// Bytes of one buffer element for `op` on `type`: red_type_size(type), plus
/// RED_LOC_INDEX_SIZE for minloc/maxloc.
size_t red_elem_size(red_op op, red_type type);
bool is_float_type(red_type type);   ///< fp16, bf16, fp32, fp64
bool is_signed_type(red_type type);  ///< signed integers and the float types
bool is_loc_op(red_op op);           ///< minloc, maxloc

/// Whether the ALU implements `op` on `type`: bitwise and logical ops only on integer types,
/// everything else on every type.
bool supported(red_op op, red_type type);

/// acc[i] = acc[i] op in[i] for i < count (elements of red_elem_size(op, type) bytes).
/// `acc` may equal `in` (no other overlap). Throws std::invalid_argument if !supported(op, type).
void reduce_elementwise(red_op op, red_type type, uint8_t* acc, const uint8_t* in, size_t count);

/// Reduction order of one aggregation node (choice): a left fold in child order,
///   out = (((x0 op x1) op x2) ... op x(n-1)),   x_k = inputs[k],
/// i.e. out = copy of x0, then reduce_elementwise(out, x_k) for k = 1 .. n-1, with the 16-bit
/// float formats rounded after every step. The switch passes its children in port order.
/// A single input is copied unchanged (no op applied: no NaN canonicalisation, no logical 0/1
/// normalisation). `out` may equal inputs[0] but must not overlap any other input. Throws
/// std::invalid_argument for an empty `inputs` or an unsupported (op, type).
void reduce_tree(red_op op, red_type type, const std::vector<const uint8_t*>& inputs, uint8_t* out,
                 size_t count);

}  // namespace ndr::golden
