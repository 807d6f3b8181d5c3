#include "golden/rc_segment.h"

#include <algorithm>

#include "golden/opcode.h"

namespace ndr::golden {

uint32_t rc_packet_count(uint64_t bytes, uint32_t mtu) {
    return bytes == 0 ? 1U : static_cast<uint32_t>((bytes + mtu - 1) / mtu);
}

uint32_t rc_packet_payload(uint64_t bytes, uint32_t mtu, uint32_t index) {
    const uint64_t off = uint64_t{index} * mtu;
    return static_cast<uint32_t>(std::min<uint64_t>(mtu, bytes > off ? bytes - off : 0));
}

uint8_t rc_data_opcode(rc_stream s, uint32_t index, uint32_t packets) {
    const bool first = index == 0;
    const bool last = index + 1 == packets;
    switch (s) {
        case rc_stream::read_request:
            return RC_RDMA_READ_REQUEST;
        case rc_stream::read_response:
            if (first && last) return RC_RDMA_READ_RESPONSE_ONLY;
            if (first) return RC_RDMA_READ_RESPONSE_FIRST;
            return last ? RC_RDMA_READ_RESPONSE_LAST : RC_RDMA_READ_RESPONSE_MIDDLE;
        case rc_stream::send:
            if (first && last) return RC_SEND_ONLY;
            if (first) return RC_SEND_FIRST;
            return last ? RC_SEND_LAST : RC_SEND_MIDDLE;
        case rc_stream::rdma_write:
            if (first && last) return RC_RDMA_WRITE_ONLY;
            if (first) return RC_RDMA_WRITE_FIRST;
            return last ? RC_RDMA_WRITE_LAST : RC_RDMA_WRITE_MIDDLE;
        case rc_stream::rdma_write_imm:
        default:
            if (first && last) return RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
            if (first) return RC_RDMA_WRITE_FIRST;
            return last ? RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : RC_RDMA_WRITE_MIDDLE;
    }
}

}  // namespace ndr::golden
