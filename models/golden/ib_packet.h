// Whole IBA packet build/parse (docs/domain.md §1.1): LRH [+GRH] + BTH + extended headers +
// payload + pad + ICRC + VCRC. SystemC-free.
//
// Length rules (docs/domain.md §1.2): LRH.PktLen = bytes from the first LRH byte through the ICRC,
// divided by 4 (the VCRC is not counted); BTH.PadCnt = pad bytes that round the payload up to
// a multiple of 4; GRH.PayLen = bytes after the GRH through the ICRC. Max PktLen =
// (MTU + 124) / 4. CRC masking and byte order: see crc.h.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "golden/opcode.h"
#include "golden/wire/aeth.h"
#include "golden/wire/bth.h"
#include "golden/wire/deth.h"
#include "golden/wire/grh.h"
#include "golden/wire/immdt.h"
#include "golden/wire/lrh.h"
#include "golden/wire/reth.h"

namespace ndr::golden {

inline constexpr uint32_t IB_MAX_MTU = 4096;          ///< bytes of payload (docs/domain.md §1.2)
inline constexpr uint32_t IB_MAX_PKT_OVERHEAD = 124;  ///< header+ICRC bytes counted in PktLen

/// Every header field of one packet. Only the extended headers that the BTH opcode carries
/// (describe_opcode) are encoded; the others are ignored.
struct packet_fields {
    lrh lrh_hdr;                   ///< build_packet overwrites lnh (2 or 3) and pktlen
    bool has_grh = false;          ///< true: global packet, GRH follows the LRH (LNH = 3)
    grh grh_hdr;                   ///< used when has_grh; build_packet overwrites paylen
    bth bth_hdr;                   ///< build_packet overwrites padcnt
    deth deth_hdr;                 ///< UD opcodes
    reth reth_hdr;                 ///< RDMA WRITE first/only, RDMA READ request
    aeth aeth_hdr;                 ///< ACK, READ response first/last/only, atomic ACK
    immdt immdt_hdr;               ///< "with immediate" opcodes
    uint32_t ieth_rkey = 0;        ///< 32 bits: IETH R_Key ("with invalidate" opcodes)
    uint64_t atomic_va = 0;        ///< 64 bits: AtomicETH virtual address
    uint32_t atomic_rkey = 0;      ///< 32 bits: AtomicETH R_Key
    uint64_t atomic_swap_add = 0;  ///< 64 bits: AtomicETH swap (CmpSwap) or add (FetchAdd) data
    uint64_t atomic_compare = 0;   ///< 64 bits: AtomicETH compare data
    uint64_t atomic_ack_orig = 0;  ///< 64 bits: AtomicAckETH original remote data

    /// Compares lrh/grh/bth and the extended headers that `opcode_info` says are present.
    bool same_headers(const packet_fields& o) const;
};

/// Pad bytes after a payload of `payload_bytes` (0..3).
uint32_t pad_bytes(uint32_t payload_bytes);

/// Bytes of the whole packet on the wire, LRH through VCRC. Throws std::invalid_argument for
/// an unsupported opcode.
uint32_t wire_bytes(uint32_t payload_bytes, uint8_t opcode, bool has_grh);

/// InfiniBand CNP (IBTA Annex A10 congestion notification packet, BECN set): BTH opcode 0x80
/// (the RoCEv2 CNP's 0x81 is its UD-style sibling; the IB value is unverified against the
/// IBTA text), 16 reserved bytes after the BTH: LRH 8 + BTH 12 + 16 + ICRC 4 + VCRC 2 = 42 B.
inline constexpr uint8_t IB_CNP_OPCODE = 0x80;
inline constexpr uint32_t IB_CNP_WIRE_BYTES = 42;

/// LRH.PktLen for such a packet: (wire_bytes - VCRC) / 4.
uint32_t pktlen_words(uint32_t payload_bytes, uint8_t opcode, bool has_grh);

/// Encodes a packet. Computes LRH.LNH, LRH.PktLen, GRH.PayLen, BTH.PadCnt, pad (zero bytes),
/// ICRC and VCRC. Throws std::invalid_argument when: `mtu` is not 256/512/1024/2048/4096;
/// the payload exceeds `mtu`; the opcode is unsupported or carries no payload but one is given;
/// PktLen would exceed (mtu + 124) / 4; or a header field exceeds its bit width.
std::vector<uint8_t> build_packet(const packet_fields& fields, const uint8_t* payload,
                                  size_t payload_size, uint32_t mtu = IB_MAX_MTU);
std::vector<uint8_t> build_packet(const packet_fields& fields, const std::vector<uint8_t>& payload,
                                  uint32_t mtu = IB_MAX_MTU);

/// Result of parse_packet. `payload` points into the parsed buffer (no copy): it is valid only
/// while that buffer lives.
struct parsed_packet {
    packet_fields fields;              ///< decoded headers (absent extended headers default)
    opcode_info op;                    ///< header layout of fields.bth_hdr.opcode
    const uint8_t* payload = nullptr;  ///< first payload byte (pad excluded)
    size_t payload_size = 0;           ///< bytes, pad excluded
    uint32_t icrc_wire = 0;            ///< ICRC as received
    uint32_t icrc_calc = 0;            ///< ICRC recomputed over the received bytes
    uint16_t vcrc_wire = 0;            ///< VCRC as received
    uint16_t vcrc_calc = 0;            ///< VCRC recomputed over the received bytes
    bool icrc_ok = false;              ///< icrc_wire == icrc_calc
    bool vcrc_ok = false;              ///< vcrc_wire == vcrc_calc
};

/// Decodes a whole packet (first LRH byte through VCRC, `len` bytes) and checks both CRCs.
/// CRC mismatches are reported in the result, not thrown. Throws std::invalid_argument for a
/// malformed packet: shorter than its headers, LNH raw (0/1), `len` != PktLen * 4 + 2,
/// unsupported opcode, PadCnt larger than the bytes left, or payload on an opcode without one.
parsed_packet parse_packet(const uint8_t* pkt, size_t len);
parsed_packet parse_packet(const std::vector<uint8_t>& pkt);

}  // namespace ndr::golden
