// Golden RoCEv2 framing: Ethernet/IPv4/UDP headers against hand-computed bytes (the IPv4
// checksum against the RFC 1071 example worked by hand), frame and wire sizes from the header
// sizes, the PFC headroom formula with hand-computed terms, and the ECMP hash spread.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "golden/opcode.h"
#include "golden/roce_packet.h"

namespace g = ndr::golden;

TEST_CASE("IPv4 header: fields and checksum match a hand-computed header", "[roce]") {
    // 45 00 0073 0000 4000 40 11 [csum] c0a80001 c0a800c7. One's-complement sum of the words
    // with csum = 0: 4500+0073+0000+4000+4011+c0a8+0001+c0a8+00c7 = 0x2479C -> 0x479E
    // (end-around carry: 0x479C + 2); complement = 0xB861.
    g::ipv4_header h;
    h.dscp = 0;
    h.ecn = 0;
    h.total_length = 0x73;
    h.ttl = 64;
    h.src = 0xC0A80001;
    h.dst = 0xC0A800C7;
    std::array<uint8_t, 20> b{};
    h.encode(b.data());
    const std::array<uint8_t, 20> expect = {0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40,
                                            0x00, 0x40, 0x11, 0xB8, 0x61, 0xC0, 0xA8,
                                            0x00, 0x01, 0xC0, 0xA8, 0x00, 0xC7};
    CHECK(b == expect);
    // A header with a correct checksum sums to 0.
    CHECK(g::internet_checksum(b.data(), b.size()) == 0);
    // DSCP 26 (AF31) + ECN CE: byte 1 = 011010 11 = 0x6B.
    h.dscp = 26;
    h.ecn = 3;
    h.encode(b.data());
    CHECK(b[1] == 0x6B);
    CHECK(g::internet_checksum(b.data(), b.size()) == 0);
}

TEST_CASE("Ethernet and UDP headers are in network byte order", "[roce]") {
    g::eth_header e;
    e.dst = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
    e.src = {0x02, 0x00, 0x00, 0x00, 0x00, 0x02};
    std::array<uint8_t, 14> eb{};
    e.encode(eb.data());
    CHECK(eb[5] == 0x01);
    CHECK(eb[11] == 0x02);
    CHECK(eb[12] == 0x08);
    CHECK(eb[13] == 0x00);
    g::udp_header u;
    u.src_port = 0xC123;
    u.length = 4120;  // 0x1018
    std::array<uint8_t, 8> ub{};
    u.encode(ub.data());
    const std::array<uint8_t, 8> expect = {0xC1, 0x23, 0x12, 0xB7, 0x10, 0x18, 0x00, 0x00};
    CHECK(ub == expect);  // 4791 = 0x12B7
}

TEST_CASE("RoCEv2 frame sizes from the header sizes", "[roce]") {
    // 14 Eth + 20 IPv4 + 8 UDP + 12 BTH + payload + pad + 4 ICRC + 4 FCS.
    CHECK(g::roce_frame_bytes(4096, g::RC_RDMA_WRITE_MIDDLE) == 4158);
    CHECK(g::roce_wire_bytes(4096, g::RC_RDMA_WRITE_MIDDLE) == 4178);  // + 8 preamble + 12 IFG
    CHECK(g::roce_frame_bytes(4096, g::RC_RDMA_WRITE_FIRST) == 4174);  // + 16 RETH
    CHECK(g::roce_frame_bytes(0, g::RC_ACKNOWLEDGE) == 66);            // + 4 AETH
    CHECK(g::roce_frame_bytes(1, g::RC_SEND_ONLY) == 66);              // 1 B + 3 pad
    CHECK(g::roce_frame_bytes(0, g::RC_SEND_ONLY) == 64);              // 62 -> minimum 64
    CHECK(g::roce_ipv4_total_length(4096, g::RC_RDMA_WRITE_MIDDLE) == 4140);
    CHECK(g::PFC_WIRE_BYTES == 84);
}

TEST_CASE("PFC headroom: hand-computed terms at 400 Gb/s", "[roce]") {
    // Link delay 100 ns FEC + 3 m x 5 ns/m = 115 ns: 2 x 115 ns x 50 B/ns = 11500 B;
    // reaction 500 ns x 50 B/ns = 25000 B; two 4178 B frames = 8356 B; PAUSE 84 B; staged 8 KiB.
    CHECK(g::pfc_headroom_bytes(400'000'000'000ULL, 115'000, 500'000, 4178, 8192) ==
          11500 + 25000 + 8356 + 84 + 8192);
    // Rounds partial bytes up: 1 ps at 400 Gb/s = 0.05 B.
    CHECK(g::pfc_headroom_bytes(400'000'000'000ULL, 0, 1, 0, 0) == 1 + 84);
}

TEST_CASE("ECMP hash spreads flows evenly and UDP source ports stay dynamic", "[roce]") {
    constexpr uint32_t members = 8;
    std::vector<uint32_t> count(members, 0);
    constexpr uint32_t flows = 16000;
    for (uint32_t f = 0; f < flows; ++f) {
        const uint32_t m = g::ecmp_member(0x0A000000U | (f % 256), 0x0A000100U | (f / 256),
                                          g::roce_udp_src_port(f), g::ROCEV2_UDP_PORT, 7, members);
        REQUIRE(m < members);
        ++count[m];
    }
    // Uniform: 2000 each; a binomial s.d. is ~42, so +-10% is > 4 s.d.
    for (uint32_t c : count) CHECK((c > 1800 && c < 2200));
    for (uint32_t q = 0; q < 1000; ++q) CHECK(g::roce_udp_src_port(q) >= 0xC000);
    // Deterministic, and the seed matters.
    CHECK(g::ecmp_member(1, 2, 3, 4, 5, 1000) == g::ecmp_member(1, 2, 3, 4, 5, 1000));
    uint32_t differ = 0;
    for (uint32_t s = 0; s < 64; ++s) {
        differ +=
            g::ecmp_member(1, 2, 0xC001, 4791, s, 64) != g::ecmp_member(1, 2, 0xC001, 4791, 0, 64);
    }
    CHECK(differ > 32);
}
