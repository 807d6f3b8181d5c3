// Random SHARP ALU operands, see sharp_alu_operands.h.
#include "sharp_alu/sharp_alu_operands.h"

namespace ndr::verify {

namespace {

struct float_fmt {
    unsigned exp_w;
    unsigned man_w;
    [[nodiscard]] unsigned width() const { return 1 + exp_w + man_w; }
};

float_fmt fmt_of(golden::red_type t) {
    switch (t) {
        case golden::red_type::fp16:
            return {5, 10};
        case golden::red_type::bf16:
            return {8, 7};
        case golden::red_type::fp64:
            return {11, 52};
        default:
            return {8, 23};
    }
}

std::uint64_t mask_of(golden::red_type t) {
    const std::size_t bytes = golden::red_type_size(t);
    return bytes == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * bytes)) - 1;
}

std::uint64_t pack(const float_fmt& f, std::uint64_t sign, std::uint64_t exp, std::uint64_t man) {
    return sign << (f.width() - 1) | exp << f.man_w | (man & ((std::uint64_t{1} << f.man_w) - 1));
}

}  // namespace

std::uint64_t sharp_alu_operands::uniform(std::uint64_t lo, std::uint64_t hi) {
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng_);
}

std::uint64_t sharp_alu_operands::random_int(std::uint64_t mask) {
    switch (uniform(0, 9)) {
        case 0:
            return uniform(0, 8) - 4;  // small, both signs
        case 1:
        case 2: {
            const std::uint64_t extremes[] = {0, ~std::uint64_t{0}, mask >> 1, (mask >> 1) + 1, 1,
                                              0};
            return extremes[uniform(0, 5)];
        }
        default:
            return rng_();
    }
}

std::uint64_t sharp_alu_operands::random_float(golden::red_type type) {
    const float_fmt f = fmt_of(type);
    const std::uint64_t emax = (std::uint64_t{1} << f.exp_w) - 1;
    const std::uint64_t mmax = (std::uint64_t{1} << f.man_w) - 1;
    const std::uint64_t s = uniform(0, 1);
    switch (uniform(0, 9)) {
        case 0: {  // specials
            const std::uint64_t special[] = {
                pack(f, s, 0, 0),                                     // +-0
                pack(f, s, emax, 0),                                  // +-inf
                pack(f, s, emax, std::uint64_t{1} << (f.man_w - 1)),  // quiet NaN
                pack(f, s, emax, 1),                                  // signalling NaN
                pack(f, s, emax, uniform(1, mmax)),                   // NaN with a payload
                pack(f, s, 0, 1),                                     // min subnormal
                pack(f, s, 0, mmax),                                  // max subnormal
                pack(f, s, 1, 0),                                     // min normal
                pack(f, s, emax - 1, mmax),                           // max finite
                pack(f, s, emax >> 1, 0)};                            // 1.0
            return special[uniform(0, 9)];
        }
        case 1:
        case 2:
            return pack(f, s, 0, uniform(0, mmax));  // subnormal
        case 3:
            return pack(f, s, uniform(emax - 3, emax - 1), uniform(0, mmax));  // large: overflow
        case 4:
            return pack(f, s, uniform(1, 4), uniform(0, mmax));  // near the subnormals
        default:
            return rng_();  // uniform bits
    }
}

std::uint64_t sharp_alu_operands::related_float(golden::red_type type, std::uint64_t a) {
    const float_fmt f = fmt_of(type);
    const std::uint64_t emax = (std::uint64_t{1} << f.exp_w) - 1;
    const std::uint64_t sign_bit = std::uint64_t{1} << (f.width() - 1);
    const std::uint64_t ea = (a >> f.man_w) & emax;
    switch (uniform(0, 9)) {
        case 0:
            return random_float(type);
        case 1:
            return rng_();
        case 2:
            return a ^ sign_bit;  // exact cancellation
        case 3:
            return (a ^ sign_bit) + (uniform(0, 1) != 0 ? 1 : ~std::uint64_t{0});  // near it
        case 4:
            return a;
        default: {  // exponent difference 0 .. man_w + 5 (alignment, GRS), either sign
            const std::uint64_t d = uniform(0, f.man_w + 5);
            const std::uint64_t eb = ea > d ? ea - d : uniform(0, 1);
            return pack(f, uniform(0, 1), eb == emax ? emax - 1 : eb, rng_());
        }
    }
}

std::uint32_t sharp_alu_operands::random_index() {
    switch (uniform(0, 3)) {
        case 0:
            return static_cast<std::uint32_t>(uniform(0, 3));
        case 1:
            return uniform(0, 1) != 0 ? 0xFFFFFFFFu : 0x80000000u;
        default:
            return static_cast<std::uint32_t>(rng_());
    }
}

sharp_alu_operand_pair sharp_alu_operands::next(golden::red_type type) {
    sharp_alu_operand_pair p;
    const std::uint64_t mask = mask_of(type);
    if (golden::is_float_type(type)) {
        p.a = random_float(type);
        p.b = related_float(type, p.a);
    } else {
        p.a = random_int(mask);
        p.b = uniform(0, 7) == 0 ? p.a : random_int(mask);
    }
    p.a &= mask;
    p.b &= mask;
    p.a_idx = random_index();
    p.b_idx = random_index();
    return p;
}

}  // namespace ndr::verify
