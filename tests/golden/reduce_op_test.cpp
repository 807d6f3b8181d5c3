// SHARP ALU golden reduction (models/golden/reduce_op.h): names, sizes, support table, special
// values, the fixed tree order, and seeded random vectors for every supported op x dtype checked
// against the independent reference in reduce_oracle.h (wide-precision sums with explicit
// rounding; integer and comparison semantics re-derived on 64-bit words).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "golden/float_formats.h"
#include "golden/reduce_op.h"
#include "reduce_oracle.h"

namespace g = ndr::golden;
namespace o = reduce_oracle;
using g::red_op;
using g::red_type;

namespace {

// ---- element encoding (independent of the library's loaders) -------------------------------

size_t vsize(red_type t) {
    switch (t) {
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
        default:
            return 8;
    }
}

bool is_loc(red_op op) {
    return op == red_op::minloc || op == red_op::maxloc;
}
size_t esize(red_op op, red_type t) {
    return vsize(t) + (is_loc(op) ? 4 : 0);
}

struct elem {
    uint64_t v = 0;
    uint32_t idx = 0;
    bool operator==(const elem& e) const { return v == e.v && idx == e.idx; }
};

void put(std::vector<uint8_t>& buf, size_t i, red_op op, red_type t, elem e) {
    uint8_t* p = buf.data() + i * esize(op, t);
    for (size_t b = 0; b < vsize(t); ++b) p[b] = static_cast<uint8_t>(e.v >> (8 * b));
    if (is_loc(op)) {
        for (size_t b = 0; b < 4; ++b) p[vsize(t) + b] = static_cast<uint8_t>(e.idx >> (8 * b));
    }
}

elem get(const std::vector<uint8_t>& buf, size_t i, red_op op, red_type t) {
    const uint8_t* p = buf.data() + i * esize(op, t);
    elem e;
    for (size_t b = 0; b < vsize(t); ++b) e.v |= static_cast<uint64_t>(p[b]) << (8 * b);
    if (is_loc(op)) {
        for (size_t b = 0; b < 4; ++b) e.idx |= static_cast<uint32_t>(p[vsize(t) + b]) << (8 * b);
    }
    return e;
}

// ---- reference step --------------------------------------------------------------------------

bool is_float(red_type t) {
    return t == red_type::fp16 || t == red_type::bf16 || t == red_type::fp32 || t == red_type::fp64;
}
bool is_signed_int(red_type t) {
    return t == red_type::int8 || t == red_type::int16 || t == red_type::int32 ||
           t == red_type::int64;
}

o::fmt fmt_of(red_type t) {
    if (t == red_type::fp16) return o::FP16;
    if (t == red_type::bf16) return o::BF16;
    if (t == red_type::fp32) return o::FP32;
    return o::fmt{11, 52};
}

uint64_t mask_of(red_type t) {
    const size_t bits = 8 * vsize(t);
    return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

int64_t sext(uint64_t v, red_type t) {
    const size_t bits = 8 * vsize(t);
    if (bits == 64) return static_cast<int64_t>(v);
    const uint64_t sign = uint64_t{1} << (bits - 1);
    return static_cast<int64_t>((v ^ sign) - sign);  // (v ^ s) - s sign-extends, mod 2^64
}

double fdecode(uint64_t v, red_type t) {
    return t == red_type::fp64 ? o::f64(v) : o::decode(v, fmt_of(t));
}

/// -1: a is selected, +1: b, 0: same value (ties), 2: NaN involved. For min (want_max false).
int compare(uint64_t a, uint64_t b, red_type t, bool want_max) {
    int c = 0;  // sign of (a - b) in the total order used (-0 < +0, NaN excluded)
    if (is_float(t)) {
        const double x = fdecode(a, t);
        const double y = fdecode(b, t);
        if (std::isnan(x) || std::isnan(y)) return 2;
        if (x < y)
            c = -1;
        else if (x > y)
            c = 1;
        else if (std::signbit(x) != std::signbit(y))
            c = std::signbit(x) ? -1 : 1;
    } else if (is_signed_int(t)) {
        const int64_t x = sext(a, t), y = sext(b, t);
        c = x < y ? -1 : (x > y ? 1 : 0);
    } else {
        c = a < b ? -1 : (a > b ? 1 : 0);
    }
    return want_max ? -c : c;
}

uint64_t canonical_nan(red_type t) {
    return t == red_type::fp64 ? o::FP64_QNAN : o::canonical_nan(fmt_of(t));
}

elem ref_step(red_op op, red_type t, elem a, elem b) {
    const uint64_t m = mask_of(t);
    switch (op) {
        case red_op::sum:
            if (t == red_type::fp64) return {o::sum64(a.v, b.v), 0};
            if (is_float(t)) return {o::sum(a.v, b.v, fmt_of(t)), 0};
            return {(a.v + b.v) & m, 0};
        case red_op::band:
            return {a.v & b.v, 0};
        case red_op::bor:
            return {a.v | b.v, 0};
        case red_op::bxor:
            return {a.v ^ b.v, 0};
        case red_op::land:
            return {(a.v != 0 && b.v != 0) ? 1u : 0u, 0};
        case red_op::lor:
            return {(a.v != 0 || b.v != 0) ? 1u : 0u, 0};
        case red_op::lxor:
            return {((a.v != 0) != (b.v != 0)) ? 1u : 0u, 0};
        default:
            break;
    }
    const bool want_max = op == red_op::max || op == red_op::maxloc;
    const int c = compare(a.v, b.v, t, want_max);
    elem r;
    if (c == 2) {
        const bool na = std::isnan(fdecode(a.v, t));
        const bool nb = std::isnan(fdecode(b.v, t));
        r = {canonical_nan(t), (na && nb) ? std::min(a.idx, b.idx) : (na ? a.idx : b.idx)};
    } else if (c < 0) {
        r = a;
    } else if (c > 0) {
        r = b;
    } else {
        r = {a.v, std::min(a.idx, b.idx)};
    }
    if (!is_loc(op)) r.idx = 0;
    return r;
}

// ---- random values -----------------------------------------------------------------------

uint64_t random_value(std::mt19937_64& rng, red_type t) {
    const uint64_t m = mask_of(t);
    const uint64_t r = rng();
    const unsigned kind = static_cast<unsigned>(rng() % 8u);
    if (!is_float(t)) {
        const uint64_t top = uint64_t{1} << (8 * vsize(t) - 1);
        switch (kind) {
            case 4:
                return r % 4u;  // small, many ties and zeros
            case 5: {
                const uint64_t specials[] = {0, 1, m, top, m >> 1, top + 1};
                return specials[r % 6u] & m;
            }
            case 6:
                return (m - r % 4u) & m;  // -1 .. -4
            default:
                return r & m;
        }
    }
    const o::fmt f = fmt_of(t);
    const uint64_t sign = o::sign_bit(f);
    const uint64_t inf = o::inf_bits(f);
    const uint64_t frac_mask = (uint64_t{1} << f.mbits) - 1;
    const uint64_t bias = (uint64_t{1} << (f.ebits - 1)) - 1;
    const uint64_t s = (r >> 63) != 0 ? sign : 0;
    switch (kind) {
        case 0:
        case 1:
            return r & m;  // any encoding, incl. NaN payloads, subnormals, infinities
        case 2: {
            const uint64_t specials[] = {0,
                                         sign,
                                         inf,
                                         sign | inf,
                                         inf + 1,
                                         inf | (frac_mask + 1) >> 1,
                                         sign | inf | 5,
                                         1,
                                         frac_mask,
                                         frac_mask + 1,
                                         inf - 1,
                                         bias << f.mbits};
            return s ^ specials[(r >> 8) % 12u];
        }
        case 6:
            return s | ((r >> 4) & frac_mask);  // subnormal
        case 7:
            return s | ((((inf >> f.mbits) - 1) << f.mbits) | ((r >> 4) & frac_mask));  // huge
        default: {  // exponents within +-3 of 1.0: sums round, ties to even happen
            const uint64_t e = bias - 3 + (r >> 40) % 7u;
            return s | (e << f.mbits) | ((r >> 4) & frac_mask);
        }
    }
}

std::vector<uint8_t> encode_all(const std::vector<elem>& v, red_op op, red_type t) {
    std::vector<uint8_t> buf(v.size() * esize(op, t));
    for (size_t i = 0; i < v.size(); ++i) put(buf, i, op, t, v[i]);
    return buf;
}

template <typename F>
void for_each_supported(F f) {
    for (red_op op : g::ALL_RED_OPS) {
        for (red_type t : g::ALL_RED_TYPES) {
            if (g::supported(op, t)) f(op, t);
        }
    }
}

/// Single pairwise step on one element given as raw words; returns the raw result.
elem step(red_op op, red_type t, elem a, elem b) {
    std::vector<uint8_t> acc = encode_all({a}, op, t);
    const std::vector<uint8_t> in = encode_all({b}, op, t);
    g::reduce_elementwise(op, t, acc.data(), in.data(), 1);
    return get(acc, 0, op, t);
}

uint64_t f32(float x) {
    return g::float_bits(x);
}
uint64_t d64(double x) {
    return o::bits64(x);
}

}  // namespace

TEST_CASE("reduce names, parse, sizes and support table", "[reduce]") {
    for (red_op op : g::ALL_RED_OPS) CHECK(g::parse_red_op(g::red_op_name(op)) == op);
    for (red_type t : g::ALL_RED_TYPES) {
        CHECK(g::parse_red_type(g::red_type_name(t)) == t);
        CHECK(g::red_type_size(t) == vsize(t));
        CHECK(g::is_float_type(t) == is_float(t));
    }
    CHECK(std::string(g::red_op_name(red_op::maxloc)) == "maxloc");
    CHECK(std::string(g::red_type_name(red_type::bf16)) == "bf16");
    CHECK(g::parse_red_op("lxor") == red_op::lxor);
    CHECK(g::parse_red_type("uint16") == red_type::uint16);
    CHECK_THROWS_AS(g::parse_red_op("prod"), std::invalid_argument);
    CHECK_THROWS_AS(g::parse_red_op("SUM"), std::invalid_argument);
    CHECK_THROWS_AS(g::parse_red_type("fp8"), std::invalid_argument);
    CHECK(g::red_elem_size(red_op::sum, red_type::fp64) == 8);
    CHECK(g::red_elem_size(red_op::minloc, red_type::fp64) == 12);
    CHECK(g::red_elem_size(red_op::maxloc, red_type::int8) == 5);
    CHECK(g::red_elem_size(red_op::minloc, red_type::bf16) == 6);
    CHECK(g::is_signed_type(red_type::int8));
    CHECK_FALSE(g::is_signed_type(red_type::uint64));
    CHECK(g::is_loc_op(red_op::minloc));
    CHECK_FALSE(g::is_loc_op(red_op::min));

    int n_supported = 0;
    for (red_op op : g::ALL_RED_OPS) {
        const bool bitwise_or_logical = op == red_op::band || op == red_op::bor ||
                                        op == red_op::bxor || op == red_op::land ||
                                        op == red_op::lor || op == red_op::lxor;
        for (red_type t : g::ALL_RED_TYPES) {
            const bool want = !(bitwise_or_logical && is_float(t));
            CHECK(g::supported(op, t) == want);
            n_supported += want ? 1 : 0;
            if (!want) {
                uint8_t a[8] = {};
                const uint8_t b[8] = {};
                CHECK_THROWS_AS(g::reduce_elementwise(op, t, a, b, 1), std::invalid_argument);
                CHECK_THROWS_AS(g::reduce_tree(op, t, {a, b}, a, 1), std::invalid_argument);
            }
        }
    }
    CHECK(n_supported == 11 * 12 - 6 * 4);
    uint8_t out[4] = {};
    CHECK_THROWS_AS(g::reduce_tree(red_op::sum, red_type::int32, {}, out, 1),
                    std::invalid_argument);
}

TEST_CASE("reduce integer semantics", "[reduce]") {
    // Two's complement wrap.
    CHECK(step(red_op::sum, red_type::int8, {0x7F}, {0x01}).v == 0x80);
    CHECK(step(red_op::sum, red_type::uint8, {0xFF}, {0x01}).v == 0x00);
    CHECK(step(red_op::sum, red_type::int64, {0x7FFFFFFFFFFFFFFFu}, {1}).v == 0x8000000000000000u);
    CHECK(step(red_op::sum, red_type::uint16, {0xFFFF}, {0xFFFF}).v == 0xFFFE);
    // Signed vs unsigned compare.
    CHECK(step(red_op::min, red_type::int16, {0xFFFF}, {0x0001}).v == 0xFFFF);  // -1 < 1
    CHECK(step(red_op::min, red_type::uint16, {0xFFFF}, {0x0001}).v == 0x0001);
    CHECK(step(red_op::max, red_type::int32, {0x80000000u}, {0x7FFFFFFFu}).v == 0x7FFFFFFFu);
    CHECK(step(red_op::max, red_type::uint64, {0x8000000000000000u}, {1}).v == 0x8000000000000000u);
    // Bitwise and logical.
    CHECK(step(red_op::band, red_type::uint8, {0xF0}, {0x3C}).v == 0x30);
    CHECK(step(red_op::bor, red_type::int32, {0xF0}, {0x0F000000u}).v == 0x0F0000F0u);
    CHECK(step(red_op::bxor, red_type::uint64, {~uint64_t{0}}, {1}).v == ~uint64_t{1});
    CHECK(step(red_op::land, red_type::int8, {0x80}, {0x02}).v == 1);
    CHECK(step(red_op::land, red_type::int8, {0x80}, {0x00}).v == 0);
    CHECK(step(red_op::lor, red_type::uint32, {0}, {0x100}).v == 1);
    CHECK(step(red_op::lor, red_type::uint32, {0}, {0}).v == 0);
    CHECK(step(red_op::lxor, red_type::int16, {5}, {7}).v == 0);
    CHECK(step(red_op::lxor, red_type::int16, {5}, {0}).v == 1);
    // minloc/maxloc: ties -> lower index, in either operand order.
    CHECK(step(red_op::minloc, red_type::int32, {7, 9}, {7, 3}) == elem{7, 3});
    CHECK(step(red_op::minloc, red_type::int32, {7, 3}, {7, 9}) == elem{7, 3});
    CHECK(step(red_op::maxloc, red_type::uint8, {200, 1}, {100, 0}) == elem{200, 1});
    CHECK(step(red_op::minloc, red_type::int8, {0xFE, 5}, {0x01, 2}) == elem{0xFE, 5});  // -2
    CHECK(step(red_op::maxloc, red_type::uint64, {5, 0xFFFFFFFFu}, {5, 0x80000000u}) ==
          elem{5, 0x80000000u});
}

TEST_CASE("reduce minloc/maxloc element layout is value then uint32 index, packed LE", "[reduce]") {
    // fp64 minloc: 12-byte elements; element 1 starts at byte 12.
    std::vector<uint8_t> acc(24), in(24);
    const double av[2] = {1.5, -2.0};
    const double bv[2] = {0.25, -2.0};
    for (size_t i = 0; i < 2; ++i) {
        std::memcpy(acc.data() + 12 * i, &av[i], 8);  // host is little-endian (x86-64)
        std::memcpy(in.data() + 12 * i, &bv[i], 8);
        const uint32_t ia = static_cast<uint32_t>(10 + i), ib = static_cast<uint32_t>(20 + i);
        std::memcpy(acc.data() + 12 * i + 8, &ia, 4);
        std::memcpy(in.data() + 12 * i + 8, &ib, 4);
    }
    g::reduce_elementwise(red_op::minloc, red_type::fp64, acc.data(), in.data(), 2);
    const std::vector<uint8_t> want = {
        0, 0, 0, 0, 0, 0, 0xD0, 0x3F, 20, 0, 0, 0,   // 0.25 @ 20
        0, 0, 0, 0, 0, 0, 0x00, 0xC0, 11, 0, 0, 0};  // -2.0 tie: lower index 11
    CHECK(acc == want);
}

TEST_CASE("reduce float special values", "[reduce]") {
    const uint64_t QN32 = g::FP32_CANONICAL_NAN;
    // NaN in any operand -> canonical NaN; inf - inf -> canonical NaN (x86 would give 0xFFC00000).
    CHECK(step(red_op::sum, red_type::fp32, {0xFFC12345u}, {f32(1.0f)}).v == QN32);
    CHECK(step(red_op::sum, red_type::fp32, {f32(1.0f)}, {0x7F800001u}).v == QN32);
    CHECK(step(red_op::sum, red_type::fp32, {f32(HUGE_VALF)}, {f32(-HUGE_VALF)}).v == QN32);
    CHECK(step(red_op::sum, red_type::fp64, {d64(HUGE_VAL)}, {d64(-HUGE_VAL)}).v ==
          g::FP64_CANONICAL_NAN);
    CHECK(step(red_op::sum, red_type::fp16, {0x7C00}, {0xFC00}).v == g::FP16_CANONICAL_NAN);
    CHECK(step(red_op::sum, red_type::bf16, {0xFFC1}, {0x3F80}).v == g::BF16_CANONICAL_NAN);
    CHECK(step(red_op::min, red_type::fp32, {0x7FC00001u}, {f32(1.0f)}).v == QN32);
    CHECK(step(red_op::max, red_type::fp32, {f32(1.0f)}, {0xFF800001u}).v == QN32);
    CHECK(step(red_op::max, red_type::fp16, {0x3C00}, {0x7D00}).v == g::FP16_CANONICAL_NAN);
    // Infinities.
    CHECK(step(red_op::sum, red_type::fp32, {f32(HUGE_VALF)}, {f32(-1e30f)}).v == 0x7F800000u);
    CHECK(step(red_op::sum, red_type::fp16, {0x7BFF}, {0x7BFF}).v == 0x7C00);  // overflow
    CHECK(step(red_op::max, red_type::bf16, {0xFF80}, {0xFF7F}).v == 0xFF7F);
    // Signed zeros: min(-0, +0) = -0, max = +0, both orders; -0 + -0 = -0, -0 + +0 = +0.
    for (const red_type t : {red_type::fp16, red_type::bf16, red_type::fp32, red_type::fp64}) {
        const uint64_t nz = o::sign_bit(fmt_of(t));
        INFO(g::red_type_name(t));
        CHECK(step(red_op::min, t, {0}, {nz}).v == nz);
        CHECK(step(red_op::min, t, {nz}, {0}).v == nz);
        CHECK(step(red_op::max, t, {0}, {nz}).v == 0);
        CHECK(step(red_op::max, t, {nz}, {0}).v == 0);
        CHECK(step(red_op::minloc, t, {0, 1}, {nz, 7}) == elem{nz, 7});
        CHECK(step(red_op::maxloc, t, {0, 9}, {nz, 7}) == elem{0, 9});
        CHECK(step(red_op::sum, t, {nz}, {nz}).v == nz);
        CHECK(step(red_op::sum, t, {nz}, {0}).v == 0);
        // minloc NaN: canonical NaN, index of the NaN operand (both NaN: lower index).
        const uint64_t nan = canonical_nan(t) | 1u;
        CHECK(step(red_op::minloc, t, {0, 1}, {nan, 7}) == elem{canonical_nan(t), 7});
        CHECK(step(red_op::maxloc, t, {nan, 8}, {nan | nz, 7}) == elem{canonical_nan(t), 7});
    }
    // Subnormals kept (no flush to zero).
    CHECK(step(red_op::sum, red_type::fp32, {1}, {1}).v == 2);  // 2^-149 + 2^-149
    CHECK(step(red_op::sum, red_type::fp64, {1}, {1}).v == 2);
    CHECK(step(red_op::sum, red_type::fp16, {0x0001}, {0x03FF}).v == 0x0400);
    CHECK(step(red_op::sum, red_type::bf16, {0x0001}, {0x8003}).v == 0x8002);
    CHECK(step(red_op::min, red_type::fp32, {1}, {2}).v == 1);
    // fp16/bf16 rounding at each step, ties to even.
    CHECK(step(red_op::sum, red_type::fp16, {0x7BFF}, {0x4C00}).v == 0x7C00);  // 65504+16: tie->inf
    CHECK(step(red_op::sum, red_type::fp16, {0x7BFF}, {0x4800}).v == 0x7BFF);  // 65504+8
    CHECK(step(red_op::sum, red_type::fp16, {0x3C00}, {0x1000}).v == 0x3C00);  // 1+2^-11 tie
    CHECK(step(red_op::sum, red_type::fp16, {0x3C01}, {0x1000}).v == 0x3C02);
    CHECK(step(red_op::sum, red_type::bf16, {0x3F80}, {0x3B80}).v == 0x3F80);  // 1+2^-8 tie
    CHECK(step(red_op::sum, red_type::bf16, {0x3F81}, {0x3B80}).v == 0x3F82);
    CHECK(step(red_op::sum, red_type::bf16, {0x7F7F}, {0x7F7F}).v == 0x7F80);
    // fp16 far-apart operands (the float intermediate is inexact here): 2^15 + 2^-24 -> 2^15,
    // and 2048 + 1 + 2^-24 style sticky cases.
    CHECK(step(red_op::sum, red_type::fp16, {0x7800}, {0x0001}).v == 0x7800);
    CHECK(step(red_op::sum, red_type::fp16, {0x6800}, {0x3C01}).v == 0x6801);  // 2048+1.000977
    CHECK(step(red_op::sum, red_type::fp32, {f32(1.0f)}, {f32(std::ldexp(1.0f, -24))}).v ==
          f32(1.0f));
    CHECK(step(red_op::sum, red_type::fp32, {f32(1.0f)}, {f32(std::ldexp(1.0f, -24)) + 1}).v ==
          f32(1.0f) + 1);  // just above the tie
}

TEST_CASE("reduce_tree is a left fold in input order, and the order matters", "[reduce]") {
    // fp32: (2^24 + 1) + 1 = 2^24 (tie to even twice); 1 + (1 + 2^24) order gives 2^24 + 2.
    const float big = 16777216.0f;
    const std::vector<elem> x0 = {{f32(big)}}, x1 = {{f32(1.0f)}}, x2 = {{f32(1.0f)}};
    const auto b0 = encode_all(x0, red_op::sum, red_type::fp32);
    const auto b1 = encode_all(x1, red_op::sum, red_type::fp32);
    const auto b2 = encode_all(x2, red_op::sum, red_type::fp32);
    std::vector<uint8_t> out(4);
    g::reduce_tree(red_op::sum, red_type::fp32, {b0.data(), b1.data(), b2.data()}, out.data(), 1);
    CHECK(get(out, 0, red_op::sum, red_type::fp32).v == f32(big));
    g::reduce_tree(red_op::sum, red_type::fp32, {b1.data(), b2.data(), b0.data()}, out.data(), 1);
    CHECK(get(out, 0, red_op::sum, red_type::fp32).v == f32(big + 2.0f));

    // Single input: copied unchanged (no canonicalisation or 0/1 normalisation).
    const auto n = encode_all({{0xFFC12345u}}, red_op::sum, red_type::fp32);
    g::reduce_tree(red_op::sum, red_type::fp32, {n.data()}, out.data(), 1);
    CHECK(out == n);
    // out may alias inputs[0].
    auto acc = b0;
    g::reduce_tree(red_op::sum, red_type::fp32, {acc.data(), b1.data(), b1.data()}, acc.data(), 1);
    CHECK(get(acc, 0, red_op::sum, red_type::fp32).v == f32(big));

    // Random: reduce_tree == explicit left fold with reduce_elementwise, for every op x dtype,
    // and != the reverse fold for some fp sums.
    std::mt19937_64 rng(42);
    bool reverse_differs = false;
    for_each_supported([&](red_op op, red_type t) {
        const size_t count = 257;
        std::vector<std::vector<uint8_t>> in(7);
        for (auto& buf : in) {
            std::vector<elem> v(count);
            for (auto& e : v) e = {random_value(rng, t), static_cast<uint32_t>(rng() % 4)};
            buf = encode_all(v, op, t);
        }
        std::vector<const uint8_t*> ptrs, rev;
        for (const auto& buf : in) ptrs.push_back(buf.data());
        rev.assign(ptrs.rbegin(), ptrs.rend());
        std::vector<uint8_t> tree(in[0].size()), back(in[0].size());
        g::reduce_tree(op, t, ptrs, tree.data(), count);
        std::vector<uint8_t> fold = in[0];
        for (size_t k = 1; k < in.size(); ++k)
            g::reduce_elementwise(op, t, fold.data(), in[k].data(), count);
        INFO(g::red_op_name(op) << " " << g::red_type_name(t));
        CHECK(tree == fold);
        g::reduce_tree(op, t, rev, back.data(), count);
        if (op == red_op::sum && is_float(t) && back != tree) reverse_differs = true;
    });
    CHECK(reverse_differs);
}

TEST_CASE("reduce random vectors against the wide-precision oracle", "[reduce]") {
    std::mt19937_64 rng(0x5EA2C0DEu);
    constexpr size_t COUNT = 12000;
    constexpr size_t INPUTS = 5;  // 4 pairwise steps per element
    size_t checked = 0;
    for_each_supported([&](red_op op, red_type t) {
        std::vector<std::vector<elem>> vals(INPUTS, std::vector<elem>(COUNT));
        std::vector<std::vector<uint8_t>> bufs;
        std::vector<const uint8_t*> ptrs;
        for (auto& v : vals) {
            for (auto& e : v) {
                e.v = random_value(rng, t);
                e.idx = is_loc(op) ? static_cast<uint32_t>(rng() % 8) : 0u;
            }
            bufs.push_back(encode_all(v, op, t));
        }
        for (const auto& b : bufs) ptrs.push_back(b.data());
        std::vector<uint8_t> out(COUNT * esize(op, t));
        g::reduce_tree(op, t, ptrs, out.data(), COUNT);
        size_t bad = 0;
        for (size_t i = 0; i < COUNT; ++i) {
            elem want = vals[0][i];
            for (size_t k = 1; k < INPUTS; ++k) want = ref_step(op, t, want, vals[k][i]);
            const elem got = get(out, i, op, t);
            if (!(got == want) && bad++ < 5) {
                std::string inputs;
                for (size_t k = 0; k < INPUTS; ++k) {
                    inputs +=
                        " " + std::to_string(vals[k][i].v) + "@" + std::to_string(vals[k][i].idx);
                }
                FAIL_CHECK(g::red_op_name(op) << " " << g::red_type_name(t) << " element " << i
                                              << " inputs" << inputs << " got " << got.v << "@"
                                              << got.idx << " want " << want.v << "@" << want.idx);
            }
        }
        checked += COUNT * (INPUTS - 1);
        CHECK(bad == 0);
    });
    CHECK(checked > 5000000);  // pairwise steps checked across all op x dtype combinations
}

TEST_CASE("reduce fp16/bf16/fp32 sums of close operands hit ties and match the oracle",
          "[reduce]") {
    // Dense pairs whose exponents differ by at most the precision: every rounding case
    // (exact, below/at/above half, carries into the exponent) occurs many times.
    std::mt19937_64 rng(7);
    for (const red_type t : {red_type::fp16, red_type::bf16, red_type::fp32}) {
        const o::fmt f = fmt_of(t);
        const uint64_t frac_mask = (uint64_t{1} << f.mbits) - 1;
        const uint64_t emax_field = (uint64_t{1} << f.ebits) - 2;
        constexpr size_t N = 200000;
        std::vector<elem> a(N), b(N);
        for (size_t i = 0; i < N; ++i) {
            const uint64_t ea = 1 + rng() % emax_field;
            const uint64_t d = rng() % static_cast<uint64_t>(f.mbits + 3);
            const uint64_t eb = ea > d ? ea - d : 0;
            const uint64_t sa = (rng() & 1) ? o::sign_bit(f) : 0;
            const uint64_t sb = (rng() & 1) ? o::sign_bit(f) : 0;
            a[i].v = sa | (ea << f.mbits) | (rng() & frac_mask);
            b[i].v = sb | (eb << f.mbits) | (rng() & frac_mask);
        }
        auto acc = encode_all(a, red_op::sum, t);
        const auto in = encode_all(b, red_op::sum, t);
        g::reduce_elementwise(red_op::sum, t, acc.data(), in.data(), N);
        size_t bad = 0;
        for (size_t i = 0; i < N; ++i) {
            const uint64_t want = o::sum(a[i].v, b[i].v, f);
            const uint64_t got = get(acc, i, red_op::sum, t).v;
            if (got != want && bad++ < 5) {
                FAIL_CHECK(g::red_type_name(t) << " " << a[i].v << " + " << b[i].v << " got " << got
                                               << " want " << want);
            }
        }
        CHECK(bad == 0);
    }
}
