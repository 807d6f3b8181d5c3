#include "packet_bytes.h"

#include <fmt/format.h>

#include <stdexcept>

#include "golden/ib_packet.h"
#include "golden/wire/aeth.h"

namespace ndr::tb {

std::vector<uint8_t> wire_bytes_of(const cycle::packet& p) {
    golden::packet_fields f;
    f.lrh_hdr.vl = p.vl;
    f.lrh_hdr.sl = p.sl;
    f.lrh_hdr.dlid = static_cast<uint16_t>(p.dst + 1U);
    f.lrh_hdr.slid = static_cast<uint16_t>(p.src + 1U);
    f.bth_hdr.opcode = p.opcode;
    f.bth_hdr.pkey = CAPTURE_PKEY;
    f.bth_hdr.destqp = (p.qp + CAPTURE_QPN_OFFSET) & 0xFFFFFFU;
    f.bth_hdr.psn = p.psn & 0xFFFFFFU;
    // AckReq as the requester set it (golden::rc_ack_req); responses never carry it.
    f.bth_hdr.ackreq =
        p.ack_req != 0 && p.kind != static_cast<uint8_t>(hca_packet_kind::read_response);
    f.reth_hdr.va = RETH_VA_BASE + (uint64_t{p.msg} << 24);
    f.reth_hdr.rkey = RETH_RKEY_BASE + p.dst;
    f.reth_hdr.dma_len = p.payload_bytes;
    f.immdt_hdr.data = p.msg;
    f.aeth_hdr.syndrome = p.kind == static_cast<uint8_t>(hca_packet_kind::nak)
                              ? golden::AETH_NAK_PSN_SEQ_ERROR
                              : uint8_t{0};
    f.aeth_hdr.msn = 0;
    // Payload contents are not simulated: zero bytes of the modelled length.
    const std::vector<uint8_t> payload(p.payload_bytes, 0);
    std::vector<uint8_t> bytes = golden::build_packet(f, payload);
    if (bytes.size() != p.wire_bytes) {
        throw std::logic_error(fmt::format(
            "packet {} (opcode 0x{:02x}, {} B payload): the model says {} wire bytes, the golden "
            "library built {}",
            p.id, p.opcode, p.payload_bytes, p.wire_bytes, bytes.size()));
    }
    return bytes;
}

}  // namespace ndr::tb
