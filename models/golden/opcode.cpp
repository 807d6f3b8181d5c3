#include "golden/opcode.h"

#include <array>
#include <stdexcept>
#include <string>

#include "golden/wire/aeth.h"
#include "golden/wire/bth.h"
#include "golden/wire/deth.h"
#include "golden/wire/immdt.h"
#include "golden/wire/reth.h"

namespace ndr::golden {
namespace {

// Header flags, combined per operation below.
enum ext : unsigned {
    NONE = 0,
    DETH = 1u << 0,
    RETH = 1u << 1,
    ATOMIC = 1u << 2,
    AETH = 1u << 3,
    ATOMIC_ACK = 1u << 4,
    IMM = 1u << 5,
    IETH = 1u << 6,
    PAYLOAD = 1u << 7,
};

struct op_row {
    const char* name;  // without the transport prefix
    unsigned flags;
    bool rc, uc;  // allowed on RC / UC
};

// Indexed by OpCode[4:0]; name == nullptr marks a reserved operation.
constexpr op_row OPS[32] = {
    {"SEND_FIRST", PAYLOAD, true, true},                                   // 0x00
    {"SEND_MIDDLE", PAYLOAD, true, true},                                  // 0x01
    {"SEND_LAST", PAYLOAD, true, true},                                    // 0x02
    {"SEND_LAST_WITH_IMMEDIATE", IMM | PAYLOAD, true, true},               // 0x03
    {"SEND_ONLY", PAYLOAD, true, true},                                    // 0x04
    {"SEND_ONLY_WITH_IMMEDIATE", IMM | PAYLOAD, true, true},               // 0x05
    {"RDMA_WRITE_FIRST", RETH | PAYLOAD, true, true},                      // 0x06
    {"RDMA_WRITE_MIDDLE", PAYLOAD, true, true},                            // 0x07
    {"RDMA_WRITE_LAST", PAYLOAD, true, true},                              // 0x08
    {"RDMA_WRITE_LAST_WITH_IMMEDIATE", IMM | PAYLOAD, true, true},         // 0x09
    {"RDMA_WRITE_ONLY", RETH | PAYLOAD, true, true},                       // 0x0A
    {"RDMA_WRITE_ONLY_WITH_IMMEDIATE", RETH | IMM | PAYLOAD, true, true},  // 0x0B
    {"RDMA_READ_REQUEST", RETH, true, false},                              // 0x0C
    {"RDMA_READ_RESPONSE_FIRST", AETH | PAYLOAD, true, false},             // 0x0D
    {"RDMA_READ_RESPONSE_MIDDLE", PAYLOAD, true, false},                   // 0x0E
    {"RDMA_READ_RESPONSE_LAST", AETH | PAYLOAD, true, false},              // 0x0F
    {"RDMA_READ_RESPONSE_ONLY", AETH | PAYLOAD, true, false},              // 0x10
    {"ACKNOWLEDGE", AETH, true, false},                                    // 0x11
    {"ATOMIC_ACKNOWLEDGE", AETH | ATOMIC_ACK, true, false},                // 0x12
    {"COMPARE_SWAP", ATOMIC, true, false},                                 // 0x13
    {"FETCH_ADD", ATOMIC, true, false},                                    // 0x14
    {nullptr, NONE, false, false},                                         // 0x15 (RD RESYNC)
    {"SEND_LAST_WITH_INVALIDATE", IETH | PAYLOAD, true, false},            // 0x16
    {"SEND_ONLY_WITH_INVALIDATE", IETH | PAYLOAD, true, false},            // 0x17
};

// Full names, so that describe_opcode() can return a stable const char*.
constexpr const char* RC_NAMES[24] = {
    "RC_SEND_FIRST",
    "RC_SEND_MIDDLE",
    "RC_SEND_LAST",
    "RC_SEND_LAST_WITH_IMMEDIATE",
    "RC_SEND_ONLY",
    "RC_SEND_ONLY_WITH_IMMEDIATE",
    "RC_RDMA_WRITE_FIRST",
    "RC_RDMA_WRITE_MIDDLE",
    "RC_RDMA_WRITE_LAST",
    "RC_RDMA_WRITE_LAST_WITH_IMMEDIATE",
    "RC_RDMA_WRITE_ONLY",
    "RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",
    "RC_RDMA_READ_REQUEST",
    "RC_RDMA_READ_RESPONSE_FIRST",
    "RC_RDMA_READ_RESPONSE_MIDDLE",
    "RC_RDMA_READ_RESPONSE_LAST",
    "RC_RDMA_READ_RESPONSE_ONLY",
    "RC_ACKNOWLEDGE",
    "RC_ATOMIC_ACKNOWLEDGE",
    "RC_COMPARE_SWAP",
    "RC_FETCH_ADD",
    nullptr,
    "RC_SEND_LAST_WITH_INVALIDATE",
    "RC_SEND_ONLY_WITH_INVALIDATE",
};
constexpr const char* UC_NAMES[12] = {
    "UC_SEND_FIRST",       "UC_SEND_MIDDLE",
    "UC_SEND_LAST",        "UC_SEND_LAST_WITH_IMMEDIATE",
    "UC_SEND_ONLY",        "UC_SEND_ONLY_WITH_IMMEDIATE",
    "UC_RDMA_WRITE_FIRST", "UC_RDMA_WRITE_MIDDLE",
    "UC_RDMA_WRITE_LAST",  "UC_RDMA_WRITE_LAST_WITH_IMMEDIATE",
    "UC_RDMA_WRITE_ONLY",  "UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE",
};

// Returns nullptr when unsupported; otherwise fills flags.
const char* lookup(uint8_t opcode, unsigned& flags) {
    const uint8_t transport = opcode & TRANSPORT_MASK;
    const uint8_t op = opcode & 0x1F;
    switch (transport) {
        case TRANSPORT_RC:
            if (op < 24 && OPS[op].name != nullptr && OPS[op].rc) {
                flags = OPS[op].flags;
                return RC_NAMES[op];
            }
            return nullptr;
        case TRANSPORT_UC:
            if (op < 12 && OPS[op].uc) {
                flags = OPS[op].flags;
                return UC_NAMES[op];
            }
            return nullptr;
        case TRANSPORT_UD:
            if (op == OP_SEND_ONLY) {
                flags = DETH | PAYLOAD;
                return "UD_SEND_ONLY";
            }
            if (op == OP_SEND_ONLY_WITH_IMMEDIATE) {
                flags = DETH | IMM | PAYLOAD;
                return "UD_SEND_ONLY_WITH_IMMEDIATE";
            }
            return nullptr;
        default:
            return nullptr;
    }
}

}  // namespace

bool opcode_supported(uint8_t opcode) {
    unsigned flags = 0;
    return lookup(opcode, flags) != nullptr;
}

uint32_t opcode_hdr_len(uint8_t opcode) {
    static const std::array<uint8_t, 256> table = [] {
        std::array<uint8_t, 256> t{};  // 0: unsupported (a header is at least the 12 B BTH)
        for (uint32_t op = 0; op < 256; ++op) {
            if (opcode_supported(static_cast<uint8_t>(op))) {
                t[op] = static_cast<uint8_t>(describe_opcode(static_cast<uint8_t>(op)).hdr_len);
            }
        }
        return t;
    }();
    const uint32_t len = table[opcode];
    return len != 0 ? len : describe_opcode(opcode).hdr_len;  // the latter throws
}

opcode_info describe_opcode(uint8_t opcode) {
    unsigned flags = 0;
    const char* name = lookup(opcode, flags);
    if (name == nullptr) {
        throw std::invalid_argument("bth.opcode = " + std::to_string(opcode) +
                                    " is not a supported RC/UC/UD opcode");
    }
    opcode_info info;
    info.name = name;
    info.deth = (flags & DETH) != 0;
    info.reth = (flags & RETH) != 0;
    info.atomic_eth = (flags & ATOMIC) != 0;
    info.aeth = (flags & AETH) != 0;
    info.atomic_ack_eth = (flags & ATOMIC_ACK) != 0;
    info.immdt = (flags & IMM) != 0;
    info.ieth = (flags & IETH) != 0;
    info.payload = (flags & PAYLOAD) != 0;
    uint32_t ext = 0;
    ext += info.deth ? static_cast<uint32_t>(deth::SIZE) : 0;
    ext += info.reth ? static_cast<uint32_t>(reth::SIZE) : 0;
    ext += info.atomic_eth ? ATOMIC_ETH_SIZE : 0;
    ext += info.aeth ? static_cast<uint32_t>(aeth::SIZE) : 0;
    ext += info.atomic_ack_eth ? ATOMIC_ACK_ETH_SIZE : 0;
    ext += info.immdt ? static_cast<uint32_t>(immdt::SIZE) : 0;
    ext += info.ieth ? IETH_SIZE : 0;
    info.ext_len = ext;
    info.hdr_len = static_cast<uint32_t>(bth::SIZE) + ext;
    return info;
}

}  // namespace ndr::golden
