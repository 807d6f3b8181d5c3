#include "golden/roce_packet.h"

#include <algorithm>
#include <cmath>

#include "golden/ib_packet.h"
#include "golden/opcode.h"
#include "golden/wire/crc.h"

namespace ndr::golden {
namespace {

void put16(uint8_t* p, uint16_t v) {
    p[0] = static_cast<uint8_t>(v >> 8);
    p[1] = static_cast<uint8_t>(v);
}
void put32(uint8_t* p, uint32_t v) {
    put16(p, static_cast<uint16_t>(v >> 16));
    put16(p + 2, static_cast<uint16_t>(v));
}
/// BTH + extended headers + payload + pad + ICRC: the part RoCEv2 shares with IB.
uint32_t transport_bytes(uint32_t payload_bytes, uint8_t opcode) {
    return opcode_hdr_len(opcode) + payload_bytes + pad_bytes(payload_bytes) +
           static_cast<uint32_t>(ICRC_SIZE);
}

}  // namespace

void eth_header::encode(uint8_t* out) const {
    std::copy(dst.begin(), dst.end(), out);
    std::copy(src.begin(), src.end(), out + 6);
    put16(out + 12, ethertype);
}

void ipv4_header::encode(uint8_t* out) const {
    out[0] = 0x45;  // version 4, IHL 5
    out[1] = static_cast<uint8_t>((dscp << 2) | (ecn & 3U));
    put16(out + 2, total_length);
    put16(out + 4, identification);
    put16(out + 6, dont_fragment ? 0x4000 : 0);
    out[8] = ttl;
    out[9] = protocol;
    put16(out + 10, 0);
    put32(out + 12, src);
    put32(out + 16, dst);
    put16(out + 10, internet_checksum(out, IPV4_HDR_BYTES));
}

void udp_header::encode(uint8_t* out) const {
    put16(out, src_port);
    put16(out + 2, dst_port);
    put16(out + 4, length);
    put16(out + 6, checksum);
}

uint16_t internet_checksum(const uint8_t* data, std::size_t len) {
    uint32_t sum = 0;
    for (std::size_t i = 0; i + 1 < len; i += 2) sum += (uint32_t{data[i]} << 8) | data[i + 1];
    if (len % 2 != 0) sum += uint32_t{data[len - 1]} << 8;
    while ((sum >> 16) != 0) sum = (sum & 0xFFFFU) + (sum >> 16);
    return static_cast<uint16_t>(~sum);
}

uint32_t roce_frame_bytes(uint32_t payload_bytes, uint8_t opcode) {
    const uint32_t frame = ETH_HDR_BYTES + IPV4_HDR_BYTES + UDP_HDR_BYTES +
                           transport_bytes(payload_bytes, opcode) + ETH_FCS_BYTES;
    return std::max(frame, ETH_MIN_FRAME);
}

uint32_t roce_wire_bytes(uint32_t payload_bytes, uint8_t opcode) {
    return roce_frame_bytes(payload_bytes, opcode) + ETH_WIRE_OVERHEAD;
}

uint32_t roce_ipv4_total_length(uint32_t payload_bytes, uint8_t opcode) {
    return IPV4_HDR_BYTES + UDP_HDR_BYTES + transport_bytes(payload_bytes, opcode);
}

uint32_t roce_cnp_frame_bytes() {
    return ETH_HDR_BYTES + IPV4_HDR_BYTES + UDP_HDR_BYTES + 12 + 16 +
           static_cast<uint32_t>(ICRC_SIZE) + ETH_FCS_BYTES;
}

uint32_t roce_cnp_wire_bytes() {
    return roce_cnp_frame_bytes() + ETH_WIRE_OVERHEAD;
}

uint16_t roce_udp_src_port(uint32_t qpn) {
    uint32_t h = qpn * 0x9E3779B1U;  // Fibonacci hash: spreads consecutive QP numbers
    h ^= h >> 15;
    return static_cast<uint16_t>(0xC000U | (h & 0x3FFFU));
}

uint32_t ecmp_member(uint32_t src_ip, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port,
                     uint32_t seed, uint32_t members) {
    uint8_t key[17];
    put32(key, seed);
    put32(key + 4, src_ip);
    put32(key + 8, dst_ip);
    key[12] = IPPROTO_UDP_NUM;
    put16(key + 13, src_port);
    put16(key + 15, dst_port);
    return members == 0 ? 0 : crc32_ieee(key, sizeof key) % members;
}

uint64_t pfc_headroom_bytes(uint64_t rate_bps, uint64_t link_delay_ps, uint64_t reaction_ps,
                            uint32_t max_frame_wire, uint64_t upstream_staged) {
    // bytes = ps x bps / 8e12, rounded up.
    const auto bytes_in = [rate_bps](uint64_t ps) {
        const long double bytes =
            static_cast<long double>(ps) * static_cast<long double>(rate_bps) / 8e12L;
        return static_cast<uint64_t>(std::ceil(bytes - 1e-9L));
    };
    return bytes_in(2 * link_delay_ps) + bytes_in(reaction_ps) + 2ULL * max_frame_wire +
           PFC_WIRE_BYTES + upstream_staged;
}

}  // namespace ndr::golden
