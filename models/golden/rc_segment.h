// RC message segmentation (IBA Vol. 1 §9.2, §9.4): how a message of `bytes` splits into
// MTU-sized packets and which opcode each packet carries. SystemC-free; used by the cycle-level
// HCA (models/cycle/hca_tx.cpp) and the TLM HCA (tlm/hca_tlm_tx.cpp) so they cannot drift.
#pragma once
#include <cstdint>

namespace ndr::golden {

/// The kind of RC data stream a packet belongs to.
enum class rc_stream : uint8_t {
    rdma_write,      ///< RDMA WRITE
    rdma_write_imm,  ///< RDMA WRITE with immediate: the last packet carries ImmDt
    send,            ///< SEND
    read_request,    ///< RDMA READ request (one packet, no payload)
    read_response,   ///< RDMA READ response packets
};

/// Packets of a message: ceil(bytes / mtu), at least 1 (a zero-byte message is one packet).
[[nodiscard]] uint32_t rc_packet_count(uint64_t bytes, uint32_t mtu);

/// Payload bytes of packet `index` of a `bytes`-byte message: mtu for all but the last, the
/// remainder for the last, 0 past the end. A read request carries no payload (pass bytes 0).
[[nodiscard]] uint32_t rc_packet_payload(uint64_t bytes, uint32_t mtu, uint32_t index);

/// BTH opcode of packet `index` of a stream of `packets` packets: ONLY for a one-packet
/// message, else FIRST, MIDDLE..., LAST (WITH_IMMEDIATE variants for rdma_write_imm).
[[nodiscard]] uint8_t rc_data_opcode(rc_stream s, uint32_t index, uint32_t packets);

}  // namespace ndr::golden
