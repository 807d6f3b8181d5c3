#include "golden/ib_packet.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "golden/wire/crc.h"
#include "golden/wire/ib_field.h"

namespace ndr::golden {
namespace {

void check_mtu(uint32_t mtu) {
    if (mtu != 256 && mtu != 512 && mtu != 1024 && mtu != 2048 && mtu != 4096) {
        throw std::invalid_argument("mtu = " + std::to_string(mtu) +
                                    " is not one of 256, 512, 1024, 2048, 4096");
    }
}

// Writes the extended headers of `op` at `out`, in wire order; returns bytes written.
size_t encode_ext(const packet_fields& f, const opcode_info& op, uint8_t* out) {
    uint8_t* p = out;
    if (op.deth) {
        f.deth_hdr.encode(p);
        p += deth::SIZE;
    }
    if (op.reth) {
        f.reth_hdr.encode(p);
        p += reth::SIZE;
    }
    if (op.atomic_eth) {
        detail::put_be(p, f.atomic_va, 8);
        detail::put_be(p + 8, f.atomic_rkey, 4);
        detail::put_be(p + 12, f.atomic_swap_add, 8);
        detail::put_be(p + 20, f.atomic_compare, 8);
        p += ATOMIC_ETH_SIZE;
    }
    if (op.aeth) {
        f.aeth_hdr.encode(p);
        p += aeth::SIZE;
    }
    if (op.atomic_ack_eth) {
        detail::put_be(p, f.atomic_ack_orig, 8);
        p += ATOMIC_ACK_ETH_SIZE;
    }
    if (op.immdt) {
        f.immdt_hdr.encode(p);
        p += immdt::SIZE;
    }
    if (op.ieth) {
        detail::put_be(p, f.ieth_rkey, 4);
        p += IETH_SIZE;
    }
    return static_cast<size_t>(p - out);
}

size_t decode_ext(packet_fields& f, const opcode_info& op, const uint8_t* in) {
    const uint8_t* p = in;
    if (op.deth) {
        f.deth_hdr = deth::decode(p);
        p += deth::SIZE;
    }
    if (op.reth) {
        f.reth_hdr = reth::decode(p);
        p += reth::SIZE;
    }
    if (op.atomic_eth) {
        f.atomic_va = detail::get_be(p, 8);
        f.atomic_rkey = static_cast<uint32_t>(detail::get_be(p + 8, 4));
        f.atomic_swap_add = detail::get_be(p + 12, 8);
        f.atomic_compare = detail::get_be(p + 20, 8);
        p += ATOMIC_ETH_SIZE;
    }
    if (op.aeth) {
        f.aeth_hdr = aeth::decode(p);
        p += aeth::SIZE;
    }
    if (op.atomic_ack_eth) {
        f.atomic_ack_orig = detail::get_be(p, 8);
        p += ATOMIC_ACK_ETH_SIZE;
    }
    if (op.immdt) {
        f.immdt_hdr = immdt::decode(p);
        p += immdt::SIZE;
    }
    if (op.ieth) {
        f.ieth_rkey = static_cast<uint32_t>(detail::get_be(p, 4));
        p += IETH_SIZE;
    }
    return static_cast<size_t>(p - in);
}

}  // namespace

bool packet_fields::same_headers(const packet_fields& o) const {
    if (lrh_hdr != o.lrh_hdr || has_grh != o.has_grh || bth_hdr != o.bth_hdr) {
        return false;
    }
    if (has_grh && grh_hdr != o.grh_hdr) {
        return false;
    }
    if (!opcode_supported(bth_hdr.opcode)) {
        return true;
    }
    const opcode_info op = describe_opcode(bth_hdr.opcode);
    return (!op.deth || deth_hdr == o.deth_hdr) && (!op.reth || reth_hdr == o.reth_hdr) &&
           (!op.atomic_eth ||
            (atomic_va == o.atomic_va && atomic_rkey == o.atomic_rkey &&
             atomic_swap_add == o.atomic_swap_add && atomic_compare == o.atomic_compare)) &&
           (!op.aeth || aeth_hdr == o.aeth_hdr) &&
           (!op.atomic_ack_eth || atomic_ack_orig == o.atomic_ack_orig) &&
           (!op.immdt || immdt_hdr == o.immdt_hdr) && (!op.ieth || ieth_rkey == o.ieth_rkey);
}

uint32_t pad_bytes(uint32_t payload_bytes) {
    return (4u - (payload_bytes & 3u)) & 3u;
}

uint32_t wire_bytes(uint32_t payload_bytes, uint8_t opcode, bool has_grh) {
    return static_cast<uint32_t>(lrh::SIZE) + (has_grh ? static_cast<uint32_t>(grh::SIZE) : 0u) +
           opcode_hdr_len(opcode) + payload_bytes + pad_bytes(payload_bytes) +
           static_cast<uint32_t>(ICRC_SIZE + VCRC_SIZE);
}

uint32_t pktlen_words(uint32_t payload_bytes, uint8_t opcode, bool has_grh) {
    return (wire_bytes(payload_bytes, opcode, has_grh) - static_cast<uint32_t>(VCRC_SIZE)) / 4;
}

std::vector<uint8_t> build_packet(const packet_fields& fields, const uint8_t* payload,
                                  size_t payload_size, uint32_t mtu) {
    check_mtu(mtu);
    if (payload_size > mtu) {
        throw std::invalid_argument("payload of " + std::to_string(payload_size) +
                                    " bytes exceeds the MTU of " + std::to_string(mtu));
    }
    const opcode_info op = describe_opcode(fields.bth_hdr.opcode);
    if (!op.payload && payload_size != 0) {
        throw std::invalid_argument(std::string("opcode ") + op.name + " carries no payload, got " +
                                    std::to_string(payload_size) + " bytes");
    }
    const auto pay = static_cast<uint32_t>(payload_size);
    const uint32_t pad = pad_bytes(pay);
    const uint32_t total = wire_bytes(pay, fields.bth_hdr.opcode, fields.has_grh);
    const uint32_t words = pktlen_words(pay, fields.bth_hdr.opcode, fields.has_grh);
    const uint32_t max_words = (mtu + IB_MAX_PKT_OVERHEAD) / 4;
    if (words > max_words) {
        throw std::invalid_argument("lrh.pktlen = " + std::to_string(words) + " exceeds (mtu + " +
                                    std::to_string(IB_MAX_PKT_OVERHEAD) +
                                    ") / 4 = " + std::to_string(max_words));
    }

    std::vector<uint8_t> out(total, 0);
    uint8_t* p = out.data();

    lrh l = fields.lrh_hdr;
    l.lnh = fields.has_grh ? LNH_IBA_GLOBAL : LNH_IBA_LOCAL;
    l.pktlen = static_cast<uint16_t>(words);
    l.encode(p);
    p += lrh::SIZE;

    if (fields.has_grh) {
        grh g = fields.grh_hdr;
        // Bytes after the GRH through the ICRC.
        g.paylen = static_cast<uint16_t>(words * 4 - lrh::SIZE - grh::SIZE);
        g.encode(p);
        p += grh::SIZE;
    }

    bth b = fields.bth_hdr;
    b.padcnt = static_cast<uint8_t>(pad);
    b.encode(p);
    p += bth::SIZE;

    p += encode_ext(fields, op, p);
    if (payload_size != 0) {
        std::copy(payload, payload + payload_size, p);
    }
    p += payload_size + pad;  // pad bytes stay 0

    const auto icrc_at = static_cast<size_t>(p - out.data());
    put_icrc(p, icrc(out.data(), icrc_at));
    p += ICRC_SIZE;
    put_vcrc(p, vcrc(out.data(), icrc_at + ICRC_SIZE));
    return out;
}

std::vector<uint8_t> build_packet(const packet_fields& fields, const std::vector<uint8_t>& payload,
                                  uint32_t mtu) {
    return build_packet(fields, payload.data(), payload.size(), mtu);
}

parsed_packet parse_packet(const uint8_t* pkt, size_t len) {
    constexpr size_t crcs = ICRC_SIZE + VCRC_SIZE;
    if (len < lrh::SIZE + bth::SIZE + crcs) {
        throw std::invalid_argument("parse_packet: " + std::to_string(len) +
                                    " bytes is shorter than LRH + BTH + ICRC + VCRC");
    }
    parsed_packet r;
    packet_fields& f = r.fields;
    f.lrh_hdr = lrh::decode(pkt);
    if (f.lrh_hdr.lnh != LNH_IBA_LOCAL && f.lrh_hdr.lnh != LNH_IBA_GLOBAL) {
        throw std::invalid_argument("parse_packet: lrh.lnh = " + std::to_string(f.lrh_hdr.lnh) +
                                    " (raw packet) is not supported");
    }
    if (size_t{f.lrh_hdr.pktlen} * 4 + VCRC_SIZE != len) {
        throw std::invalid_argument(
            "parse_packet: lrh.pktlen = " + std::to_string(f.lrh_hdr.pktlen) +
            " words does not match " + std::to_string(len) + " bytes received");
    }
    f.has_grh = f.lrh_hdr.lnh == LNH_IBA_GLOBAL;
    size_t off = lrh::SIZE;
    if (f.has_grh) {
        if (len < lrh::SIZE + grh::SIZE + bth::SIZE + crcs) {
            throw std::invalid_argument("parse_packet: " + std::to_string(len) +
                                        " bytes is shorter than LRH + GRH + BTH + CRCs");
        }
        f.grh_hdr = grh::decode(pkt + off);
        off += grh::SIZE;
    }
    f.bth_hdr = bth::decode(pkt + off);
    off += bth::SIZE;
    r.op = describe_opcode(f.bth_hdr.opcode);
    const size_t body_end = len - crcs;  // first ICRC byte
    if (off + r.op.ext_len + f.bth_hdr.padcnt > body_end) {
        throw std::invalid_argument(std::string("parse_packet: ") + r.op.name + " with padcnt " +
                                    std::to_string(f.bth_hdr.padcnt) + " needs more than " +
                                    std::to_string(len) + " bytes");
    }
    off += decode_ext(f, r.op, pkt + off);
    r.payload = pkt + off;
    r.payload_size = body_end - off - f.bth_hdr.padcnt;
    if (!r.op.payload && (r.payload_size != 0 || f.bth_hdr.padcnt != 0)) {
        throw std::invalid_argument(std::string("parse_packet: ") + r.op.name +
                                    " carries no payload, found " + std::to_string(body_end - off) +
                                    " bytes");
    }
    r.icrc_wire = get_icrc(pkt + body_end);
    r.icrc_calc = icrc(pkt, body_end);
    r.vcrc_wire = get_vcrc(pkt + body_end + ICRC_SIZE);
    r.vcrc_calc = vcrc(pkt, body_end + ICRC_SIZE);
    r.icrc_ok = r.icrc_wire == r.icrc_calc;
    r.vcrc_ok = r.vcrc_wire == r.vcrc_calc;
    return r;
}

parsed_packet parse_packet(const std::vector<uint8_t>& pkt) {
    return parse_packet(pkt.data(), pkt.size());
}

}  // namespace ndr::golden
