// fp16 / bf16 <-> float conversions, see float_formats.h. Pure integer bit manipulation: the
// result does not depend on the host FPU's rounding mode or flush-to-zero settings.
#include "golden/float_formats.h"

#include <cstring>

namespace ndr::golden {

uint32_t float_bits(float f) {
    uint32_t u = 0;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

float float_from_bits(uint32_t u) {
    float f = 0.0f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

uint64_t double_bits(double d) {
    uint64_t u = 0;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

double double_from_bits(uint64_t u) {
    double d = 0.0;
    std::memcpy(&d, &u, sizeof d);
    return d;
}

bool fp16_is_nan(uint16_t h) {
    return (h & 0x7FFFu) > 0x7C00u;
}

bool bf16_is_nan(uint16_t b) {
    return (b & 0x7FFFu) > 0x7F80u;
}

float fp16_to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t frac = h & 0x3FFu;
    uint32_t bits = 0;
    if (exp == 0x1Fu) {
        // inf (frac 0) or NaN: keep the payload, set the quiet bit for NaN.
        bits = sign | 0x7F800000u | (frac << 13) | (frac != 0 ? 0x00400000u : 0u);
    } else if (exp != 0) {
        bits = sign | ((exp + 112u) << 23) | (frac << 13);  // rebias 15 -> 127
    } else if (frac == 0) {
        bits = sign;  // ±0
    } else {
        // Subnormal frac * 2^-24: shift the leading one up to bit 10 (s shifts, 1..10); the value
        // is then 1.f * 2^(-14 - s), fp32 exponent field 127 - 14 - s.
        uint32_t s = 0;
        while ((frac & 0x400u) == 0) {
            frac <<= 1;
            ++s;
        }
        bits = sign | ((113u - s) << 23) | ((frac & 0x3FFu) << 13);
    }
    return float_from_bits(bits);
}

uint16_t float_to_fp16(float f) {
    const uint32_t x = float_bits(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t ax = x & 0x7FFFFFFFu;
    uint32_t h = 0;
    if (ax > 0x7F800000u) {
        h = 0x7E00u | ((ax >> 13) & 0x3FFu);  // NaN: quiet, upper payload bits kept
    } else if (ax >= 0x477FF000u) {
        h = 0x7C00u;  // >= 65520 (65504 + half an ulp; the tie rounds to even = 2^16): inf
    } else if (ax >= 0x38800000u) {
        // Normal fp16 (>= 2^-14): rebias 127 -> 15 and round the 13 dropped bits to nearest even;
        // a carry out of the fraction correctly bumps the exponent (at most to 0x7BFF + 1 ulp
        // below the inf threshold handled above).
        const uint32_t r = ax - (112u << 23);
        h = (r + 0x0FFFu + ((r >> 13) & 1u)) >> 13;
    } else {
        const uint32_t fexp = ax >> 23;  // fp32 exponent field, < 113
        // Value = m * 2^(fexp - 150) with the implicit bit; in units of the fp16 quantum 2^-24
        // that is m >> (126 - fexp). Shifts >= 25 leave < 0.5 units: rounds to zero (this also
        // covers fp32 zeros and subnormals).
        const uint32_t shift = 126u - fexp;
        if (fexp != 0 && shift < 25u) {
            const uint32_t m = (ax & 0x7FFFFFu) | 0x800000u;
            uint32_t q = m >> shift;
            const uint32_t rem = m & ((1u << shift) - 1u);
            const uint32_t half = 1u << (shift - 1u);
            if (rem > half || (rem == half && (q & 1u) != 0)) ++q;  // may reach 0x400 = 2^-14
            h = q;
        }
    }
    return static_cast<uint16_t>(sign | h);
}

float bf16_to_float(uint16_t b) {
    return float_from_bits(static_cast<uint32_t>(b) << 16);
}

uint16_t float_to_bf16(float f) {
    const uint32_t x = float_bits(f);
    if ((x & 0x7FFFFFFFu) > 0x7F800000u) {
        return static_cast<uint16_t>((x >> 16) | 0x0040u);  // NaN: quiet, sign + payload kept
    }
    // Round to nearest even on the low 16 bits; overflow carries into the exponent up to inf.
    return static_cast<uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

}  // namespace ndr::golden
