// Port masks: one bit per port of a device with up to 64 ports, SystemC-free. The round-robin
// pick of the switch allocator (switch_alloc.h) and the bit loops of the cycle model
// (models/cycle/bits.h forwards these names).
#pragma once
#include <cstdint>

namespace ndr::golden {

/// Number of ports a mask can hold; also rr_pick's "no port".
inline constexpr uint32_t MASK_PORTS = 64;

inline constexpr uint64_t bit(uint32_t i) {
    return uint64_t{1} << i;
}

/// Calls f(i) for every set bit i of m, lowest first.
template <typename F>
inline void for_each_bit(uint64_t m, F&& f) {
    while (m != 0) {
        const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(m));
        m &= m - 1;
        f(i);
    }
}

/// The set bit of m at or after position `from` (wrapping), or MASK_PORTS (64) if m == 0.
inline uint32_t rr_pick(uint64_t m, uint32_t from) {
    if (m == 0) return MASK_PORTS;
    const uint64_t hi = from < 64 ? (m & (~uint64_t{0} << from)) : 0;
    return static_cast<uint32_t>(__builtin_ctzll(hi != 0 ? hi : m));
}

}  // namespace ndr::golden
