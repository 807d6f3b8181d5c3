// Base Transport Header (BTH), 12 bytes, big-endian (docs/domain.md §1.4). SystemC-free.
//
//   byte 0: OpCode
//   byte 1: SE[7] MigReq[6] PadCnt[5:4] TVer[3:0]
//   byte 2-3: P_Key
//   byte 4: FECN[7] BECN[6] reserved[5:0]   (the former Resv8a byte; masked in the ICRC)
//   byte 5-7: DestQP
//   byte 8: AckReq[7] reserved[6:0]
//   byte 9-11: PSN
// Reserved bits are sent as 0 and ignored on decode.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

struct bth {
    static constexpr size_t SIZE = 12;  ///< bytes on the wire

    uint8_t opcode = 0;   ///< 8 bits: [7:5] transport, [4:0] operation (see opcode.h)
    bool se = false;      ///< 1 bit: solicited event
    bool migreq = false;  ///< 1 bit: migration request / path-migration state
    uint8_t padcnt = 0;   ///< 2 bits: pad bytes after the payload (0..3)
    uint8_t tver = 0;     ///< 4 bits: transport header version
    uint16_t pkey = 0;    ///< 16 bits: partition key
    bool fecn = false;    ///< 1 bit: forward explicit congestion notification
    bool becn = false;    ///< 1 bit: backward explicit congestion notification
    uint32_t destqp = 0;  ///< 24 bits: destination QP
    bool ackreq = false;  ///< 1 bit: acknowledge request
    uint32_t psn = 0;     ///< 24 bits: packet sequence number

    /// Throws std::invalid_argument naming the first field that exceeds its bit width.
    void validate() const;
    /// validate(), then writes SIZE bytes at `out`.
    void encode(uint8_t* out) const;
    /// Reads SIZE bytes from `in`.
    static bth decode(const uint8_t* in);

    bool operator==(const bth& o) const;
    bool operator!=(const bth& o) const { return !(*this == o); }
};

}  // namespace ndr::golden
