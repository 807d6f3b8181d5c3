// Golden IB headers, one at a time: bit positions against hand-computed bytes, round trips at
// maximum field values, field-width rejection and the opcode table (docs/domain.md §1). Whole
// packets and CRCs are in packet_format_test.cpp.
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "golden/opcode.h"
#include "golden/wire/aeth.h"
#include "golden/wire/bth.h"
#include "golden/wire/deth.h"
#include "golden/wire/grh.h"
#include "golden/wire/immdt.h"
#include "golden/wire/lrh.h"
#include "golden/wire/reth.h"
#include "header_encode.h"

namespace g = ndr::golden;
using ndr_test::bytes;
using ndr_test::encode;

TEST_CASE("LRH bit positions match hand-computed bytes", "[packet]") {
    g::lrh h;
    h.vl = 0xA;
    h.lver = 0;
    h.sl = 3;
    h.lnh = 2;
    h.dlid = 0x1234;
    h.pktlen = 0x7FF;
    h.slid = 0xBEEF;
    // byte 0 = VL:LVer = A:0 -> 0xA0; byte 1 = SL:00:LNH = 0011 00 10 -> 0x32;
    // DLID 12 34; 5 reserved zero bits + PktLen 0x7FF -> 07 FF; SLID BE EF.
    const bytes expect = {0xA0, 0x32, 0x12, 0x34, 0x07, 0xFF, 0xBE, 0xEF};
    CHECK(encode(h) == expect);
    CHECK(g::lrh::decode(expect.data()) == h);
    // Reserved bits are ignored on decode.
    bytes dirty = expect;
    dirty[1] |= 0x0C;
    dirty[4] |= 0xF8;
    CHECK(g::lrh::decode(dirty.data()) == h);
}

TEST_CASE("GRH bit positions match hand-computed bytes", "[packet]") {
    g::grh h;
    h.ipver = 6;
    h.tclass = 0xAB;
    h.flow_label = 0xCDEF1;
    h.paylen = 0x0102;
    h.nxthdr = 0x1B;
    h.hoplmt = 0xFF;
    for (uint8_t i = 0; i < 16; ++i) {
        h.sgid[i] = static_cast<uint8_t>(0x10 + i);
        h.dgid[i] = static_cast<uint8_t>(0x20 + i);
    }
    // IPVer 6, TClass AB, FlowLabel CDEF1 -> 0110 1010 1011 1100 1101 ... = 6A BC DE F1.
    bytes expect = {0x6A, 0xBC, 0xDE, 0xF1, 0x01, 0x02, 0x1B, 0xFF};
    for (uint8_t i = 0; i < 16; ++i) expect.push_back(static_cast<uint8_t>(0x10 + i));
    for (uint8_t i = 0; i < 16; ++i) expect.push_back(static_cast<uint8_t>(0x20 + i));
    CHECK(encode(h) == expect);
    CHECK(g::grh::decode(expect.data()) == h);
}

TEST_CASE("BTH bit positions match hand-computed bytes", "[packet]") {
    g::bth h;
    h.opcode = 0x0A;
    h.se = true;
    h.migreq = false;
    h.padcnt = 3;
    h.tver = 0xF;
    h.pkey = 0x1234;
    h.fecn = true;
    h.becn = false;
    h.destqp = 0xABCDEF;
    h.ackreq = true;
    h.psn = 0x123456;
    // byte 1 = SE 1, MigReq 0, PadCnt 11, TVer 1111 -> 1011 1111 = 0xBF;
    // byte 4 = FECN 1, BECN 0, 6 reserved -> 0x80; byte 8 = AckReq 1 + 7 reserved -> 0x80.
    const bytes expect = {0x0A, 0xBF, 0x12, 0x34, 0x80, 0xAB, 0xCD, 0xEF, 0x80, 0x12, 0x34, 0x56};
    CHECK(encode(h) == expect);
    CHECK(g::bth::decode(expect.data()) == h);
    h.fecn = false;
    h.becn = true;
    h.migreq = true;
    h.se = false;
    const bytes b2 = encode(h);
    CHECK(b2[1] == 0x7F);  // 0 1 11 1111
    CHECK(b2[4] == 0x40);
}

TEST_CASE("Extended headers match hand-computed bytes", "[packet]") {
    g::reth r;
    r.va = 0x0102030405060708ull;
    r.rkey = 0x090A0B0C;
    r.dma_len = 0x0D0E0F10;
    bytes er;
    for (uint8_t i = 1; i <= 16; ++i) er.push_back(i);
    CHECK(encode(r) == er);
    CHECK(g::reth::decode(er.data()) == r);

    g::aeth a;
    a.syndrome = g::AETH_NAK_PSN_SEQ_ERROR;
    a.msn = 0x123456;
    const bytes ea = {0x60, 0x12, 0x34, 0x56};
    CHECK(encode(a) == ea);
    CHECK(g::aeth::decode(ea.data()) == a);

    g::deth d;
    d.qkey = 0x80010000;
    d.srcqp = 0xABCDEF;
    const bytes ed = {0x80, 0x01, 0x00, 0x00, 0x00, 0xAB, 0xCD, 0xEF};
    CHECK(encode(d) == ed);
    CHECK(g::deth::decode(ed.data()) == d);

    g::immdt m;
    m.data = 0xDEADBEEF;
    const bytes em = {0xDE, 0xAD, 0xBE, 0xEF};
    CHECK(encode(m) == em);
    CHECK(g::immdt::decode(em.data()) == m);
}

// ------------------------------------------------------------------------------------------
// Header codecs: round trips at maximum field widths, and range validation.

TEST_CASE("Headers round-trip with every field at its maximum", "[packet]") {
    g::lrh l;
    l.vl = 0xF;
    l.lver = 0xF;
    l.sl = 0xF;
    l.lnh = 3;
    l.dlid = 0xFFFF;
    l.pktlen = 0x7FF;
    l.slid = 0xFFFF;
    CHECK(g::lrh::decode(encode(l).data()) == l);
    CHECK(encode(l) == bytes{0xFF, 0xF3, 0xFF, 0xFF, 0x07, 0xFF, 0xFF, 0xFF});

    g::grh gr;
    gr.ipver = 0xF;
    gr.tclass = 0xFF;
    gr.flow_label = 0xFFFFF;
    gr.paylen = 0xFFFF;
    gr.nxthdr = 0xFF;
    gr.hoplmt = 0xFF;
    gr.sgid.fill(0xFF);
    gr.dgid.fill(0xFF);
    CHECK(g::grh::decode(encode(gr).data()) == gr);
    CHECK(encode(gr) == bytes(40, 0xFF));

    g::bth b;
    b.opcode = 0xFF;
    b.se = b.migreq = b.fecn = b.becn = b.ackreq = true;
    b.padcnt = 3;
    b.tver = 0xF;
    b.pkey = 0xFFFF;
    b.destqp = 0xFFFFFF;
    b.psn = 0xFFFFFF;
    CHECK(g::bth::decode(encode(b).data()) == b);
    CHECK(encode(b) ==
          bytes{0xFF, 0xFF, 0xFF, 0xFF, 0xC0, 0xFF, 0xFF, 0xFF, 0x80, 0xFF, 0xFF, 0xFF});

    g::reth r;
    r.va = ~0ull;
    r.rkey = 0xFFFFFFFF;
    r.dma_len = 0xFFFFFFFF;
    CHECK(g::reth::decode(encode(r).data()) == r);

    g::aeth a;
    a.syndrome = 0xFF;
    a.msn = 0xFFFFFF;
    CHECK(g::aeth::decode(encode(a).data()) == a);

    g::deth d;
    d.qkey = 0xFFFFFFFF;
    d.srcqp = 0xFFFFFF;
    CHECK(g::deth::decode(encode(d).data()) == d);
    CHECK(encode(d)[4] == 0x00);  // reserved byte

    g::immdt m;
    m.data = 0xFFFFFFFF;
    CHECK(g::immdt::decode(encode(m).data()) == m);
}

TEST_CASE("Header fields wider than their bit width are rejected", "[packet]") {
    using Catch::Matchers::Contains;
    bytes buf(64);
    {
        g::lrh h;
        h.vl = 16;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("lrh.vl"));
        h = {};
        h.lver = 16;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("lrh.lver"));
        h = {};
        h.sl = 16;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("lrh.sl"));
        h = {};
        h.lnh = 4;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("lrh.lnh"));
        h = {};
        h.pktlen = 0x800;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("lrh.pktlen"));
    }
    {
        g::grh h;
        h.ipver = 16;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("grh.ipver"));
        h = {};
        h.flow_label = 0x100000;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("grh.flow_label"));
    }
    {
        g::bth h;
        h.padcnt = 4;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("bth.padcnt"));
        h = {};
        h.tver = 16;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("bth.tver"));
        h = {};
        h.destqp = 0x1000000;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("bth.destqp"));
        h = {};
        h.psn = 0x1000000;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("bth.psn"));
    }
    {
        g::aeth h;
        h.msn = 0x1000000;
        CHECK_THROWS_WITH(h.encode(buf.data()), Contains("aeth.msn"));
        g::deth d;
        d.srcqp = 0x1000000;
        CHECK_THROWS_WITH(d.encode(buf.data()), Contains("deth.srcqp"));
    }
}

// ------------------------------------------------------------------------------------------
// Opcodes and lengths.

TEST_CASE("Opcode table: extended headers and header lengths", "[packet]") {
    CHECK(g::RC_SEND_ONLY == 0x04);
    CHECK(g::RC_RDMA_WRITE_FIRST == 0x06);
    CHECK(g::RC_RDMA_READ_RESPONSE_ONLY == 0x10);
    CHECK(g::RC_FETCH_ADD == 0x14);
    CHECK(g::UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE == 0x2B);
    CHECK(g::UD_SEND_ONLY == 0x64);
    CHECK(g::RC_COMPARE_SWAP == (g::TRANSPORT_RC | g::OP_COMPARE_SWAP));
    CHECK(g::UC_RDMA_WRITE_LAST == (g::TRANSPORT_UC | g::OP_RDMA_WRITE_LAST));
    CHECK(g::UD_SEND_ONLY_WITH_IMMEDIATE == (g::TRANSPORT_UD | g::OP_SEND_ONLY_WITH_IMMEDIATE));

    auto info = g::describe_opcode(g::RC_SEND_ONLY);
    CHECK(info.payload);
    CHECK(info.ext_len == 0);
    CHECK(info.hdr_len == 12);
    CHECK(std::string(info.name) == "RC_SEND_ONLY");

    info = g::describe_opcode(g::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE);
    CHECK((info.reth && info.immdt && !info.aeth && info.payload));
    CHECK(info.hdr_len == 12 + 16 + 4);

    info = g::describe_opcode(g::RC_RDMA_READ_REQUEST);
    CHECK((info.reth && !info.payload));
    CHECK(info.hdr_len == 28);

    info = g::describe_opcode(g::RC_RDMA_READ_RESPONSE_MIDDLE);
    CHECK((!info.aeth && info.payload && info.hdr_len == 12));
    info = g::describe_opcode(g::RC_RDMA_READ_RESPONSE_LAST);
    CHECK((info.aeth && info.payload && info.hdr_len == 16));

    info = g::describe_opcode(g::RC_ACKNOWLEDGE);
    CHECK((info.aeth && !info.payload && info.hdr_len == 16));
    info = g::describe_opcode(g::RC_ATOMIC_ACKNOWLEDGE);
    CHECK((info.aeth && info.atomic_ack_eth && info.hdr_len == 24));
    info = g::describe_opcode(g::RC_COMPARE_SWAP);
    CHECK((info.atomic_eth && !info.payload && info.hdr_len == 40));
    info = g::describe_opcode(g::RC_SEND_ONLY_WITH_INVALIDATE);
    CHECK((info.ieth && info.payload && info.hdr_len == 16));

    info = g::describe_opcode(g::UD_SEND_ONLY);
    CHECK((info.deth && !info.immdt && info.hdr_len == 20));
    info = g::describe_opcode(g::UD_SEND_ONLY_WITH_IMMEDIATE);
    CHECK((info.deth && info.immdt && info.hdr_len == 24));

    // UC has no READ, ACK or atomics; UD only SEND_ONLY[_WITH_IMMEDIATE]; RD not modelled.
    CHECK_FALSE(g::opcode_supported(g::TRANSPORT_UC | g::OP_RDMA_READ_REQUEST));
    CHECK_FALSE(g::opcode_supported(g::TRANSPORT_UC | g::OP_ACKNOWLEDGE));
    CHECK_FALSE(g::opcode_supported(g::TRANSPORT_UD | g::OP_SEND_FIRST));
    CHECK_FALSE(g::opcode_supported(g::TRANSPORT_RD | g::OP_SEND_ONLY));
    CHECK_FALSE(g::opcode_supported(0x15));
    CHECK_THROWS_AS(g::describe_opcode(0x18), std::invalid_argument);
    unsigned supported = 0;
    for (unsigned op = 0; op < 256; ++op) {
        supported += g::opcode_supported(static_cast<uint8_t>(op)) ? 1 : 0;
    }
    CHECK(supported == 23 + 12 + 2);
}
