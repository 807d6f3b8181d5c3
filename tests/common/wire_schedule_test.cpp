// common::wire_schedule (models/common/wire_schedule.h): when an FC packet departs on a link
// that carries data, and what its wire time costs, with hand-computed expectations.
#include "common/wire_schedule.h"

#include <catch2/catch.hpp>

#include "common/ib_port.h"

using ndr::common::cycle_t;
using ndr::common::ib_ports;
using ndr::common::wire_schedule;
using ndr::golden::vl_arb_table;

TEST_CASE("wire_schedule: an FC packet on an idle wire leaves when it is ready", "[common][fc]") {
    wire_schedule w(64);
    cycle_t link_free = 0;
    CHECK(w.fc(100, link_free) == 100);
    // 6 B of a 64 B beat: nothing charged to the data yet.
    CHECK(link_free == 0);
}

TEST_CASE(
    "wire_schedule: an FC packet waits exactly the remaining wire time of the data "
    "packet on the wire",
    "[common][fc]") {
    // A 4 KiB RDMA packet: 4122 B = 65 beats, on the wire for [1000, 1065). The buffer frees
    // blocks at cycle 1010 and link.fc_processing (4 cycles) makes the FC packet ready at 1014:
    // it cannot interrupt the packet, so it departs at 1065, 51 cycles = 65 - (1014 - 1000)
    // later (the remaining wire time), and reaches the partner link_cycles after that.
    wire_schedule w(64);
    cycle_t link_free = 0;
    w.book(1000, 1000, 65);
    link_free = 1065;
    CHECK(w.fc(1014, link_free) == 1065);
    // Ready the cycle the packet ends: no wait.
    CHECK(w.fc(1065, link_free) == 1065);
    // Ready in the packet's first cycle: the whole 64 remaining beats.
    wire_schedule w2(64);
    cycle_t f2 = 0;
    w2.book(0, 2000, 65);
    CHECK(w2.fc(2001, f2) == 2065);
}

TEST_CASE("wire_schedule: FC packets go ahead of data that is booked but not yet started",
          "[common][fc]") {
    // A switch books up to its egress staging ahead: packets on [0, 65), [65, 130), [130, 195).
    // An FC ready at 70 waits for the end of the packet on the wire then (130), not for the
    // end of the backlog (195).
    wire_schedule w(64);
    cycle_t link_free = 0;
    w.book(0, 0, 65);
    w.book(1, 65, 65);
    w.book(2, 130, 65);
    link_free = 195;
    CHECK(w.fc(70, link_free) == 130);
    // A gap on the wire (next packet booked at 300): an FC ready at 250 leaves at once.
    w.book(3, 300, 65);
    link_free = 365;
    CHECK(w.fc(250, link_free) == 250);
}

TEST_CASE("wire_schedule: a burst's packet boundaries (TLM bursts)", "[common][fc]") {
    // A burst of 4 packets of 65 beats on [0, 260): an FC ready at 70 leaves at the end of the
    // burst's second packet, 130.
    wire_schedule w(64);
    cycle_t link_free = 260;
    w.book(0, 0, 260, 65);
    CHECK(w.fc(70, link_free) == 130);
}

TEST_CASE("wire_schedule: FC wire time is charged in bytes, a beat per 64 B", "[common][fc]") {
    // golden fc_packet: 6 B. Ten FC packets are 60 B (no beat yet); the eleventh makes 66 B: one
    // beat is charged, so data booked next starts one cycle later (link_free 500 -> 501).
    wire_schedule w(64);
    cycle_t link_free = 500;
    w.book(0, 435, 65);
    for (int i = 0; i < 10; ++i) w.fc(440, link_free);
    CHECK(link_free == 500);
    CHECK(w.fc(440, link_free) == 500);
    CHECK(link_free == 501);
    // On an idle wire the charged beat follows the FC packet: link free at departure + 1.
    wire_schedule idle(64);
    cycle_t f = 0;
    for (int i = 0; i < 10; ++i) idle.fc(1000, f);
    CHECK(f == 0);
    idle.fc(1000, f);
    CHECK(f == 1001);
}

TEST_CASE("ib_ports: FC departures follow each port's own wire", "[common][fc]") {
    ib_ports<> link(2, 1, 100, vl_arb_table::equal_weights(1), 0, ndr::common::ENDPOINT_PORT_NAMES);
    cycle_t free0 = 65;
    cycle_t free1 = 0;
    link.booked(0, 0, 0, 65);
    CHECK(link.fc_departure(0, 10, free0) == 65);  // port 0 busy until 65
    CHECK(link.fc_departure(1, 10, free1) == 10);  // port 1 idle
}
