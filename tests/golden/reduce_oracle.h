// Independent wide-precision oracle for the SHARP ALU golden model (models/golden/reduce_op.h,
// float_formats.h). Written separately from the code under test and without calling it:
//   * encoded fp16/bf16/fp32 values are decoded to double by field arithmetic (ldexp);
//   * a sum of two fp16/bf16/fp32 values is carried exactly as a double pair (s, err) from the
//     TwoSum error-free transformation (Knuth), s + err == x + y (no overflow: double's range is
//     far wider than the operands'), and rounded to the target format by `round_pair`: scaling
//     by frexp/ldexp to the format's quantum, explicit round-half-to-even with the sign of err
//     breaking a tie that s alone would hit exactly;
//   * fp64 sums use quad precision (__float128, libgcc soft-float, not the SSE adder under
//     test); the 113 -> 53 bit double rounding of its conversion is innocuous since
//     113 >= 2 * 53 + 2 (Figueroa 1995), and sums of subnormals are exact in quad.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace reduce_oracle {

__extension__ typedef __float128 quad;

struct fmt {
    int ebits;
    int mbits;
};
inline constexpr fmt FP16{5, 10};
inline constexpr fmt BF16{8, 7};
inline constexpr fmt FP32{8, 23};

inline uint64_t sign_bit(fmt f) {
    return uint64_t{1} << (f.ebits + f.mbits);
}
inline uint64_t inf_bits(fmt f) {
    return ((uint64_t{1} << f.ebits) - 1) << f.mbits;
}
inline uint64_t canonical_nan(fmt f) {
    return inf_bits(f) | (uint64_t{1} << (f.mbits - 1));
}
inline bool is_nan(uint64_t b, fmt f) {
    return (b & (sign_bit(f) - 1)) > inf_bits(f);
}
inline bool is_neg(uint64_t b, fmt f) {
    return (b & sign_bit(f)) != 0;
}

/// Exact value of an encoded number (NaN -> quiet double NaN).
inline double decode(uint64_t b, fmt f) {
    const int bias = (1 << (f.ebits - 1)) - 1;
    const uint64_t mmask = (uint64_t{1} << f.mbits) - 1;
    const int ef = static_cast<int>((b >> f.mbits) & ((uint64_t{1} << f.ebits) - 1));
    const uint64_t m = b & mmask;
    double v = 0.0;
    if (ef == (1 << f.ebits) - 1) {
        v = m != 0 ? std::nan("") : HUGE_VAL;
    } else if (ef == 0) {
        v = std::ldexp(static_cast<double>(m), 1 - bias - f.mbits);
    } else {
        v = std::ldexp(static_cast<double>(m | (mmask + 1)), ef - bias - f.mbits);
    }
    return is_neg(b, f) ? -v : v;
}

/// Rounds the exact value s + err to format f, round half to even. Preconditions: s finite and
/// nonzero, s = fl(s + err) in double (|err| <= ulp(s)/2), e.g. from two_sum. Overflow -> inf.
inline uint64_t round_pair(double s, double err, fmt f) {
    const bool neg = std::signbit(s);
    const double mag = std::fabs(s);
    const double err_mag = neg ? -err : err;  // err measured along |s|
    int k = 0;
    (void)std::frexp(mag, &k);  // mag in [2^(k-1), 2^k)
    const int bias = (1 << (f.ebits - 1)) - 1;
    const int emin = 1 - bias;
    const int eq = std::max(k - 1, emin);            // exponent of the quantum's binade
    const double v = std::ldexp(mag, f.mbits - eq);  // |s| in quanta, exact
    const double n = std::floor(v);
    const double frac = v - n;  // exact
    const bool odd = std::fmod(n, 2.0) != 0.0;
    // A non-tie s cannot be moved across a tie point by err: the tie point is itself a double
    // nearer to the exact value than s would be.
    const bool up = frac > 0.5 || (frac == 0.5 && (err_mag > 0.0 || (err_mag == 0.0 && odd)));
    uint64_t bits = (static_cast<uint64_t>(eq - emin) << f.mbits) + static_cast<uint64_t>(n) +
                    (up ? 1u : 0u);  // subnormal/normal and carries fall out of the field sum
    if (bits >= inf_bits(f)) bits = inf_bits(f);
    return (neg ? sign_bit(f) : 0) | bits;
}

/// Rounds a finite or special double to format f (for checking conversions).
inline uint64_t round_double(double d, fmt f) {
    if (std::isnan(d)) return canonical_nan(f);
    if (std::isinf(d)) return (d < 0 ? sign_bit(f) : 0) | inf_bits(f);
    if (d == 0.0) return std::signbit(d) ? sign_bit(f) : 0;
    return round_pair(d, 0.0, f);
}

struct pair {
    double s;
    double err;
};

inline pair two_sum(double x, double y) {
    const double s = x + y;
    const double bb = s - x;
    const double err = (x - (s - bb)) + (y - bb);
    return {s, err};
}

/// IEEE addition of two encoded values, canonical NaN for every NaN result.
inline uint64_t sum(uint64_t a, uint64_t b, fmt f) {
    if (is_nan(a, f) || is_nan(b, f)) return canonical_nan(f);
    const double x = decode(a, f);
    const double y = decode(b, f);
    if (std::isinf(x) && std::isinf(y) && (x > 0) != (y > 0)) return canonical_nan(f);
    if (std::isinf(x)) return a;
    if (std::isinf(y)) return b;
    const pair p = two_sum(x, y);
    if (p.s == 0.0 && p.err == 0.0) {
        // Exact zero: under round-to-nearest it is -0 only for (-0) + (-0).
        return (is_neg(a, f) && is_neg(b, f)) ? sign_bit(f) : 0;
    }
    return round_pair(p.s, p.err, f);
}

inline double f64(uint64_t b) {
    double d = 0.0;
    std::memcpy(&d, &b, sizeof d);
    return d;
}

inline uint64_t bits64(double d) {
    uint64_t b = 0;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

inline constexpr uint64_t FP64_QNAN = 0x7FF8000000000000u;

/// fp64 addition via quad precision, canonical NaN.
inline uint64_t sum64(uint64_t a, uint64_t b) {
    const double x = f64(a);
    const double y = f64(b);
    if (std::isnan(x) || std::isnan(y)) return FP64_QNAN;
    if (std::isinf(x) && std::isinf(y) && (x > 0) != (y > 0)) return FP64_QNAN;
    if (x == 0.0 && y == 0.0) return (std::signbit(x) && std::signbit(y)) ? bits64(-0.0) : 0;
    const quad q = static_cast<quad>(x) + static_cast<quad>(y);
    if (q == 0) return 0;  // x == -y: +0 under round-to-nearest
    return bits64(static_cast<double>(q));
}

}  // namespace reduce_oracle
