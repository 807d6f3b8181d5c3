// Byte-packing helpers shared by the IB header codecs (lrh, grh, bth, reth, aeth, deth, immdt,
// fc_packet, ib_packet). All IB header fields are big-endian on the wire (docs/domain.md §1).
// Internal to the golden library: not part of its public API.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace ndr::golden::detail {

/// Throws std::invalid_argument naming `header.field` when `value` needs more than `bits` bits.
inline void check_width(uint64_t value, unsigned bits, const char* header, const char* field) {
    if (bits < 64 && (value >> bits) != 0) {
        throw std::invalid_argument(std::string(header) + "." + field + " = " +
                                    std::to_string(value) + " does not fit in " +
                                    std::to_string(bits) + " bits");
    }
}

/// Writes the low `n` bytes of `value` big-endian (most significant byte first) at `out`.
inline void put_be(uint8_t* out, uint64_t value, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        out[i] = static_cast<uint8_t>(value >> (8 * (n - 1 - i)));
    }
}

/// Reads `n` bytes big-endian from `in`.
inline uint64_t get_be(const uint8_t* in, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) {
        v = (v << 8) | in[i];
    }
    return v;
}

/// Writes the low `n` bytes of `value` little-endian (least significant byte first).
inline void put_le(uint8_t* out, uint64_t value, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        out[i] = static_cast<uint8_t>(value >> (8 * i));
    }
}

/// Reads `n` bytes little-endian from `in`.
inline uint64_t get_le(const uint8_t* in, size_t n) {
    uint64_t v = 0;
    for (size_t i = n; i > 0; --i) {
        v = (v << 8) | in[i - 1];
    }
    return v;
}

}  // namespace ndr::golden::detail
