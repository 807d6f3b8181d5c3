// Bit tricks for 64-port masks (one bit per port).
#pragma once
#include <cstdint>

namespace ndr::common {

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

/// The set bit of m at or after position `from` (wrapping), or 64 if m == 0.
inline uint32_t rr_pick(uint64_t m, uint32_t from) {
    if (m == 0) return 64;
    const uint64_t hi = from < 64 ? (m & (~uint64_t{0} << from)) : 0;
    return static_cast<uint32_t>(__builtin_ctzll(hi != 0 ? hi : m));
}

}  // namespace ndr::common
