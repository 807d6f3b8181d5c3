// IBTA Annex A10 congestion-control rules (golden/ib_cc_*.h) against hand-computed vectors.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "golden/ib_cc_ccti.h"
#include "golden/ib_cc_marker.h"
#include "golden/ib_cc_table.h"

using namespace ndr::golden;

TEST_CASE("cc threshold maps 0..15 to a queue depth in blocks", "[golden][cc]") {
    CHECK(cc_threshold_blocks(0, 512) == 0);    // 0: never marks
    CHECK(cc_threshold_blocks(8, 512) == 256);  // (16 - 8) / 16 x 512
    CHECK(cc_threshold_blocks(15, 512) == 32);  // 1/16 x 512
    CHECK(cc_threshold_blocks(1, 100) == 94);   // ceil(15 x 100 / 16) = ceil(93.75)
}

TEST_CASE("cc marker: depth behind the packet, roots only, every (rate+1)th", "[golden][cc]") {
    // One queue, threshold 8 of a 512-block buffer = 256 blocks, marking_rate 1, min 10 blocks.
    // dequeued(q, blocks, data, beats, gap): gap 0 = the link still busy with earlier packets.
    cc_marker m(1, 8, 512, 1, 10);
    for (int i = 0; i < 6; ++i) m.enqueued(0, 66);  // 396 blocks queued
    // Leaves 330 behind: eligible, first eligible packet is marked.
    CHECK(m.dequeued(0, 66, true, 66, 0));
    CHECK_FALSE(m.dequeued(0, 66, true, 66, 0));  // 264 behind: eligible, skipped (rate 1)
    CHECK_FALSE(m.dequeued(0, 66, true, 66, 0));  // 198 behind: not above 256
    CHECK(m.depth(0) == 198);
    m.enqueued(0, 66);
    m.enqueued(0, 66);                             // 330
    CHECK_FALSE(m.dequeued(0, 66, true, 66, 1));   // 264 behind but the link idled: no mark
    m.enqueued(0, 66);                             // 330
    CHECK_FALSE(m.dequeued(0, 66, false, 66, 0));  // an ACK/control packet: no mark
    m.enqueued(0, 300);
    CHECK_FALSE(m.dequeued(0, 5, true, 5, 0));  // below Packet_Size 10
    CHECK(m.dequeued(0, 66, true, 66, 0));      // 459 behind: the next eligible one
    CHECK(m.marked() == 2);
    cc_marker off(1, 0, 512, 0, 0);
    off.enqueued(0, 5000);
    CHECK_FALSE(off.dequeued(0, 66, true, 66, 0));
}

TEST_CASE("cc marker: a victim's idle link keeps it from marking, Victim_Mask marks",
          "[golden][cc]") {
    // Busy fraction in 1/256, a running average over 8 packets: b = (7 b + 256 beats /
    // (beats + gap)) / 8 (integer division), starting at 256; a root needs gap 0 and b >= 224.
    // A link that idles 130 beats before each 65-beat packet (a 1/3 share): sample 85.
    cc_marker m(1, 8, 512, 0, 0);
    m.enqueued(0, 5000);
    CHECK_FALSE(m.dequeued(0, 65, true, 65, 130));  // b = (7 x 256 + 85) / 8 = 234; idled
    CHECK(m.busy(0) == 234);
    CHECK_FALSE(m.dequeued(0, 65, true, 65, 130));  // b = (7 x 234 + 85) / 8 = 215
    CHECK(m.busy(0) == 215);
    // The link happens to be busy, but it has been idle too much of the time: still a victim.
    CHECK_FALSE(m.dequeued(0, 65, true, 65, 0));  // b = (7 x 215 + 256) / 8 = 220 < 224
    CHECK(m.busy(0) == 220);
    CHECK(m.dequeued(0, 65, true, 65, 0));  // b = (7 x 220 + 256) / 8 = 224: a root again
    CHECK(m.busy(0) == 224);
    // With its Victim_Mask bit set the queue marks even when its link idles.
    cc_marker v(2, 8, 512, 0, 0);
    v.set_victim_mask(1);
    v.enqueued(0, 5000);
    v.enqueued(1, 5000);
    CHECK_FALSE(v.dequeued(0, 65, true, 65, 130));
    CHECK(v.dequeued(1, 65, true, 65, 130));
    CHECK(v.marked() == 1);
}

TEST_CASE("cc CCTI: increase per BECN, capped at the limit, timer decay to min", "[golden][cc]") {
    cc_ca_params p;
    p.increase = 3;
    p.limit = 7;
    p.min = 1;
    p.timer_ps = 1000;
    p.ird_ps = cct_delays_ps(cct_default(8), 10);  // entry i: i x 10 ps
    cc_ccti c;
    c.advance(0, p);
    CHECK(c.ccti() == 1);  // starts at CCTI_Min
    c.on_becn(100, p);
    CHECK(c.ccti() == 4);
    c.on_becn(200, p);
    CHECK(c.ccti() == 7);
    c.on_becn(300, p);
    CHECK(c.ccti() == 7);  // capped at CCTI_Limit
    CHECK(c.becns() == 3);
    c.advance(2500, p);  // expiries at 1000 and 2000
    CHECK(c.ccti() == 5);
    c.on_send(2500, 80, p);
    CHECK(c.next_send() == 2500 + 80 + 50);  // wire time + CCT[5] = 5 x 10 ps
    c.advance(10'000, p);                    // 8 more expiries: floor at CCTI_Min
    CHECK(c.ccti() == 1);
    CHECK(c.ccti_max() == 7);
}

TEST_CASE("cc CCT: OpenSM shift:multiplier syntax and delays", "[golden][cc]") {
    const auto t = cct_parse("0:0,1:3,3:16383");
    REQUIRE(t.size() == 3);
    const auto d = cct_delays_ps(t, 1000);
    CHECK(d[0] == 0);
    CHECK(d[1] == 6000);                 // 3 << 1
    CHECK(d[2] == 16383ULL * 8 * 1000);  // 16383 << 3
    CHECK(cct_parse("").size() == CCT_DEFAULT_ENTRIES);
    CHECK(cct_parse("")[127].multiplier == 127);
    CHECK_FALSE(cct_check("4:1").empty());      // shift > 3
    CHECK_FALSE(cct_check("0:16384").empty());  // multiplier > 14 bits
    CHECK_FALSE(cct_check("0:1,,0:2").empty());
    CHECK_THROWS_AS(cct_parse("x"), std::invalid_argument);
}
