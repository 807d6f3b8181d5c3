// Datagram Extended Transport Header (DETH), 8 bytes, big-endian (docs/domain.md §1.5).
// SystemC-free.
//   byte 0-3: Q_Key   byte 4: reserved   byte 5-7: SrcQP
// Carried by every UD packet.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

struct deth {
    static constexpr size_t SIZE = 8;  ///< bytes on the wire

    uint32_t qkey = 0;   ///< 32 bits: queue key
    uint32_t srcqp = 0;  ///< 24 bits: source QP

    /// Throws std::invalid_argument naming the first field that exceeds its bit width.
    void validate() const;
    void encode(uint8_t* out) const;
    static deth decode(const uint8_t* in);

    bool operator==(const deth& o) const;
    bool operator!=(const deth& o) const { return !(*this == o); }
};

}  // namespace ndr::golden
