// RC segmentation and opcodes (models/golden/rc_segment.h) against the IBA Vol. 1 Table 38
// opcode values written out by hand (not the constants of golden/opcode.h).
#include <catch2/catch.hpp>

#include "golden/rc_segment.h"

using ndr::golden::rc_data_opcode;
using ndr::golden::rc_packet_count;
using ndr::golden::rc_packet_payload;
using ndr::golden::rc_stream;

TEST_CASE("rc segmentation: packet count and payload per packet", "[golden][rc]") {
    CHECK(rc_packet_count(0, 4096) == 1);
    CHECK(rc_packet_count(1, 4096) == 1);
    CHECK(rc_packet_count(4096, 4096) == 1);
    CHECK(rc_packet_count(4097, 4096) == 2);
    CHECK(rc_packet_count(10000, 1024) == 10);
    // 10000 B at MTU 4096: 4096, 4096, 1808, then nothing.
    CHECK(rc_packet_payload(10000, 4096, 0) == 4096);
    CHECK(rc_packet_payload(10000, 4096, 1) == 4096);
    CHECK(rc_packet_payload(10000, 4096, 2) == 1808);
    CHECK(rc_packet_payload(10000, 4096, 3) == 0);
    CHECK(rc_packet_payload(0, 4096, 0) == 0);
}

TEST_CASE("rc segmentation: opcodes of IBA Table 38", "[golden][rc]") {
    // SEND: FIRST 0x00, MIDDLE 0x01, LAST 0x02, ONLY 0x04.
    CHECK(rc_data_opcode(rc_stream::send, 0, 1) == 0x04);
    CHECK(rc_data_opcode(rc_stream::send, 0, 3) == 0x00);
    CHECK(rc_data_opcode(rc_stream::send, 1, 3) == 0x01);
    CHECK(rc_data_opcode(rc_stream::send, 2, 3) == 0x02);
    // RDMA WRITE: FIRST 0x06, MIDDLE 0x07, LAST 0x08, LAST with Imm 0x09, ONLY 0x0A, ONLY with
    // Imm 0x0B.
    CHECK(rc_data_opcode(rc_stream::rdma_write, 0, 1) == 0x0A);
    CHECK(rc_data_opcode(rc_stream::rdma_write, 0, 2) == 0x06);
    CHECK(rc_data_opcode(rc_stream::rdma_write, 1, 2) == 0x08);
    CHECK(rc_data_opcode(rc_stream::rdma_write_imm, 0, 1) == 0x0B);
    CHECK(rc_data_opcode(rc_stream::rdma_write_imm, 0, 3) == 0x06);
    CHECK(rc_data_opcode(rc_stream::rdma_write_imm, 1, 3) == 0x07);
    CHECK(rc_data_opcode(rc_stream::rdma_write_imm, 2, 3) == 0x09);
    // RDMA READ: request 0x0C; response FIRST 0x0D, MIDDLE 0x0E, LAST 0x0F, ONLY 0x10.
    CHECK(rc_data_opcode(rc_stream::read_request, 0, 1) == 0x0C);
    CHECK(rc_data_opcode(rc_stream::read_response, 0, 1) == 0x10);
    CHECK(rc_data_opcode(rc_stream::read_response, 0, 4) == 0x0D);
    CHECK(rc_data_opcode(rc_stream::read_response, 2, 4) == 0x0E);
    CHECK(rc_data_opcode(rc_stream::read_response, 3, 4) == 0x0F);
}
