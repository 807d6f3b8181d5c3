// The bytes on the wire of a cycle-model packet (LRH through VCRC), built with the golden
// library for captures (`ndrsim run --pcap`). SystemC-free.
//
// What the cycle models do not simulate is filled in as follows:
//   - payload contents: zero bytes (only the length is modelled); pad bytes are zero too;
//   - LRH: VL = packet::vl (the VL on the link being captured), LVer 0, SL = packet::sl,
//     DLID = dst + 1, SLID = src + 1 (LID 0 is reserved), no GRH;
//   - BTH: P_Key 0xFFFF (default full-member partition), TVer 0, no SE/MigReq/FECN/BECN,
//     PSN = packet::psn, AckReq on the last packet of a message (…_LAST, …_ONLY, READ request);
//     DestQP = packet::qp + 2 (QPN 0 and 1 are the SMI/GSI management QPs): the model numbers
//     one QP per (src, dst) pair and uses the same number for a connection on both ends, so data
//     packets and the ACKs that acknowledge them carry the same DestQP;
//   - RETH (RDMA WRITE first/only, READ request): VA = RETH_VA_BASE + (message slot << 24),
//     R_Key = RETH_RKEY_BASE + dst host, DMA length = this packet's payload (the packet does not
//     carry its message's length: exact for ONLY, a lower bound for FIRST, 0 for READ requests);
//   - ImmDt (…_WITH_IMMEDIATE): the message slot number;
//   - AETH (ACK, NAK, READ response first/last/only): syndrome 0x00 (ACK, credit field 0) or
//     AETH_NAK_PSN_SEQ_ERROR 0x60 for a NAK (docs/domain.md §1.5); MSN 0 (not modelled).
#pragma once
#include <cstdint>
#include <vector>

#include "cycle/packet.h"

namespace ndr::tb {

inline constexpr uint16_t CAPTURE_PKEY = 0xFFFF;              ///< BTH P_Key of every packet
inline constexpr uint32_t CAPTURE_QPN_OFFSET = 2;             ///< DestQP = packet::qp + this
inline constexpr uint64_t RETH_VA_BASE = 0x00007F0000000000;  ///< RETH VA of message slot 0
inline constexpr uint32_t RETH_RKEY_BASE = 0x00010000;        ///< RETH R_Key of host 0

/// Packet kinds of cycle::packet::kind as set by cycle::hca_array (models/cycle/hca.h).
enum class hca_packet_kind : uint8_t { data = 0, read_request, read_response, ack, nak };

/// Encodes `p` (see the file comment for the fields the model does not carry). Throws
/// std::logic_error when the result's length differs from p.wire_bytes (model and golden
/// library disagree), std::invalid_argument for an opcode the golden library rejects.
std::vector<uint8_t> wire_bytes_of(const cycle::packet& p);

}  // namespace ndr::tb
