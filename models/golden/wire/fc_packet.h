// Link-level flow-control packet, 6 bytes (docs/domain.md §2.1; field split as in Wireshark
// packet-infiniband.c dissect_infiniband_link). SystemC-free.
//
//   byte 0: Op[7:4] FCTBS[11:8]    byte 1: FCTBS[7:0]
//   byte 2: VL[7:4] FCCL[11:8]     byte 3: FCCL[7:0]
//   byte 4-5: LPCRC
// LPCRC [U]: assumed to be the VCRC's CRC-16 (crc16_ib: poly 0x100B LSB-first, seed 0xFFFF,
// inverted) over bytes 0-3, stored least-significant byte first like the VCRC (crc.h).
// docs/domain.md §2.1/§1.6 tag both the polynomial and the byte order as unconfirmed.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

inline constexpr uint8_t FC_OP_NORMAL = 0;  ///< normal flow-control packet
inline constexpr uint8_t FC_OP_INIT = 1;    ///< flow-control initialization packet

struct fc_packet {
    static constexpr size_t SIZE = 6;  ///< bytes on the wire

    uint8_t op = FC_OP_NORMAL;  ///< 4 bits: 0 normal, 1 init, others reserved
    uint16_t fctbs = 0;         ///< 12 bits: flow control total blocks sent, mod 4096
    uint8_t vl = 0;             ///< 4 bits: VL this packet reports
    uint16_t fccl = 0;          ///< 12 bits: flow control credit limit, mod 4096
    /// 16 bits: LPCRC as read by decode(). encode() ignores it and writes the computed value.
    uint16_t lpcrc = 0;

    /// Throws std::invalid_argument naming the first field that exceeds its bit width.
    void validate() const;
    /// validate(), then writes SIZE bytes with a freshly computed LPCRC.
    void encode(uint8_t* out) const;
    /// Reads SIZE bytes; `lpcrc` holds the received value (check it with lpcrc_ok()).
    static fc_packet decode(const uint8_t* in);
    /// LPCRC of the first 4 bytes of an encoded FC packet.
    static uint16_t compute_lpcrc(const uint8_t* first4);
    /// True when `lpcrc` equals the LPCRC computed from the other fields.
    bool lpcrc_ok() const;

    /// Compares every field including lpcrc.
    bool operator==(const fc_packet& o) const;
    bool operator!=(const fc_packet& o) const { return !(*this == o); }
};

}  // namespace ndr::golden
