// RC acknowledgement rules (models/golden/rc_ack.h) against hand-worked sequences: which packets
// carry AckReq, which accepted packets the responder acknowledges, when the transport timer
// expires.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "golden/rc_ack.h"

using ndr::golden::rc_ack_coalescer;
using ndr::golden::rc_ack_deadline;
using ndr::golden::rc_ack_req;

TEST_CASE("rc ack: AckReq on a message's last packet and on the one that fills the window",
          "[golden][rc]") {
    CHECK(rc_ack_req(true, 1, 1024));  // last packet of a message, window nearly empty
    CHECK_FALSE(rc_ack_req(false, 1023, 1024));
    CHECK(rc_ack_req(false, 1024, 1024));  // the 1024th outstanding packet fills the window
    CHECK(rc_ack_req(false, 1, 1));        // a window of one: every packet asks
    CHECK(rc_ack_req(false, 2, 2));
    CHECK_FALSE(rc_ack_req(false, 1, 2));
}

TEST_CASE("rc ack: the responder ACKs every N accepted packets and every AckReq", "[golden][rc]") {
    // Coalesce 4; AckReq on packets 5 (window full) and 9 (message last). By hand: ACKs after
    // packets 3 (4th accepted), 5 (AckReq; count restarts), 9 (AckReq, 4th since 5 too),
    // and 13 (4th since 9).
    rc_ack_coalescer r;
    std::vector<uint32_t> acked;
    for (uint32_t psn = 0; psn < 14; ++psn) {
        if (r.on_accept(psn == 5 || psn == 9, 4)) acked.push_back(psn);
    }
    CHECK(acked == std::vector<uint32_t>{3, 5, 9, 13});
    CHECK(r.pending() == 0);
    CHECK_FALSE(r.on_accept(false, 4));
    CHECK(r.pending() == 1);
}

TEST_CASE("rc ack: a window smaller than the coalescing count is still acknowledged",
          "[golden][rc]") {
    // max_outstanding 2, ack_coalesce 16, a 3-packet message: the requester sends PSN 0, 1
    // (AckReq: window full), then after the ACK PSN 2 (AckReq: last). Both windows get an ACK.
    rc_ack_coalescer r;
    const uint64_t window = 2;
    CHECK_FALSE(r.on_accept(rc_ack_req(false, 1, window), 16));
    CHECK(r.on_accept(rc_ack_req(false, 2, window), 16));
    CHECK(r.on_accept(rc_ack_req(true, 1, window), 16));
}

TEST_CASE("rc ack: the timer runs from the oldest packet's transmission, restarted by progress",
          "[golden][rc]") {
    const uint64_t timeout = 1000;
    // Sent at 50, no ACK since: expires at 1050.
    CHECK(rc_ack_deadline(50, 0, timeout) == 1050);
    // An ACK retired older packets at 900: the remaining oldest (sent at 120) gets until 1900.
    CHECK(rc_ack_deadline(120, 900, timeout) == 1900);
    // Retransmitted at 2500 after the last progress at 900: from the retransmission.
    CHECK(rc_ack_deadline(2500, 900, timeout) == 3500);
}

TEST_CASE("rc_ack_coalescer::on_accept_run is on_accept called once per packet of the burst",
          "[golden][rc]") {
    // Independent expectation: the per-packet rule itself, run packet by packet on a second
    // coalescer in the same state, over bursts of random lengths (0 included) with and without
    // AckReq on their last packet, for coalesce 0 (every packet), 1, 2, 3, 8 and 64.
    std::mt19937 rng(20261207);
    for (const uint32_t c : {0U, 1U, 2U, 3U, 8U, 64U}) {
        rc_ack_coalescer run;
        rc_ack_coalescer one;
        for (int burst = 0; burst < 2000; ++burst) {
            const uint32_t count = rng() % 200;
            const bool req = rng() % 3 == 0;
            uint32_t acks = 0;
            uint32_t last = 0;
            for (uint32_t j = 0; j < count; ++j) {
                if (one.on_accept(req && j + 1 == count, c)) {
                    ++acks;
                    last = j;
                }
            }
            const rc_ack_coalescer::run_acks r = run.on_accept_run(count, req, c);
            INFO("coalesce " << c << " burst " << burst << " count " << count << " req " << req);
            REQUIRE(r.acks == acks);
            if (acks > 0) REQUIRE(r.last == last);
            REQUIRE(run.pending() == one.pending());
        }
    }
}
