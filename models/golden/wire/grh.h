// Global Route Header (GRH), 40 bytes, IPv6 layout, big-endian (docs/domain.md §1.3). SystemC-free.
//
//   byte 0: IPVer[7:4] TClass[7:4]
//   byte 1: TClass[3:0] FlowLabel[19:16]
//   byte 2-3: FlowLabel[15:0]
//   byte 4-5: PayLen     byte 6: NxtHdr     byte 7: HopLmt
//   byte 8-23: SGID      byte 24-39: DGID   (GIDs in wire order, byte 0 first)
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

/// GRH.NxtHdr value for an IBA transport header (BTH) following the GRH.
inline constexpr uint8_t GRH_NXTHDR_IBA = 0x1B;

struct grh {
    static constexpr size_t SIZE = 40;  ///< bytes on the wire

    uint8_t ipver = 6;                ///< 4 bits: IP version (6)
    uint8_t tclass = 0;               ///< 8 bits: traffic class
    uint32_t flow_label = 0;          ///< 20 bits: flow label
    uint16_t paylen = 0;              ///< 16 bits: bytes after the GRH through the ICRC
    uint8_t nxthdr = GRH_NXTHDR_IBA;  ///< 8 bits: next header (0x1B = BTH)
    uint8_t hoplmt = 0;               ///< 8 bits: hop limit
    std::array<uint8_t, 16> sgid{};   ///< 128 bits: source GID, wire byte order
    std::array<uint8_t, 16> dgid{};   ///< 128 bits: destination GID, wire byte order

    /// Throws std::invalid_argument naming the first field that exceeds its bit width.
    void validate() const;
    /// validate(), then writes SIZE bytes at `out`.
    void encode(uint8_t* out) const;
    /// Reads SIZE bytes from `in`.
    static grh decode(const uint8_t* in);

    bool operator==(const grh& o) const;
    bool operator!=(const grh& o) const { return !(*this == o); }
};

}  // namespace ndr::golden
