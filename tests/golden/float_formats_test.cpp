// fp16 / bf16 conversions (models/golden/float_formats.h): hand-computed bit patterns, and
// exhaustive / random checks against the independent oracle in reduce_oracle.h.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>

#include "golden/float_formats.h"
#include "reduce_oracle.h"

namespace g = ndr::golden;
namespace o = reduce_oracle;

namespace {

float fb(uint32_t u) {
    return g::float_from_bits(u);
}

}  // namespace

TEST_CASE("fp16 hand-computed bit patterns", "[reduce][fp16]") {
    CHECK(g::float_to_fp16(1.0f) == 0x3C00);
    CHECK(g::float_to_fp16(-2.0f) == 0xC000);
    CHECK(g::float_to_fp16(0.5f) == 0x3800);
    CHECK(g::float_to_fp16(65504.0f) == 0x7BFF);                  // max finite
    CHECK(g::float_to_fp16(std::ldexp(1.0f, -14)) == 0x0400);     // min normal
    CHECK(g::float_to_fp16(std::ldexp(1.0f, -24)) == 0x0001);     // min subnormal
    CHECK(g::float_to_fp16(std::ldexp(1023.0f, -24)) == 0x03FF);  // max subnormal
    CHECK(g::float_to_fp16(0.0f) == 0x0000);
    CHECK(g::float_to_fp16(-0.0f) == 0x8000);
    CHECK(g::float_to_fp16(HUGE_VALF) == 0x7C00);
    CHECK(g::float_to_fp16(-HUGE_VALF) == 0xFC00);
    CHECK(g::float_to_fp16(1.0f / 3.0f) == 0x3555);
    // Rounding: ties to even.
    CHECK(g::float_to_fp16(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);      // tie -> even (down)
    CHECK(g::float_to_fp16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3C02);  // tie -> even (up)
    CHECK(g::float_to_fp16(fb(0x3F801001u)) == 0x3C01);                   // just above tie
    CHECK(g::float_to_fp16(65519.0f) == 0x7BFF);
    CHECK(g::float_to_fp16(65520.0f) == 0x7C00);  // tie between 65504 and 2^16 -> even -> inf
    CHECK(g::float_to_fp16(1e6f) == 0x7C00);
    CHECK(g::float_to_fp16(std::ldexp(1.0f, -25)) == 0x0000);  // tie between 0 and 2^-24 -> 0
    CHECK(g::float_to_fp16(-std::ldexp(1.0f, -25)) == 0x8000);
    CHECK(g::float_to_fp16(std::ldexp(3.0f, -25)) == 0x0002);  // 1.5 quanta -> 2 (even)
    CHECK(g::float_to_fp16(std::nextafter(std::ldexp(1.0f, -25), 1.0f)) == 0x0001);
    CHECK(g::float_to_fp16(std::ldexp(2047.0f, -25)) == 0x0400);  // 1023.5 quanta -> min normal
    CHECK(g::float_to_fp16(fb(0x00000001u)) == 0x0000);           // fp32 subnormal
    // NaN: quiet, sign and upper payload kept.
    CHECK(g::float_to_fp16(fb(0x7FC00000u)) == 0x7E00);
    CHECK(g::float_to_fp16(fb(0xFFC00000u)) == 0xFE00);
    CHECK(g::float_to_fp16(fb(0x7F800001u)) == 0x7E00);  // sNaN, payload below fp16 precision
    CHECK(g::float_to_fp16(fb(0x7FA00000u)) == 0x7F00);

    CHECK(g::fp16_to_float(0x3C00) == 1.0f);
    CHECK(g::fp16_to_float(0x7BFF) == 65504.0f);
    CHECK(g::fp16_to_float(0x0001) == std::ldexp(1.0f, -24));
    CHECK(g::fp16_to_float(0x0400) == std::ldexp(1.0f, -14));
    CHECK(g::fp16_to_float(0x03FF) == std::ldexp(1023.0f, -24));
    CHECK(g::float_bits(g::fp16_to_float(0x8000)) == 0x80000000u);
    CHECK(g::float_bits(g::fp16_to_float(0x7C00)) == 0x7F800000u);
    CHECK(g::float_bits(g::fp16_to_float(0xFC00)) == 0xFF800000u);
    CHECK(g::float_bits(g::fp16_to_float(0x7E00)) == 0x7FC00000u);
    CHECK(g::float_bits(g::fp16_to_float(0x7C01)) == 0x7FC02000u);  // sNaN quieted
    CHECK(g::fp16_is_nan(0x7C01));
    CHECK(g::fp16_is_nan(0xFE00));
    CHECK_FALSE(g::fp16_is_nan(0x7C00));
}

TEST_CASE("bf16 hand-computed bit patterns", "[reduce][bf16]") {
    CHECK(g::float_to_bf16(1.0f) == 0x3F80);
    CHECK(g::float_to_bf16(-1.0f) == 0xBF80);
    CHECK(g::float_to_bf16(fb(0x3F808000u)) == 0x3F80);  // tie -> even (down)
    CHECK(g::float_to_bf16(fb(0x3F818000u)) == 0x3F82);  // tie -> even (up)
    CHECK(g::float_to_bf16(fb(0x3F808001u)) == 0x3F81);
    CHECK(g::float_to_bf16(fb(0x3F807FFFu)) == 0x3F80);
    CHECK(g::float_to_bf16(fb(0x7F7F7FFFu)) == 0x7F7F);  // rounds to max finite
    CHECK(g::float_to_bf16(fb(0x7F7F8000u)) == 0x7F80);  // tie, odd max -> inf
    CHECK(g::float_to_bf16(fb(0x7F7FFFFFu)) == 0x7F80);  // fp32 max -> inf
    CHECK(g::float_to_bf16(fb(0xFF7FFFFFu)) == 0xFF80);
    CHECK(g::float_to_bf16(fb(0x00008000u)) == 0x0000);  // subnormal tie -> even 0
    CHECK(g::float_to_bf16(fb(0x00018000u)) == 0x0002);  // subnormal tie -> even up
    CHECK(g::float_to_bf16(fb(0x00000001u)) == 0x0000);
    CHECK(g::float_to_bf16(fb(0x007FFFFFu)) == 0x0080);  // max fp32 subnormal -> min normal
    CHECK(g::float_to_bf16(-0.0f) == 0x8000);
    CHECK(g::float_to_bf16(HUGE_VALF) == 0x7F80);
    CHECK(g::float_to_bf16(fb(0x7FC00000u)) == 0x7FC0);
    CHECK(g::float_to_bf16(fb(0x7F800001u)) == 0x7FC0);  // sNaN quieted, never becomes inf
    CHECK(g::float_to_bf16(fb(0xFF810000u)) == 0xFFC1);
    CHECK(g::bf16_to_float(0x3F80) == 1.0f);
    CHECK(g::float_bits(g::bf16_to_float(0x0001)) == 0x00010000u);
    CHECK(g::bf16_is_nan(0x7F81));
    CHECK_FALSE(g::bf16_is_nan(0xFF80));
}

TEST_CASE("fp16 and bf16 to float are exact for all 65536 encodings", "[reduce][fp16][bf16]") {
    for (uint32_t h = 0; h < 0x10000u; ++h) {
        const auto h16 = static_cast<uint16_t>(h);
        for (const o::fmt f : {o::FP16, o::BF16}) {
            const bool is16 = f.ebits == 5;
            const float got = is16 ? g::fp16_to_float(h16) : g::bf16_to_float(h16);
            const double want = o::decode(h, f);
            INFO("fmt " << (is16 ? "fp16" : "bf16") << " bits " << h);
            if (std::isnan(want)) {
                REQUIRE(std::isnan(got));
                REQUIRE((is16 ? g::fp16_is_nan(h16) : g::bf16_is_nan(h16)));
                REQUIRE(std::signbit(got) == o::is_neg(h, f));
                // quieted NaN converts back to a NaN with the same sign and quiet bit set
                const uint16_t back = is16 ? g::float_to_fp16(got) : g::float_to_bf16(got);
                REQUIRE(back == static_cast<uint16_t>(h | (o::canonical_nan(f) & ~o::inf_bits(f))));
            } else {
                REQUIRE(static_cast<double>(got) == want);
                REQUIRE(std::signbit(got) == std::signbit(want));
                const uint16_t back = is16 ? g::float_to_fp16(got) : g::float_to_bf16(got);
                REQUIRE(back == h16);  // round trip
            }
        }
    }
}

TEST_CASE("float to fp16/bf16 rounding matches the oracle on random floats",
          "[reduce][fp16][bf16]") {
    std::mt19937_64 rng(0x5AA5F00Du);
    size_t bad = 0;
    size_t checked = 0;
    auto check = [&](uint32_t u) {
        const float x = g::float_from_bits(u);
        const uint16_t h = g::float_to_fp16(x);
        const uint16_t b = g::float_to_bf16(x);
        ++checked;
        bool ok = true;
        if (std::isnan(x)) {
            ok = g::fp16_is_nan(h) && g::bf16_is_nan(b);
        } else {
            const double d = static_cast<double>(x);
            ok = h == o::round_double(d, o::FP16) && b == o::round_double(d, o::BF16);
        }
        if (!ok && bad++ < 5) {
            FAIL_CHECK("float bits " << u << " -> fp16 " << h << " bf16 " << b << ", oracle fp16 "
                                     << o::round_double(static_cast<double>(x), o::FP16) << " bf16 "
                                     << o::round_double(static_cast<double>(x), o::BF16));
        }
    };
    for (int i = 0; i < 400000; ++i) {
        const auto r = static_cast<uint32_t>(rng());
        check(r);  // any pattern
        // exponent field 100..145 covers the fp16 subnormal, normal and overflow ranges
        const uint32_t e = 100u + static_cast<uint32_t>(rng() % 46u);
        check((r & 0x807FFFFFu) | (e << 23));
        // low bits at an exact tie or one ulp either side of it, for each format
        const uint32_t low13 = 0x1000u + static_cast<uint32_t>(rng() % 3u) - 1u;
        check((r & 0x807FE000u) | (e << 23) | low13);
        const uint32_t low16 = 0x8000u + static_cast<uint32_t>(rng() % 3u) - 1u;
        check((r & 0xFFFF0000u) | low16);
    }
    // every float whose low 13 bits are a tie, across the whole fp16 range (exponent 100..145)
    for (uint32_t e = 100; e <= 145; ++e) {
        for (uint32_t hi = 0; hi < 0x400u; ++hi) check((e << 23) | (hi << 13) | 0x1000u);
    }
    CHECK(bad == 0);
    CHECK(checked > 1600000);
}
