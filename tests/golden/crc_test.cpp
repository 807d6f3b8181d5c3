// ICRC / VCRC (models/golden/wire/crc.h): standard check values, values from the independent
// Python oracle (tests/data/ib_vectors.txt, bit-by-bit loops), and a RoCEv2 packet captured on
// real hardware that fixes the ICRC masking and wire byte order.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "golden/wire/crc.h"

namespace g = ndr::golden;

namespace {

using bytes = std::vector<uint8_t>;

bytes from_hex(const std::string& hex) {
    bytes out;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    }
    return out;
}

/// "<kind> <name>" -> remaining tokens of tests/data/ib_vectors.txt.
std::map<std::string, std::vector<std::string>> load_vectors() {
    std::map<std::string, std::vector<std::string>> t;
    std::ifstream in(std::string(NDR_TEST_DATA_DIR) + "/ib_vectors.txt");
    if (!in) {
        throw std::runtime_error("cannot open ib_vectors.txt in " NDR_TEST_DATA_DIR);
    }
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ss(line);
        std::string kind, name, tok;
        ss >> kind >> name;
        std::vector<std::string> rest;
        while (ss >> tok) rest.push_back(tok);
        t[kind + " " + name] = rest;
    }
    return t;
}

// Bit-serial reference inside the test, MSB-first register with LSB-first input (a different
// formulation from the reflected table in crc.cpp).
uint16_t crc16_serial(const uint8_t* d, size_t n) {
    uint32_t reg = 0xFFFF;
    for (size_t i = 0; i < n; ++i) {
        for (int b = 0; b < 8; ++b) {
            const uint32_t in_bit = (d[i] >> b) & 1u;
            const uint32_t top = (reg >> 15) & 1u;
            reg = (reg << 1) & 0xFFFFu;
            if ((top ^ in_bit) != 0) reg ^= 0x100Bu;
        }
    }
    uint32_t out = 0;
    for (int i = 0; i < 16; ++i) {
        if ((reg >> i) & 1u) out |= 1u << (15 - i);
    }
    return static_cast<uint16_t>(out ^ 0xFFFFu);
}

}  // namespace

TEST_CASE("CRC-32 check value", "[crc]") {
    const std::string s = "123456789";
    const auto* p = reinterpret_cast<const uint8_t*>(s.data());
    CHECK(g::crc32_ieee(p, s.size()) == 0xCBF43926u);
    CHECK(g::crc32_ieee(p, 0) == 0x00000000u);
}

TEST_CASE("CRC-32 and CRC-16 agree with the Python oracle", "[crc]") {
    const auto v = load_vectors();
    for (const char* name : {"check", "bytes_0_255"}) {
        INFO(name);
        const auto& c32 = v.at(std::string("crc32 ") + name);
        const bytes in32 = from_hex(c32.at(0));
        CHECK(g::crc32_ieee(in32.data(), in32.size()) == std::stoul(c32.at(1), nullptr, 16));
        const auto& c16 = v.at(std::string("crc16 ") + name);
        const bytes in16 = from_hex(c16.at(0));
        CHECK(g::crc16_ib(in16.data(), in16.size()) == std::stoul(c16.at(1), nullptr, 16));
    }
    // CRC-16 (poly 0x100B, LSB-first, seed 0xFFFF, inverted) of "123456789".
    const std::string s = "123456789";
    const auto* p = reinterpret_cast<const uint8_t*>(s.data());
    CHECK(g::crc16_ib(p, s.size()) == 0x0A3D);
    CHECK(g::vcrc(p, s.size()) == 0x0A3D);
}

TEST_CASE("CRC-16 table matches a bit-serial implementation", "[crc]") {
    bytes data;
    uint32_t x = 12345;
    for (size_t n = 0; n < 300; ++n) {
        INFO("length " << n);
        CHECK(g::crc16_ib(data.data(), data.size()) == crc16_serial(data.data(), data.size()));
        x = x * 1103515245u + 12345u;
        data.push_back(static_cast<uint8_t>(x >> 16));
    }
}

TEST_CASE("VCRC appended LSB first leaves a constant residue", "[crc]") {
    // For a reflected CRC with final inversion, CRC(data || crc stored LSB first) is a constant.
    // (Consistency check of the chosen wire order, not an external confirmation.)
    bytes d = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    for (int round = 0; round < 5; ++round) {
        bytes m = d;
        const uint16_t c = g::crc16_ib(m.data(), m.size());
        m.resize(m.size() + 2);
        g::put_vcrc(m.data() + m.size() - 2, c);
        CHECK(g::crc16_ib(m.data(), m.size()) == 0xAA90);
        CHECK(g::get_vcrc(m.data() + m.size() - 2) == c);
        d.push_back(static_cast<uint8_t>(round * 31));
    }
}

TEST_CASE("ICRC masking and byte order reproduce a ConnectX-4 Lx RoCEv2 capture", "[crc]") {
    // RoCEv2 CNP captured on a ConnectX-4 Lx (scapy test/contrib/roce.uts, "RoCE CNP captured
    // on ConnectX-4 Lx"): IPv4 + UDP + BTH(opcode 0x81, BECN) + 16 zero bytes + ICRC 82 fd 00 2a.
    // RoCEv2 ICRC = our CRC-32 over: 8 x 0xFF for the absent LRH, IPv4 header with TOS, TTL and
    // checksum forced to ones, UDP header with checksum forced to ones, BTH with byte 4 forced
    // to ones, payload (rxe_icrc.c). This is the global-packet masking of icrc() applied to the
    // RoCE pseudo-header, and shows the CRC value 0x2A00FD82 is sent LSB first.
    const bytes ip = from_hex("45c2003c718c4000401191610a0011010a001201");
    const bytes udp = from_hex("000012b700280000");
    const bytes bth = from_hex("8100ffff4000011800000000");
    bytes pseudo(8, 0xFF);
    bytes ipm = ip;
    ipm[1] = 0xFF;             // TOS
    ipm[8] = 0xFF;             // TTL
    ipm[10] = ipm[11] = 0xFF;  // header checksum
    bytes udpm = udp;
    udpm[6] = udpm[7] = 0xFF;  // UDP checksum
    bytes bthm = bth;
    bthm[4] = 0xFF;  // FECN/BECN/Resv6
    pseudo.insert(pseudo.end(), ipm.begin(), ipm.end());
    pseudo.insert(pseudo.end(), udpm.begin(), udpm.end());
    pseudo.insert(pseudo.end(), bthm.begin(), bthm.end());
    pseudo.insert(pseudo.end(), 16, 0x00);
    const uint32_t crc = g::crc32_ieee(pseudo.data(), pseudo.size());
    CHECK(crc == 0x2A00FD82u);
    std::array<uint8_t, 4> wire{};
    g::put_icrc(wire.data(), crc);
    CHECK(wire == std::array<uint8_t, 4>{0x82, 0xFD, 0x00, 0x2A});
    CHECK(g::get_icrc(wire.data()) == crc);
}

TEST_CASE("icrc() applies the documented masks", "[crc]") {
    // Local packet: LRH + BTH + 4 payload bytes. ICRC must equal plain CRC-32 of a copy with
    // LRH.VL and BTH byte 4 set to ones.
    bytes pkt = {0x30, 0x02, 0x00, 0x05, 0x00, 0x07, 0x00, 0x03,  // LRH VL=3, LNH=2
                 0x04, 0x00, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x12,  // BTH, FECN=1
                 0x00, 0x00, 0x00, 0x01, 0xAA, 0xBB, 0xCC, 0xDD};
    bytes masked = pkt;
    masked[0] |= 0xF0;
    masked[8 + 4] = 0xFF;
    CHECK(g::icrc(pkt.data(), pkt.size()) == g::crc32_ieee(masked.data(), masked.size()));

    // Global packet: whole LRH, GRH TClass/FlowLabel/HopLmt, BTH byte 4.
    bytes gp(8 + 40 + 12 + 4, 0x11);
    gp[1] = 0x03;  // LNH = 3
    bytes gm = gp;
    for (size_t i = 0; i < 8; ++i) gm[i] = 0xFF;
    gm[8] = static_cast<uint8_t>(gm[8] | 0x0F);
    gm[9] = gm[10] = gm[11] = 0xFF;
    gm[15] = 0xFF;
    gm[48 + 4] = 0xFF;
    CHECK(g::icrc(gp.data(), gp.size()) == g::crc32_ieee(gm.data(), gm.size()));

    // Raw packets have no ICRC; short packets are rejected.
    bytes raw = pkt;
    raw[1] = 0x00;
    CHECK_THROWS_AS(g::icrc(raw.data(), raw.size()), std::invalid_argument);
    CHECK_THROWS_AS(g::icrc(pkt.data(), 19), std::invalid_argument);
    CHECK_THROWS_AS(g::icrc(gp.data(), 50), std::invalid_argument);
}
