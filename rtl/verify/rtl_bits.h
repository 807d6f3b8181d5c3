// Bit-field access to the ports of a Verilated model, whatever C++ type Verilator chose for the
// port (CData/SData/IData/QData up to 64 bits, VlWide<N> beyond): flat SystemVerilog vectors
// hold one field per port, e.g. in_vl_i[4*p +: 4].
#pragma once
#include <cstdint>
#include <type_traits>

namespace ndr::verify {

inline constexpr uint64_t low_mask(unsigned w) {
    return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

/// Bits [lsb, lsb + w) of a port (w <= 64).
template <typename T>
uint64_t get_bits(const T& sig, unsigned lsb, unsigned w) {
    if constexpr (std::is_integral_v<T>) {
        return (static_cast<uint64_t>(sig) >> lsb) & low_mask(w);
    } else {
        uint64_t v = 0;
        for (unsigned b = 0; b < w;) {
            const unsigned word = (lsb + b) / 32;
            const unsigned off = (lsb + b) % 32;
            const unsigned n = (32 - off) < (w - b) ? (32 - off) : (w - b);
            const uint64_t part = (static_cast<uint64_t>(sig.at(word)) >> off) & low_mask(n);
            v |= part << b;
            b += n;
        }
        return v;
    }
}

/// Sets bits [lsb, lsb + w) of a port to v (w <= 64).
template <typename T>
void set_bits(T& sig, unsigned lsb, unsigned w, uint64_t v) {
    if constexpr (std::is_integral_v<T>) {
        const uint64_t m = low_mask(w) << lsb;
        const uint64_t cur = static_cast<uint64_t>(sig);
        sig = static_cast<T>((cur & ~m) | ((v << lsb) & m));
    } else {
        for (unsigned b = 0; b < w;) {
            const unsigned word = (lsb + b) / 32;
            const unsigned off = (lsb + b) % 32;
            const unsigned n = (32 - off) < (w - b) ? (32 - off) : (w - b);
            const auto m = static_cast<uint32_t>(low_mask(n) << off);
            const auto part = static_cast<uint32_t>(((v >> b) & low_mask(n)) << off);
            sig.at(word) = (sig.at(word) & ~m) | part;
            b += n;
        }
    }
}

}  // namespace ndr::verify
