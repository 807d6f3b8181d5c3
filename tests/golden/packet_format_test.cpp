// IB header codecs and whole-packet build/parse (models/golden/{lrh,grh,bth,reth,aeth,deth,
// immdt,opcode,ib_packet}), checked against hand-computed bytes and against packets generated
// by the independent Python oracle tests/data/gen_ib_vectors.py (tests/data/ib_vectors.txt).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "golden/ib_packet.h"
#include "golden/opcode.h"
#include "golden/wire/aeth.h"
#include "golden/wire/bth.h"
#include "golden/wire/crc.h"
#include "golden/wire/deth.h"
#include "golden/wire/grh.h"
#include "golden/wire/immdt.h"
#include "golden/wire/lrh.h"
#include "golden/wire/reth.h"
#include "header_encode.h"

namespace g = ndr::golden;

namespace {

using ndr_test::bytes;
using ndr_test::encode;

bytes from_hex(const std::string& hex) {
    REQUIRE(hex.size() % 2 == 0);
    bytes out;
    out.reserve(hex.size() / 2);
    for (size_t i = 0; i < hex.size(); i += 2) {
        out.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    }
    return out;
}

/// Records of tests/data/ib_vectors.txt keyed "<kind> <name>", value = remaining tokens.
const std::map<std::string, std::vector<std::string>>& vectors() {
    static const auto table = [] {
        std::map<std::string, std::vector<std::string>> t;
        std::ifstream in(std::string(NDR_TEST_DATA_DIR) + "/ib_vectors.txt");
        if (!in) {
            throw std::runtime_error("cannot open ib_vectors.txt in " NDR_TEST_DATA_DIR);
        }
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#') {
                continue;
            }
            std::istringstream ss(line);
            std::string kind, name, tok;
            ss >> kind >> name;
            std::vector<std::string> rest;
            while (ss >> tok) {
                rest.push_back(tok);
            }
            t[kind + " " + name] = rest;
        }
        return t;
    }();
    return table;
}

bytes vector_bytes(const std::string& kind, const std::string& name) {
    const auto it = vectors().find(kind + " " + name);
    if (it == vectors().end()) {
        FAIL("missing vector " << kind << " " << name);
    }
    return from_hex(it->second.at(0));
}

uint32_t vector_value(const std::string& kind, const std::string& name) {
    const auto it = vectors().find(kind + " " + name);
    if (it == vectors().end()) {
        FAIL("missing vector " << kind << " " << name);
    }
    return static_cast<uint32_t>(std::stoul(it->second.at(0), nullptr, 16));
}

// ----- the packets of gen_ib_vectors.py, built field by field -----

bytes payload_37() {
    bytes p;
    for (unsigned i = 0; i < 37; ++i) {
        p.push_back(static_cast<uint8_t>((i * 7 + 3) & 0xFF));
    }
    return p;
}

bytes payload_64() {
    bytes p;
    for (unsigned i = 0; i < 64; ++i) {
        p.push_back(static_cast<uint8_t>(i));
    }
    return p;
}

const bytes PAYLOAD_13 = {'h', 'e', 'l', 'l', 'o', ',', ' ', 'w', 'o', 'r', 'l', 'd', '!'};
const bytes PAYLOAD_5 = {0xDE, 0xAD, 0xBE, 0xEF, 0x01};
const std::array<uint8_t, 16> SGID = {0xFE, 0x80, 0,    0,    0,    0,    0,    0,
                                      0x00, 0x02, 0xC9, 0x03, 0x00, 0x01, 0x02, 0x03};
const std::array<uint8_t, 16> DGID = {0xFE, 0x80, 0,    0,    0,    0,    0,    0,
                                      0x00, 0x02, 0xC9, 0x03, 0x00, 0x0A, 0x0B, 0x0C};

g::packet_fields rc_rdma_write_only_37() {
    g::packet_fields f;
    f.lrh_hdr.dlid = 0x0005;
    f.lrh_hdr.slid = 0x0003;
    f.bth_hdr.opcode = g::RC_RDMA_WRITE_ONLY;
    f.bth_hdr.migreq = true;
    f.bth_hdr.pkey = 0xFFFF;
    f.bth_hdr.destqp = 0x000012;
    f.bth_hdr.ackreq = true;
    f.bth_hdr.psn = 0x000100;
    f.reth_hdr.va = 0x00007F0012345678ull;
    f.reth_hdr.rkey = 0xCAFEBABE;
    f.reth_hdr.dma_len = 37;
    return f;
}

g::packet_fields rc_send_only_64() {
    g::packet_fields f;
    f.lrh_hdr.vl = 1;
    f.lrh_hdr.sl = 1;
    f.lrh_hdr.dlid = 0x0102;
    f.lrh_hdr.slid = 0x0201;
    f.bth_hdr.opcode = g::RC_SEND_ONLY;
    f.bth_hdr.se = true;
    f.bth_hdr.pkey = 0x8001;
    f.bth_hdr.destqp = 0xABCDEF;
    f.bth_hdr.psn = 0xFFFFFF;
    return f;
}

g::packet_fields rc_send_only_grh_13() {
    g::packet_fields f;
    f.lrh_hdr.vl = 2;
    f.lrh_hdr.sl = 4;
    f.lrh_hdr.dlid = 0x0010;
    f.lrh_hdr.slid = 0x0020;
    f.has_grh = true;
    f.grh_hdr.ipver = 6;
    f.grh_hdr.tclass = 0x20;
    f.grh_hdr.flow_label = 0x12345;
    f.grh_hdr.nxthdr = g::GRH_NXTHDR_IBA;
    f.grh_hdr.hoplmt = 64;
    f.grh_hdr.sgid = SGID;
    f.grh_hdr.dgid = DGID;
    f.bth_hdr.opcode = g::RC_SEND_ONLY;
    f.bth_hdr.pkey = 0xFFFF;
    f.bth_hdr.destqp = 0x000456;
    f.bth_hdr.ackreq = true;
    f.bth_hdr.psn = 0x000789;
    return f;
}

g::packet_fields ud_send_only_imm_5() {
    g::packet_fields f;
    f.lrh_hdr.dlid = 0xC001;
    f.lrh_hdr.slid = 0x0001;
    f.bth_hdr.opcode = g::UD_SEND_ONLY_WITH_IMMEDIATE;
    f.bth_hdr.pkey = 0x7FFF;
    f.bth_hdr.destqp = 0x000001;
    f.bth_hdr.psn = 0x000042;
    f.deth_hdr.qkey = 0x80010000;
    f.deth_hdr.srcqp = 0x00ABCD;
    f.immdt_hdr.data = 0x11223344;
    return f;
}

g::packet_fields rc_ack() {
    g::packet_fields f;
    f.lrh_hdr.dlid = 0x0003;
    f.lrh_hdr.slid = 0x0005;
    f.bth_hdr.opcode = g::RC_ACKNOWLEDGE;
    f.bth_hdr.pkey = 0xFFFF;
    f.bth_hdr.destqp = 0x000034;
    f.bth_hdr.psn = 0x000100;
    f.aeth_hdr.syndrome = 0x1F;
    f.aeth_hdr.msn = 0x000007;
    return f;
}

struct named_packet {
    const char* name;
    g::packet_fields fields;
    bytes payload;
};

std::vector<named_packet> oracle_packets() {
    std::vector<named_packet> v;
    v.push_back({"rc_rdma_write_only_37", rc_rdma_write_only_37(), payload_37()});
    {
        g::packet_fields f = rc_rdma_write_only_37();
        f.lrh_hdr.vl = 7;
        f.bth_hdr.fecn = true;
        f.bth_hdr.becn = true;
        v.push_back({"rc_rdma_write_only_37_remarked", f, payload_37()});
    }
    v.push_back({"rc_send_only_64", rc_send_only_64(), payload_64()});
    v.push_back({"rc_send_only_grh_13", rc_send_only_grh_13(), PAYLOAD_13});
    {
        g::packet_fields f = rc_send_only_grh_13();
        f.lrh_hdr.vl = 5;
        f.lrh_hdr.sl = 9;
        f.lrh_hdr.dlid = 0x0777;
        f.lrh_hdr.slid = 0x0888;
        f.grh_hdr.tclass = 0xB8;
        f.grh_hdr.flow_label = 0xFEDCB;
        f.grh_hdr.hoplmt = 63;
        f.bth_hdr.fecn = true;
        v.push_back({"rc_send_only_grh_13_routed", f, PAYLOAD_13});
    }
    v.push_back({"ud_send_only_imm_5", ud_send_only_imm_5(), PAYLOAD_5});
    v.push_back({"rc_ack", rc_ack(), {}});
    return v;
}

}  // namespace

// ------------------------------------------------------------------------------------------
// Header codecs: hand-computed bytes.

TEST_CASE("Wire bytes and PktLen", "[packet]") {
    // RC SEND_ONLY, 4096 B payload: 8 + 12 + 4096 + 4 + 2 = 4122 B (docs/domain.md §13).
    CHECK(g::wire_bytes(4096, g::RC_SEND_ONLY, false) == 4122);
    CHECK(g::pktlen_words(4096, g::RC_SEND_ONLY, false) == 1030);
    // With RETH: +16.
    CHECK(g::wire_bytes(4096, g::RC_RDMA_WRITE_ONLY, false) == 4138);
    // 37 B payload with RETH: 8 + 12 + 16 + 37 + 3 pad + 4 = 80 B = 20 words, + 2 VCRC.
    CHECK(g::wire_bytes(37, g::RC_RDMA_WRITE_ONLY, false) == 82);
    CHECK(g::pktlen_words(37, g::RC_RDMA_WRITE_ONLY, false) == 20);
    // ACK: 8 + 12 + 4 + 4 = 28 B = 7 words (IBA minimum is 6 words).
    CHECK(g::pktlen_words(0, g::RC_ACKNOWLEDGE, false) == 7);
    CHECK(g::pktlen_words(0, g::RC_SEND_ONLY, false) == 6);
    // GRH adds 40 B = 10 words.
    CHECK(g::pktlen_words(13, g::RC_SEND_ONLY, true) == (8 + 40 + 12 + 16 + 4) / 4);
    CHECK(g::pad_bytes(0) == 0);
    CHECK(g::pad_bytes(1) == 3);
    CHECK(g::pad_bytes(2) == 2);
    CHECK(g::pad_bytes(3) == 1);
    CHECK(g::pad_bytes(4) == 0);
    // The header table behind wire_bytes: every opcode as describe_opcode lays it out, and an
    // unsupported one refused the same way.
    for (uint32_t op = 0; op < 256; ++op) {
        const auto o = static_cast<uint8_t>(op);
        INFO("opcode " << op);
        if (g::opcode_supported(o)) {
            CHECK(g::opcode_hdr_len(o) == g::describe_opcode(o).hdr_len);
        } else {
            CHECK_THROWS_AS(g::opcode_hdr_len(o), std::invalid_argument);
            CHECK_THROWS_AS(g::wire_bytes(0, o, false), std::invalid_argument);
        }
    }
    CHECK(g::opcode_hdr_len(g::RC_RDMA_WRITE_ONLY) == 12 + 16);  // BTH + RETH
}

// ------------------------------------------------------------------------------------------
// Whole packets against the independent Python oracle.

TEST_CASE("Whole packets match the independent Python oracle byte for byte", "[packet]") {
    for (const auto& np : oracle_packets()) {
        SECTION(np.name) {
            const bytes expect = vector_bytes("packet", np.name);
            const bytes got = g::build_packet(np.fields, np.payload);
            CHECK(got.size() == expect.size());
            CHECK(got == expect);

            const g::parsed_packet p = g::parse_packet(expect);
            CHECK(p.icrc_ok);
            CHECK(p.vcrc_ok);
            CHECK(p.icrc_wire == vector_value("icrc", np.name));
            CHECK(p.vcrc_wire == vector_value("vcrc", np.name));
            CHECK(p.icrc_calc == vector_value("icrc", np.name));
            CHECK(p.vcrc_calc == vector_value("vcrc", np.name));
            REQUIRE(p.payload_size == np.payload.size());
            CHECK(bytes(p.payload, p.payload + p.payload_size) == np.payload);

            // Decoded headers equal the inputs plus the computed fields.
            g::packet_fields want = np.fields;
            want.lrh_hdr.lnh = np.fields.has_grh ? g::LNH_IBA_GLOBAL : g::LNH_IBA_LOCAL;
            want.lrh_hdr.pktlen = static_cast<uint16_t>((expect.size() - 2) / 4);
            want.bth_hdr.padcnt =
                static_cast<uint8_t>(g::pad_bytes(static_cast<uint32_t>(np.payload.size())));
            if (np.fields.has_grh) {
                want.grh_hdr.paylen = static_cast<uint16_t>(expect.size() - 2 - 8 - 40);
            }
            CHECK(p.fields.same_headers(want));
            CHECK(expect.size() == g::wire_bytes(static_cast<uint32_t>(np.payload.size()),
                                                 np.fields.bth_hdr.opcode, np.fields.has_grh));
        }
    }
}

TEST_CASE("RC RDMA_WRITE_ONLY with 37-byte payload: lengths, pad and CRC placement", "[packet]") {
    const bytes pkt = g::build_packet(rc_rdma_write_only_37(), payload_37());
    REQUIRE(pkt.size() == 82);
    CHECK(pkt[5] == 20);                  // LRH.PktLen low byte: 80 bytes through ICRC
    CHECK(((pkt[8 + 1] >> 4) & 3) == 3);  // BTH.PadCnt
    CHECK(pkt[8 + 12 + 16 + 37] == 0);    // three zero pad bytes
    CHECK(pkt[8 + 12 + 16 + 38] == 0);
    CHECK(pkt[8 + 12 + 16 + 39] == 0);
    // ICRC and VCRC are stored least-significant byte first.
    const uint32_t icrc = g::icrc(pkt.data(), 76);
    CHECK(pkt[76] == (icrc & 0xFF));
    CHECK(pkt[79] == (icrc >> 24));
    const uint16_t vcrc = g::vcrc(pkt.data(), 80);
    CHECK(pkt[80] == (vcrc & 0xFF));
    CHECK(pkt[81] == (vcrc >> 8));
}

TEST_CASE("Masked fields leave the ICRC unchanged while the VCRC changes", "[packet][crc]") {
    SECTION("local packet: LRH.VL and BTH FECN/BECN") {
        const bytes a = vector_bytes("packet", "rc_rdma_write_only_37");
        bytes b = a;
        b[0] = static_cast<uint8_t>((b[0] & 0x0F) | 0x70);  // VL 0 -> 7
        b[8 + 4] = 0xC0;                                    // FECN = BECN = 1
        const g::parsed_packet pb = g::parse_packet(b);
        CHECK(pb.icrc_ok);        // the ICRC still checks
        CHECK_FALSE(pb.vcrc_ok);  // the old VCRC does not
        CHECK(g::icrc(b.data(), 76) == g::icrc(a.data(), 76));
        CHECK(g::vcrc(b.data(), 80) != g::vcrc(a.data(), 80));
        // Re-marking the same packet from its fields reproduces the oracle's remarked vector.
        CHECK(vector_value("icrc", "rc_rdma_write_only_37_remarked") ==
              vector_value("icrc", "rc_rdma_write_only_37"));
    }
    SECTION("local packet: an invariant LRH field (SL, DLID) changes the ICRC") {
        const bytes a = vector_bytes("packet", "rc_rdma_write_only_37");
        bytes b = a;
        b[1] = static_cast<uint8_t>(b[1] | 0x10);  // SL 0 -> 1
        CHECK_FALSE(g::parse_packet(b).icrc_ok);
        b = a;
        b[3] ^= 0x01;  // DLID
        CHECK_FALSE(g::parse_packet(b).icrc_ok);
    }
    SECTION("global packet: whole LRH, GRH TClass/FlowLabel/HopLmt, BTH FECN") {
        const bytes a = vector_bytes("packet", "rc_send_only_grh_13");
        bytes b = a;
        for (size_t i = 0; i < 8; ++i) {
            if (i == 1 || i == 4 || i == 5) continue;  // keep LNH and PktLen parseable
            b[i] = static_cast<uint8_t>(b[i] ^ 0x5A);
        }
        b[1] = static_cast<uint8_t>(b[1] ^ 0xF0);               // SL
        b[8 + 0] = static_cast<uint8_t>((b[8] & 0xF0) | 0x0F);  // TClass[7:4]
        b[8 + 1] ^= 0xFF;                                       // TClass[3:0], Flow[19:16]
        b[8 + 3] ^= 0x33;                                       // FlowLabel
        b[8 + 7] = 1;                                           // HopLmt
        b[48 + 4] = 0x80;                                       // FECN
        const g::parsed_packet pb = g::parse_packet(b);
        CHECK(pb.icrc_ok);
        CHECK_FALSE(pb.vcrc_ok);
        // The GRH's invariant fields (PayLen, NxtHdr, IPVer, GIDs) are covered.
        bytes c = a;
        c[8 + 6] ^= 0x01;  // NxtHdr
        CHECK_FALSE(g::parse_packet(c).icrc_ok);
        c = a;
        c[8 + 8 + 15] ^= 0x01;  // SGID
        CHECK_FALSE(g::parse_packet(c).icrc_ok);
        c = a;
        c[8] ^= 0x10;  // IPVer
        CHECK_FALSE(g::parse_packet(c).icrc_ok);
    }
}

TEST_CASE("A flipped bit is reported as an ICRC and VCRC failure", "[packet][crc]") {
    for (const auto& np : oracle_packets()) {
        const bytes good = vector_bytes("packet", np.name);
        // Flip every bit of the payload/ext-header region and of the ICRC in turn.
        const size_t hdr = 8 + (np.fields.has_grh ? 40 : 0) + 12;
        for (size_t i = hdr; i < good.size() - 2; ++i) {
            for (int bit = 0; bit < 8; ++bit) {
                bytes bad = good;
                bad[i] = static_cast<uint8_t>(bad[i] ^ (1u << bit));
                const g::parsed_packet p = g::parse_packet(bad);
                INFO(np.name << " byte " << i << " bit " << bit);
                CHECK_FALSE(p.icrc_ok);
                CHECK_FALSE(p.vcrc_ok);
            }
        }
        // A flipped VCRC bit fails the VCRC only.
        bytes bad = good;
        bad[good.size() - 1] ^= 0x04;
        const g::parsed_packet p = g::parse_packet(bad);
        CHECK(p.icrc_ok);
        CHECK_FALSE(p.vcrc_ok);
    }
}

TEST_CASE("build_packet validates lengths and opcodes", "[packet]") {
    using Catch::Matchers::Contains;
    g::packet_fields f = rc_send_only_64();
    // Payload up to the MTU is fine, beyond it is not.
    CHECK(g::build_packet(f, bytes(4096, 0xAB)).size() == 4122);
    CHECK(g::parse_packet(g::build_packet(f, bytes(4096, 0xAB))).icrc_ok);
    CHECK_THROWS_WITH(g::build_packet(f, bytes(4097, 0)), Contains("MTU"));
    CHECK_THROWS_WITH(g::build_packet(f, bytes(1025, 0), 1024), Contains("MTU"));
    CHECK_THROWS_WITH(g::build_packet(f, bytes(4, 0), 1000), Contains("mtu"));
    // Largest packet at MTU 4096 with GRH and RETH + ImmDt stays within (4096 + 124) / 4.
    g::packet_fields big = rc_send_only_grh_13();
    big.bth_hdr.opcode = g::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE;
    const bytes bp = g::build_packet(big, bytes(4096, 1));
    CHECK(g::parse_packet(bp).fields.lrh_hdr.pktlen <= (4096 + 124) / 4);
    // Opcodes without payload.
    g::packet_fields ack = rc_ack();
    CHECK_THROWS_WITH(g::build_packet(ack, bytes(4, 0)), Contains("no payload"));
    CHECK(g::build_packet(ack, bytes{}).size() == 30);
    // Unsupported opcode.
    f.bth_hdr.opcode = 0x40;
    CHECK_THROWS_WITH(g::build_packet(f, bytes(4, 0)), Contains("bth.opcode"));
    // Field ranges are checked on the way.
    f = rc_send_only_64();
    f.bth_hdr.psn = 0x1000000;
    CHECK_THROWS_WITH(g::build_packet(f, bytes(4, 0)), Contains("bth.psn"));
    // Computed fields override the caller's values.
    f = rc_send_only_64();
    f.lrh_hdr.pktlen = 1;
    f.lrh_hdr.lnh = 0;
    f.bth_hdr.padcnt = 2;
    CHECK(g::build_packet(f, payload_64()) == vector_bytes("packet", "rc_send_only_64"));
}

TEST_CASE("parse_packet rejects malformed packets", "[packet]") {
    const bytes good = vector_bytes("packet", "rc_send_only_64");
    CHECK_THROWS_AS(g::parse_packet(good.data(), 10), std::invalid_argument);
    // Length disagrees with PktLen.
    bytes longer = good;
    longer.push_back(0);
    CHECK_THROWS_WITH(g::parse_packet(longer), Catch::Matchers::Contains("pktlen"));
    // Raw packet.
    bytes raw = good;
    raw[1] = static_cast<uint8_t>(raw[1] & 0xFC);
    CHECK_THROWS_WITH(g::parse_packet(raw), Catch::Matchers::Contains("lnh"));
    // Unsupported opcode.
    bytes rd = good;
    rd[8] = 0x44;
    CHECK_THROWS_AS(g::parse_packet(rd), std::invalid_argument);
    // ACK with bytes after the AETH.
    bytes ack = vector_bytes("packet", "rc_ack");
    ack[8] = g::RC_SEND_ONLY;  // reinterpreted: 4 "payload" bytes, fine
    CHECK_NOTHROW(g::parse_packet(ack));
    bytes ack2 = g::build_packet(rc_send_only_64(), bytes(8, 0));
    ack2[8] = g::RC_ACKNOWLEDGE;  // 4 bytes beyond the AETH
    CHECK_THROWS_WITH(g::parse_packet(ack2), Catch::Matchers::Contains("no payload"));
}
