// Local Route Header (LRH), 8 bytes, big-endian on the wire (docs/domain.md §1.2). SystemC-free.
//
//   byte 0: VL[7:4]   LVer[3:0]
//   byte 1: SL[7:4]   reserved[3:2] LNH[1:0]
//   byte 2-3: DLID
//   byte 4-5: reserved[15:11] PktLen[10:0]
//   byte 6-7: SLID
// Reserved bits are sent as 0 and ignored on decode.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

/// LRH.LNH values (docs/domain.md §1.2).
inline constexpr uint8_t LNH_RAW = 0;         ///< raw packet, no IBA transport
inline constexpr uint8_t LNH_IP_NON_IBA = 1;  ///< raw IPv6 (non-IBA transport)
inline constexpr uint8_t LNH_IBA_LOCAL = 2;   ///< BTH follows the LRH
inline constexpr uint8_t LNH_IBA_GLOBAL = 3;  ///< GRH follows the LRH, then BTH

struct lrh {
    static constexpr size_t SIZE = 8;  ///< bytes on the wire

    uint8_t vl = 0;       ///< 4 bits: virtual lane on this link (rewritten per hop)
    uint8_t lver = 0;     ///< 4 bits: link version
    uint8_t sl = 0;       ///< 4 bits: service level
    uint8_t lnh = 0;      ///< 2 bits: link next header, see LNH_* constants
    uint16_t dlid = 0;    ///< 16 bits: destination LID
    uint16_t pktlen = 0;  ///< 11 bits: 4-byte words from first LRH byte through ICRC
    uint16_t slid = 0;    ///< 16 bits: source LID

    /// Throws std::invalid_argument naming the first field that exceeds its bit width.
    void validate() const;
    /// validate(), then writes SIZE bytes at `out`.
    void encode(uint8_t* out) const;
    /// Reads SIZE bytes from `in`.
    static lrh decode(const uint8_t* in);

    bool operator==(const lrh& o) const;
    bool operator!=(const lrh& o) const { return !(*this == o); }
};

}  // namespace ndr::golden
