// SHARP ALU reduction arithmetic, see reduce_op.h for the semantics. The (op, type) dispatch is
// done once per call; the per-element loops are templates over a dtype trait.
#include "golden/reduce_op.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "golden/float_formats.h"

// fp32/fp64 sums must be single IEEE roundings, not x87 extended-precision evaluations.
static_assert(FLT_EVAL_METHOD == 0, "golden ALU needs float/double evaluated in their own type");
static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "golden ALU needs IEEE 754 float and double");

namespace ndr::golden {

namespace {

constexpr std::array<const char*, 11> OP_NAMES = {"sum",  "min", "max",  "band",   "bor",   "bxor",
                                                  "land", "lor", "lxor", "minloc", "maxloc"};
constexpr std::array<const char*, 12> TYPE_NAMES = {"int8",  "uint8",  "int16", "uint16",
                                                    "int32", "uint32", "int64", "uint64",
                                                    "fp16",  "bf16",   "fp32",  "fp64"};

template <typename U>
U load_le(const uint8_t* p) {
    U v = 0;
    for (size_t i = 0; i < sizeof(U); ++i)
        v = static_cast<U>(v | (static_cast<U>(p[i]) << (8 * i)));
    return v;
}

template <typename U>
void store_le(uint8_t* p, U v) {
    for (size_t i = 0; i < sizeof(U); ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// ---- dtype traits: `bits` is the stored unsigned word -------------------------------------

template <typename S>  // S: the C++ integer type of the dtype
struct int_trait {
    using bits = std::make_unsigned_t<S>;
    static constexpr bool is_float = false;
    static S value(bits b) { return static_cast<S>(b); }  // two's complement (GCC: modular)
    static bits add(bits a, bits b) { return static_cast<bits>(a + b); }  // wraps mod 2^N
};

struct fp32_trait {
    using bits = uint32_t;
    static constexpr bool is_float = true;
    static float value(bits b) { return float_from_bits(b); }
    static bool is_nan(bits b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; }
    static bool sign(bits b) { return (b >> 31) != 0; }
    static bits canonical_nan() { return FP32_CANONICAL_NAN; }
    static bits add(bits a, bits b) {
        const float r = float_from_bits(a) + float_from_bits(b);
        return std::isnan(r) ? FP32_CANONICAL_NAN : float_bits(r);
    }
};

struct fp64_trait {
    using bits = uint64_t;
    static constexpr bool is_float = true;
    static double value(bits b) { return double_from_bits(b); }
    static bool is_nan(bits b) { return (b & 0x7FFFFFFFFFFFFFFFu) > 0x7FF0000000000000u; }
    static bool sign(bits b) { return (b >> 63) != 0; }
    static bits canonical_nan() { return FP64_CANONICAL_NAN; }
    static bits add(bits a, bits b) {
        const double r = double_from_bits(a) + double_from_bits(b);
        return std::isnan(r) ? FP64_CANONICAL_NAN : double_bits(r);
    }
};

struct fp16_trait {
    using bits = uint16_t;
    static constexpr bool is_float = true;
    static float value(bits b) { return fp16_to_float(b); }
    static bool is_nan(bits b) { return fp16_is_nan(b); }
    static bool sign(bits b) { return (b >> 15) != 0; }
    static bits canonical_nan() { return FP16_CANONICAL_NAN; }
    static bits add(bits a, bits b) {
        // Float intermediate + RNE to fp16 equals one rounding of the exact sum (reduce_op.h).
        const float r = fp16_to_float(a) + fp16_to_float(b);
        return std::isnan(r) ? FP16_CANONICAL_NAN : float_to_fp16(r);
    }
};

struct bf16_trait {
    using bits = uint16_t;
    static constexpr bool is_float = true;
    static float value(bits b) { return bf16_to_float(b); }
    static bool is_nan(bits b) { return bf16_is_nan(b); }
    static bool sign(bits b) { return (b >> 15) != 0; }
    static bits canonical_nan() { return BF16_CANONICAL_NAN; }
    static bits add(bits a, bits b) {
        const float r = bf16_to_float(a) + bf16_to_float(b);
        return std::isnan(r) ? BF16_CANONICAL_NAN : float_to_bf16(r);
    }
};

// ---- comparison shared by min/max/minloc/maxloc --------------------------------------------

enum class pick { a, b, equal, nan };

/// Which operand min (want_max = false) or max selects: IEEE 754-2019 minimum/maximum order
/// (NaN propagates, -0 < +0); `equal` means identical values (identical bits).
template <typename T, bool want_max>
pick choose(typename T::bits a, typename T::bits b) {
    if constexpr (T::is_float) {
        if (T::is_nan(a) || T::is_nan(b)) return pick::nan;
    }
    const auto x = T::value(a);
    const auto y = T::value(b);
    if (x < y) return want_max ? pick::b : pick::a;
    if (y < x) return want_max ? pick::a : pick::b;
    if constexpr (T::is_float) {
        if (T::sign(a) != T::sign(b)) {  // -0 vs +0
            return (T::sign(a) != want_max) ? pick::a : pick::b;
        }
    }
    return pick::equal;
}

// ---- per-op element kernels ------------------------------------------------------------------

template <typename T, typename F>
void map_values(uint8_t* acc, const uint8_t* in, size_t count, F f) {
    using bits = typename T::bits;
    constexpr size_t sz = sizeof(bits);
    for (size_t i = 0; i < count; ++i) {
        const bits a = load_le<bits>(acc + i * sz);
        const bits b = load_le<bits>(in + i * sz);
        store_le<bits>(acc + i * sz, f(a, b));
    }
}

template <typename T, bool want_max>
void minmax(uint8_t* acc, const uint8_t* in, size_t count) {
    using bits = typename T::bits;
    map_values<T>(acc, in, count, [](bits a, bits b) -> bits {
        switch (choose<T, want_max>(a, b)) {
            case pick::b:
                return b;
            case pick::nan:
                if constexpr (T::is_float) return T::canonical_nan();
                return a;  // unreachable for integers
            default:
                return a;
        }
    });
}

template <typename T, bool want_max>
void minmaxloc(uint8_t* acc, const uint8_t* in, size_t count) {
    using bits = typename T::bits;
    constexpr size_t vsz = sizeof(bits);
    constexpr size_t esz = vsz + RED_LOC_INDEX_SIZE;
    for (size_t i = 0; i < count; ++i) {
        uint8_t* pa = acc + i * esz;
        const uint8_t* pb = in + i * esz;
        const bits a = load_le<bits>(pa);
        const bits b = load_le<bits>(pb);
        const uint32_t ia = load_le<uint32_t>(pa + vsz);
        const uint32_t ib = load_le<uint32_t>(pb + vsz);
        bits v = a;
        uint32_t idx = ia;
        switch (choose<T, want_max>(a, b)) {
            case pick::a:
                break;
            case pick::b:
                v = b;
                idx = ib;
                break;
            case pick::equal:
                idx = ia < ib ? ia : ib;
                break;
            case pick::nan:
                if constexpr (T::is_float) {
                    v = T::canonical_nan();
                    const bool na = T::is_nan(a);
                    const bool nb = T::is_nan(b);
                    idx = (na && nb) ? (ia < ib ? ia : ib) : (na ? ia : ib);
                }
                break;
        }
        store_le<bits>(pa, v);
        store_le<uint32_t>(pa + vsz, idx);
    }
}

template <typename T>
void run(red_op op, uint8_t* acc, const uint8_t* in, size_t count) {
    using bits = typename T::bits;
    switch (op) {
        case red_op::sum:
            map_values<T>(acc, in, count, [](bits a, bits b) { return T::add(a, b); });
            return;
        case red_op::min:
            minmax<T, false>(acc, in, count);
            return;
        case red_op::max:
            minmax<T, true>(acc, in, count);
            return;
        case red_op::minloc:
            minmaxloc<T, false>(acc, in, count);
            return;
        case red_op::maxloc:
            minmaxloc<T, true>(acc, in, count);
            return;
        default:
            break;
    }
    if constexpr (!T::is_float) {
        switch (op) {
            case red_op::band:
                map_values<T>(acc, in, count,
                              [](bits a, bits b) { return static_cast<bits>(a & b); });
                return;
            case red_op::bor:
                map_values<T>(acc, in, count,
                              [](bits a, bits b) { return static_cast<bits>(a | b); });
                return;
            case red_op::bxor:
                map_values<T>(acc, in, count,
                              [](bits a, bits b) { return static_cast<bits>(a ^ b); });
                return;
            case red_op::land:
                map_values<T>(acc, in, count,
                              [](bits a, bits b) { return static_cast<bits>(a != 0 && b != 0); });
                return;
            case red_op::lor:
                map_values<T>(acc, in, count,
                              [](bits a, bits b) { return static_cast<bits>(a != 0 || b != 0); });
                return;
            case red_op::lxor:
                map_values<T>(acc, in, count, [](bits a, bits b) {
                    return static_cast<bits>((a != 0) != (b != 0));
                });
                return;
            default:
                break;
        }
    }
    // Unreachable: callers check supported() first.
    throw std::logic_error("reduce_op: unhandled op");
}

[[noreturn]] void throw_unsupported(red_op op, red_type type) {
    throw std::invalid_argument(std::string("reduce_op: ") + red_op_name(op) +
                                " is not supported on " + red_type_name(type));
}

}  // namespace

const char* red_op_name(red_op op) {
    const auto i = static_cast<size_t>(op);
    return i < OP_NAMES.size() ? OP_NAMES[i] : "?";
}

const char* red_type_name(red_type type) {
    const auto i = static_cast<size_t>(type);
    return i < TYPE_NAMES.size() ? TYPE_NAMES[i] : "?";
}

red_op parse_red_op(std::string_view name) {
    for (red_op op : ALL_RED_OPS) {
        if (name == red_op_name(op)) return op;
    }
    throw std::invalid_argument("unknown reduction op '" + std::string(name) +
                                "' (expected sum, min, max, band, bor, bxor, land, lor, lxor, "
                                "minloc or maxloc)");
}

red_type parse_red_type(std::string_view name) {
    for (red_type t : ALL_RED_TYPES) {
        if (name == red_type_name(t)) return t;
    }
    throw std::invalid_argument("unknown reduction type '" + std::string(name) +
                                "' (expected int8, uint8, int16, uint16, int32, uint32, int64, "
                                "uint64, fp16, bf16, fp32 or fp64)");
}

size_t red_type_size(red_type type) {
    switch (type) {
        case red_type::int8:
        case red_type::uint8:
            return 1;
        case red_type::int16:
        case red_type::uint16:
        case red_type::fp16:
        case red_type::bf16:
            return 2;
        case red_type::int32:
        case red_type::uint32:
        case red_type::fp32:
            return 4;
        case red_type::int64:
        case red_type::uint64:
        case red_type::fp64:
            return 8;
    }
    throw std::invalid_argument("red_type_size: bad red_type");
}

size_t red_elem_size(red_op op, red_type type) {
    return red_type_size(type) + (is_loc_op(op) ? RED_LOC_INDEX_SIZE : 0);
}

bool is_float_type(red_type type) {
    return type == red_type::fp16 || type == red_type::bf16 || type == red_type::fp32 ||
           type == red_type::fp64;
}

bool is_signed_type(red_type type) {
    return type == red_type::int8 || type == red_type::int16 || type == red_type::int32 ||
           type == red_type::int64 || is_float_type(type);
}

bool is_loc_op(red_op op) {
    return op == red_op::minloc || op == red_op::maxloc;
}

bool supported(red_op op, red_type type) {
    if (static_cast<size_t>(op) >= ALL_RED_OPS.size() ||
        static_cast<size_t>(type) >= ALL_RED_TYPES.size()) {
        return false;
    }
    switch (op) {
        case red_op::band:
        case red_op::bor:
        case red_op::bxor:
        case red_op::land:
        case red_op::lor:
        case red_op::lxor:
            return !is_float_type(type);
        default:
            return true;
    }
}

void reduce_elementwise(red_op op, red_type type, uint8_t* acc, const uint8_t* in, size_t count) {
    if (!supported(op, type)) throw_unsupported(op, type);
    if (count == 0) return;
    switch (type) {
        case red_type::int8:
            run<int_trait<int8_t>>(op, acc, in, count);
            return;
        case red_type::uint8:
            run<int_trait<uint8_t>>(op, acc, in, count);
            return;
        case red_type::int16:
            run<int_trait<int16_t>>(op, acc, in, count);
            return;
        case red_type::uint16:
            run<int_trait<uint16_t>>(op, acc, in, count);
            return;
        case red_type::int32:
            run<int_trait<int32_t>>(op, acc, in, count);
            return;
        case red_type::uint32:
            run<int_trait<uint32_t>>(op, acc, in, count);
            return;
        case red_type::int64:
            run<int_trait<int64_t>>(op, acc, in, count);
            return;
        case red_type::uint64:
            run<int_trait<uint64_t>>(op, acc, in, count);
            return;
        case red_type::fp16:
            run<fp16_trait>(op, acc, in, count);
            return;
        case red_type::bf16:
            run<bf16_trait>(op, acc, in, count);
            return;
        case red_type::fp32:
            run<fp32_trait>(op, acc, in, count);
            return;
        case red_type::fp64:
            run<fp64_trait>(op, acc, in, count);
            return;
    }
}

void reduce_tree(red_op op, red_type type, const std::vector<const uint8_t*>& inputs, uint8_t* out,
                 size_t count) {
    if (!supported(op, type)) throw_unsupported(op, type);
    if (inputs.empty()) throw std::invalid_argument("reduce_tree: no inputs");
    if (count == 0) return;
    const size_t bytes = count * red_elem_size(op, type);
    if (out != inputs[0]) std::memmove(out, inputs[0], bytes);
    for (size_t k = 1; k < inputs.size(); ++k) reduce_elementwise(op, type, out, inputs[k], count);
}

}  // namespace ndr::golden
