// common::xbar_clock (models/common/xbar_clock.h): crossbar time at a fractional speedup, with
// hand-computed expectations. Issue 15 item 3: rounding every packet up to whole cycles gave
// 1- to 4-beat packets no speedup at 1.25.
#include "common/xbar_clock.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

using ndr::common::xbar_clock;

TEST_CASE("xbar_clock: speedup as a reduced fraction P/Q", "[xbar_clock]") {
    CHECK(xbar_clock(1.25, 1).p() == 5);
    CHECK(xbar_clock(1.25, 1).q() == 4);
    CHECK(xbar_clock(1.0, 1).p() == 1);
    CHECK(xbar_clock(2.0, 1).p() == 2);
    CHECK(xbar_clock(2.0, 1).q() == 1);
    CHECK(xbar_clock(1.5, 1).p() == 3);
    CHECK(xbar_clock(1.5, 1).q() == 2);
}

TEST_CASE("xbar_clock: an isolated packet takes ceil(beats / speedup)", "[xbar_clock]") {
    // 2 beats / 1.25 = 1.6 -> 2; 66 beats (a 4 KiB packet) / 1.25 = 52.8 -> 53.
    for (uint32_t b : {1U, 2U, 3U, 4U, 5U, 66U}) {
        xbar_clock x(1.25, 2);
        const uint64_t expect = (uint64_t{b} * 4 + 4) / 5;
        CHECK(x.grant(1000, 0, 1, b, 0).done == 1000 + std::max<uint64_t>(1, expect));
        CHECK(x.cycles(b) == std::max<uint64_t>(1, expect));
        CHECK(xbar_clock(1.25, 0).cycles(b) == std::max<uint64_t>(1, expect));
    }
    CHECK(xbar_clock(1.0, 0).cycles(7) == 7);
    CHECK(xbar_clock(2.0, 0).cycles(7) == 4);
}

TEST_CASE("xbar_clock: back-to-back transfers carry the fraction", "[xbar_clock]") {
    // Speedup 1.25 = 5/4: a beat takes 4/5 cycle. Hand trace of 2-beat packets on one port:
    // start 10 (50 units), end 58 -> done 12; next starts at 58 -> 66 -> 14; next 66 -> 74 -> 15.
    xbar_clock x(1.25, 2);
    CHECK(x.grant(10, 0, 1, 2, 0).done == 12);
    CHECK(x.grant(12, 0, 1, 2, 0).done == 14);
    CHECK(x.grant(14, 0, 1, 2, 0).done == 15);
    // The per-packet rule would take 2 cycles each: 6, not 5, for the three.
}

TEST_CASE("xbar_clock: N back-to-back packets take ceil(N * beats / speedup)", "[xbar_clock]") {
    for (double s : {1.0, 1.25, 1.5, 2.0}) {
        for (uint32_t b : {2U, 3U, 4U, 17U}) {
            xbar_clock x(s, 4);
            const uint64_t t0 = 100;
            uint64_t t = t0;
            const int n = 100;
            for (int k = 0; k < n; ++k) t = x.grant(t, 1, 2, b, 0).done;
            const auto expect = static_cast<uint64_t>(std::ceil(n * b / s - 1e-9));
            INFO("speedup " << s << ", " << b << " beats");
            CHECK(t - t0 == expect);
        }
    }
}

TEST_CASE("xbar_clock: the fraction follows the port, either input or output", "[xbar_clock]") {
    // Input 0 ends at 58 units (cycle 12); the next transfer from input 0 to another output
    // starts at 58 as well; one from an idle input to an idle output starts at its grant cycle.
    xbar_clock x(1.25, 4);
    CHECK(x.grant(10, 0, 1, 2, 0).done == 12);
    CHECK(x.grant(12, 0, 2, 2, 0).done == 14);  // 58 + 8 = 66 units
    CHECK(x.grant(12, 3, 1, 2, 0).done == 14);  // output 1 freed at 58 as well
    CHECK(x.grant(20, 3, 3, 2, 0).done == 22);  // idle since 14: starts at 20 (100 units)
}

TEST_CASE("xbar_clock: floors: next cycle, and the tail's arrival (cut-through)", "[xbar_clock]") {
    xbar_clock x(1.25, 2);
    // 1 beat = 0.8 cycle, but a grant is done at t + 1 at the earliest.
    CHECK(x.grant(5, 0, 1, 1, 0).done == 6);
    // A 66-beat packet whose header arrived at 10, granted at 10, is read no faster than it
    // arrives: its tail is in at 76 although the crossbar alone would be done at 10 + 53; its
    // first 16 beats are read by 26.
    const xbar_clock::transfer t = x.grant(10, 0, 1, 66, 10);
    CHECK(t.done == 76);
    CHECK(x.read_by(t, 16) == 26);
    // The floor applied, so the ports are free from cycle 76 exactly: the next 2-beat packet
    // granted at 76 is done at 76 + 2.
    CHECK(x.grant(76, 0, 1, 2, 0).done == 78);
    // Read-out of a packet already in the buffer: first 20 beats at ceil(20 * 4 / 5) = 16.
    const xbar_clock::transfer u = x.grant(100, 1, 0, 66, 0);
    CHECK(x.read_by(u, 20) == 116);
    CHECK(u.done == 100 + 53);
}

TEST_CASE("xbar_clock: a priority packet interleaves and its ports pay for it", "[xbar_clock]") {
    // Speedup 1.25 = 5/4 (a cycle is 5 units, a beat 4); packets long in the buffer (header at
    // 0). A 65-beat transfer 0 -> 1 granted at 1000 (5000 units) ends at 5260 (cycle 1052). A
    // 1-beat priority packet 2 -> 1 at cycle 1010 does not wait for output 1: it starts at 5050,
    // ends at 5054 -> done at 1011; output 1 is then free at 5260 + 4 = 5264, so the next
    // 65-beat transfer 0 -> 1 granted at 1052 starts at 5264 and ends at 5524 -> done at 1105
    // (1104 without the priority packet). Input 2 was idle: it is free at 5054, so its next
    // transfer granted at 1011 carries the fraction: 5054 + 8 = 5062 -> done at 1013.
    xbar_clock x(1.25, 4);
    CHECK(x.grant(1000, 0, 1, 65, 0).done == 1052);
    const xbar_clock::transfer p = x.interleave(1010, 2, 1, 1, 0);
    CHECK(p.done == 1011);
    CHECK(x.read_by(p, 1) == 1011);
    CHECK(x.grant(1052, 0, 1, 65, 0).done == 1105);
    CHECK(x.grant(1011, 2, 3, 2, 0).done == 1013);
    // The floors hold as for a grant: its tail not yet in (header at 1020, 2 beats) -> 1022.
    CHECK(x.interleave(1020, 3, 2, 2, 1020).done == 1022);
    // Reference: the same sequence without the priority packet.
    xbar_clock y(1.25, 4);
    CHECK(y.grant(1000, 0, 1, 65, 0).done == 1052);
    CHECK(y.grant(1052, 0, 1, 65, 0).done == 1104);
}
