// RoCEv2 framing and Ethernet link rules (docs/roce.md), SystemC-free.
//
// A RoCEv2 frame is Ethernet II (14 B) + IPv4 (20 B, protocol 17) + UDP (8 B, destination
// port 4791) + the IB transport headers (BTH + extended headers, as on IB) + payload + pad +
// ICRC (4 B) + Ethernet FCS (4 B): the IB LRH (8 B) and VCRC (2 B) are replaced by the
// 46 B of Ethernet/IPv4/UDP headers and the FCS. On the wire every frame also costs the
// preamble + SFD (8 B) and the minimum inter-frame gap (12 B). Frames are at least 64 B
// (destination MAC through FCS); PFC PAUSE frames are minimum-size MAC control frames.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

inline constexpr uint32_t ETH_HDR_BYTES = 14;   ///< dst MAC, src MAC, EtherType
inline constexpr uint32_t IPV4_HDR_BYTES = 20;  ///< no options
inline constexpr uint32_t UDP_HDR_BYTES = 8;
inline constexpr uint32_t ETH_FCS_BYTES = 4;
inline constexpr uint32_t ETH_PREAMBLE_SFD_BYTES = 8;
inline constexpr uint32_t ETH_IFG_BYTES = 12;  ///< minimum inter-frame gap
inline constexpr uint32_t ETH_WIRE_OVERHEAD = ETH_PREAMBLE_SFD_BYTES + ETH_IFG_BYTES;  ///< 20
inline constexpr uint32_t ETH_MIN_FRAME = 64;  ///< dst MAC .. FCS
inline constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
inline constexpr uint16_t ETHERTYPE_MAC_CONTROL = 0x8808;
inline constexpr uint16_t PFC_OPCODE = 0x0101;  ///< IEEE 802.1Qbb class-based PAUSE
inline constexpr uint16_t ROCEV2_UDP_PORT = 4791;
inline constexpr uint8_t IPPROTO_UDP_NUM = 17;
/// PFC frame on the wire: a 64 B MAC control frame + preamble/SFD + IFG = 84 B.
inline constexpr uint32_t PFC_WIRE_BYTES = ETH_MIN_FRAME + ETH_WIRE_OVERHEAD;

/// Ethernet II header.
struct eth_header {
    std::array<uint8_t, 6> dst{};
    std::array<uint8_t, 6> src{};
    uint16_t ethertype = ETHERTYPE_IPV4;
    void encode(uint8_t* out) const;  ///< 14 bytes, network byte order
};

/// IPv4 header without options (IHL = 5).
struct ipv4_header {
    uint8_t dscp = 26;          ///< 6 bits (RoCE traffic class, commonly DSCP 26)
    uint8_t ecn = 1;            ///< 2 bits: 0 not-ECT, 1 ECT(1), 2 ECT(0), 3 CE
    uint16_t total_length = 0;  ///< bytes from this header through the ICRC (FCS excluded)
    uint16_t identification = 0;
    bool dont_fragment = true;
    uint8_t ttl = 64;
    uint8_t protocol = IPPROTO_UDP_NUM;
    uint32_t src = 0;
    uint32_t dst = 0;
    /// Writes 20 bytes with the header checksum filled in.
    void encode(uint8_t* out) const;
};

/// UDP header (RoCEv2 sends checksum 0).
struct udp_header {
    uint16_t src_port = 0;
    uint16_t dst_port = ROCEV2_UDP_PORT;
    uint16_t length = 0;  ///< bytes from this header through the ICRC
    uint16_t checksum = 0;
    void encode(uint8_t* out) const;  ///< 8 bytes
};

/// RFC 1071 internet checksum (one's complement of the one's-complement sum of 16-bit words)
/// over `len` bytes (an odd last byte is padded with zero). Over a header whose checksum
/// field holds the right value the result is 0.
uint16_t internet_checksum(const uint8_t* data, std::size_t len);

/// Frame bytes (dst MAC .. FCS) of a RoCEv2 packet with `payload_bytes` of payload and BTH
/// opcode `opcode` (extended headers from describe_opcode): 14 + 20 + 8 + BTH/ext + payload
/// + pad + 4 (ICRC) + 4 (FCS), at least 64. Throws std::invalid_argument for an unknown opcode.
uint32_t roce_frame_bytes(uint32_t payload_bytes, uint8_t opcode);
/// Bytes of link time of that frame: roce_frame_bytes + 20 (preamble/SFD + IFG).
uint32_t roce_wire_bytes(uint32_t payload_bytes, uint8_t opcode);
/// IPv4 total length (IPv4 header .. ICRC) of such a packet: frame - 14 - 4, before padding.
uint32_t roce_ipv4_total_length(uint32_t payload_bytes, uint8_t opcode);

/// RoCEv2 CNP (congestion notification packet): BTH opcode 0x81, 16 reserved bytes after the
/// BTH. Frame = 14 + 20 + 8 + 12 + 16 + 4 (ICRC) + 4 (FCS) = 78 B.
inline constexpr uint8_t ROCEV2_CNP_OPCODE = 0x81;
uint32_t roce_cnp_frame_bytes();
uint32_t roce_cnp_wire_bytes();  ///< + preamble/SFD + IFG

/// UDP source port of a QP's packets (RoCEv2 entropy for ECMP): 0xC000 | 14 bits of a hash
/// of the QP number, in the dynamic range 49152..65535 as the RoCEv2 annex recommends.
uint16_t roce_udp_src_port(uint32_t qpn);

/// ECMP member (0..members-1) of a flow's 5-tuple: CRC-32 (IEEE) over src IP, dst IP,
/// protocol, src port, dst port (13 bytes, network order) seeded per switch, modulo members.
uint32_t ecmp_member(uint32_t src_ip, uint32_t dst_ip, uint16_t src_port, uint16_t dst_port,
                     uint32_t seed, uint32_t members);

/// PFC headroom of one ingress (port, priority): the bytes that can still arrive after the
/// buffer crosses XOFF (IEEE 802.1Qbb Annex N reasoning, docs/roce.md):
///   2 x link_delay x rate     the PAUSE travels up while data keeps arriving (round trip
///                             of cable propagation + PHY/FEC latency),
/// + reaction x rate           the upstream MAC's response time,
/// + 2 x max_frame_wire        the PAUSE may wait behind a maximum frame at this end, and the
///                             upstream may just have started one when it stops,
/// + PFC_WIRE_BYTES            the PAUSE frame itself,
/// + upstream_staged           frames already committed to the upstream egress (model term).
uint64_t pfc_headroom_bytes(uint64_t rate_bps, uint64_t link_delay_ps, uint64_t reaction_ps,
                            uint32_t max_frame_wire, uint64_t upstream_staged);

}  // namespace ndr::golden
