// BTH opcodes for RC, UC and UD, and the extended headers each one carries (docs/domain.md §1.4,
// §1.5). Values and header sets follow Linux include/rdma/ib_pack.h and
// drivers/infiniband/sw/rxe/rxe_opcode.c. RD (0x40..0x5F) is not modelled. SystemC-free.
#pragma once
#include <cstdint>

namespace ndr::golden {

/// OpCode[7:5]: transport service.
inline constexpr uint8_t TRANSPORT_RC = 0x00;  ///< reliable connection
inline constexpr uint8_t TRANSPORT_UC = 0x20;  ///< unreliable connection
inline constexpr uint8_t TRANSPORT_RD = 0x40;  ///< reliable datagram (not modelled)
inline constexpr uint8_t TRANSPORT_UD = 0x60;  ///< unreliable datagram
inline constexpr uint8_t TRANSPORT_MASK = 0xE0;

// OpCode[4:0]: operation.
inline constexpr uint8_t OP_SEND_FIRST = 0x00;
inline constexpr uint8_t OP_SEND_MIDDLE = 0x01;
inline constexpr uint8_t OP_SEND_LAST = 0x02;
inline constexpr uint8_t OP_SEND_LAST_WITH_IMMEDIATE = 0x03;
inline constexpr uint8_t OP_SEND_ONLY = 0x04;
inline constexpr uint8_t OP_SEND_ONLY_WITH_IMMEDIATE = 0x05;
inline constexpr uint8_t OP_RDMA_WRITE_FIRST = 0x06;
inline constexpr uint8_t OP_RDMA_WRITE_MIDDLE = 0x07;
inline constexpr uint8_t OP_RDMA_WRITE_LAST = 0x08;
inline constexpr uint8_t OP_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09;
inline constexpr uint8_t OP_RDMA_WRITE_ONLY = 0x0A;
inline constexpr uint8_t OP_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B;
inline constexpr uint8_t OP_RDMA_READ_REQUEST = 0x0C;
inline constexpr uint8_t OP_RDMA_READ_RESPONSE_FIRST = 0x0D;
inline constexpr uint8_t OP_RDMA_READ_RESPONSE_MIDDLE = 0x0E;
inline constexpr uint8_t OP_RDMA_READ_RESPONSE_LAST = 0x0F;
inline constexpr uint8_t OP_RDMA_READ_RESPONSE_ONLY = 0x10;
inline constexpr uint8_t OP_ACKNOWLEDGE = 0x11;
inline constexpr uint8_t OP_ATOMIC_ACKNOWLEDGE = 0x12;
inline constexpr uint8_t OP_COMPARE_SWAP = 0x13;
inline constexpr uint8_t OP_FETCH_ADD = 0x14;
inline constexpr uint8_t OP_SEND_LAST_WITH_INVALIDATE = 0x16;
inline constexpr uint8_t OP_SEND_ONLY_WITH_INVALIDATE = 0x17;

// Reliable connection (TRANSPORT_RC | OP_*).
inline constexpr uint8_t RC_SEND_FIRST = 0x00;
inline constexpr uint8_t RC_SEND_MIDDLE = 0x01;
inline constexpr uint8_t RC_SEND_LAST = 0x02;
inline constexpr uint8_t RC_SEND_LAST_WITH_IMMEDIATE = 0x03;
inline constexpr uint8_t RC_SEND_ONLY = 0x04;
inline constexpr uint8_t RC_SEND_ONLY_WITH_IMMEDIATE = 0x05;
inline constexpr uint8_t RC_RDMA_WRITE_FIRST = 0x06;
inline constexpr uint8_t RC_RDMA_WRITE_MIDDLE = 0x07;
inline constexpr uint8_t RC_RDMA_WRITE_LAST = 0x08;
inline constexpr uint8_t RC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x09;
inline constexpr uint8_t RC_RDMA_WRITE_ONLY = 0x0A;
inline constexpr uint8_t RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x0B;
inline constexpr uint8_t RC_RDMA_READ_REQUEST = 0x0C;
inline constexpr uint8_t RC_RDMA_READ_RESPONSE_FIRST = 0x0D;
inline constexpr uint8_t RC_RDMA_READ_RESPONSE_MIDDLE = 0x0E;
inline constexpr uint8_t RC_RDMA_READ_RESPONSE_LAST = 0x0F;
inline constexpr uint8_t RC_RDMA_READ_RESPONSE_ONLY = 0x10;
inline constexpr uint8_t RC_ACKNOWLEDGE = 0x11;
inline constexpr uint8_t RC_ATOMIC_ACKNOWLEDGE = 0x12;
inline constexpr uint8_t RC_COMPARE_SWAP = 0x13;
inline constexpr uint8_t RC_FETCH_ADD = 0x14;
inline constexpr uint8_t RC_SEND_LAST_WITH_INVALIDATE = 0x16;
inline constexpr uint8_t RC_SEND_ONLY_WITH_INVALIDATE = 0x17;

// Unreliable connection (TRANSPORT_UC | OP_*): SEND and RDMA WRITE only.
inline constexpr uint8_t UC_SEND_FIRST = 0x20;
inline constexpr uint8_t UC_SEND_MIDDLE = 0x21;
inline constexpr uint8_t UC_SEND_LAST = 0x22;
inline constexpr uint8_t UC_SEND_LAST_WITH_IMMEDIATE = 0x23;
inline constexpr uint8_t UC_SEND_ONLY = 0x24;
inline constexpr uint8_t UC_SEND_ONLY_WITH_IMMEDIATE = 0x25;
inline constexpr uint8_t UC_RDMA_WRITE_FIRST = 0x26;
inline constexpr uint8_t UC_RDMA_WRITE_MIDDLE = 0x27;
inline constexpr uint8_t UC_RDMA_WRITE_LAST = 0x28;
inline constexpr uint8_t UC_RDMA_WRITE_LAST_WITH_IMMEDIATE = 0x29;
inline constexpr uint8_t UC_RDMA_WRITE_ONLY = 0x2A;
inline constexpr uint8_t UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE = 0x2B;

// Unreliable datagram (TRANSPORT_UD | OP_*): SEND_ONLY only.
inline constexpr uint8_t UD_SEND_ONLY = 0x64;
inline constexpr uint8_t UD_SEND_ONLY_WITH_IMMEDIATE = 0x65;

/// Extended-header byte sizes not covered by a header struct of their own (docs/domain.md §1.5).
inline constexpr uint32_t IETH_SIZE = 4;            ///< R_Key to invalidate
inline constexpr uint32_t ATOMIC_ETH_SIZE = 28;     ///< VA 64, R_Key 32, swap/add 64, compare 64
inline constexpr uint32_t ATOMIC_ACK_ETH_SIZE = 8;  ///< original remote data 64

/// What one opcode carries after the BTH. On the wire the extended headers appear in the order
/// DETH, RETH, AtomicETH, AETH, AtomicAckETH, ImmDt, IETH (ib_pack.h / rxe_opcode.c).
struct opcode_info {
    const char* name = "";        ///< e.g. "RC_SEND_ONLY"
    bool deth = false;            ///< 8 B datagram ETH (UD)
    bool reth = false;            ///< 16 B RDMA ETH
    bool atomic_eth = false;      ///< 28 B atomic ETH
    bool aeth = false;            ///< 4 B ACK ETH
    bool atomic_ack_eth = false;  ///< 8 B atomic-ACK ETH
    bool immdt = false;           ///< 4 B immediate data
    bool ieth = false;            ///< 4 B invalidate ETH
    bool payload = false;         ///< may carry payload (false: payload must be empty)
    uint32_t ext_len = 0;         ///< bytes of extended headers (0..28)
    uint32_t hdr_len = 0;         ///< bytes of BTH + extended headers (12..40)
};

/// True for the RC, UC and UD opcodes listed above.
bool opcode_supported(uint8_t opcode);
/// Header layout of `opcode`; throws std::invalid_argument for an unsupported opcode.
opcode_info describe_opcode(uint8_t opcode);
/// describe_opcode(opcode).hdr_len from a table built once (wire sizes are asked per packet);
/// throws as describe_opcode for an unsupported opcode.
uint32_t opcode_hdr_len(uint8_t opcode);

}  // namespace ndr::golden
