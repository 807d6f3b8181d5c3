// RC responder PSN window (models/golden/rc_psn_window.h) against hand-worked arrival orders:
// in order, gaps without out-of-order placement (NAK territory), gaps with it (placed once,
// the expected PSN jumping when the gap fills), duplicates, 24-bit wrap, TLM bursts.
#include <catch2/catch.hpp>

#include <cstdint>

#include "golden/rc_psn_window.h"

using ndr::golden::rc_psn_window;
using verdict = rc_psn_window::verdict;

TEST_CASE("psn window: in-order packets advance one by one", "[golden][rc]") {
    rc_psn_window w;
    for (uint32_t psn = 0; psn < 5; ++psn) {
        const auto r = w.on_packet(psn, 1, false);
        CHECK(r.v == verdict::in_order);
        CHECK(r.placed);
        CHECK(r.advanced == 1);
    }
    CHECK(w.expected() == 5);
}

TEST_CASE("psn window: without OOO a gap is not accepted - a repeat is behind", "[golden][rc]") {
    rc_psn_window w;
    CHECK(w.on_packet(0, 1, false).placed);
    const auto gap = w.on_packet(2, 1, false);  // PSN 1 missing
    CHECK(gap.v == verdict::ahead);
    CHECK_FALSE(gap.placed);
    CHECK(w.expected() == 1);
    const auto dup = w.on_packet(0, 1, false);
    CHECK(dup.v == verdict::behind);
    CHECK_FALSE(dup.placed);
    CHECK(w.on_packet(1, 1, false).advanced == 1);
    CHECK(w.on_packet(2, 1, false).advanced == 1);  // the go-back-N resend, in order now
    CHECK(w.expected() == 3);
}

TEST_CASE("psn window: OOO places ahead packets once and jumps when the gap fills",
          "[golden][rc]") {
    // Arrival order 0, 3, 2, 5, 1, 4: expected 1 after 0; 3 and 2 placed ahead; 5 placed; 1
    // fills the gap: expected jumps over 1, 2, 3 to 4 (advanced 3); 4 then covers 4 and 5.
    rc_psn_window w;
    CHECK(w.on_packet(0, 1, true).advanced == 1);
    auto r = w.on_packet(3, 1, true);
    CHECK(r.v == verdict::ahead);
    CHECK(r.placed);
    CHECK(w.on_packet(2, 1, true).placed);
    CHECK(w.on_packet(5, 1, true).placed);
    CHECK(w.placed_ahead() == 3);
    const auto again = w.on_packet(3, 1, true);  // a duplicate of a placed packet
    CHECK(again.v == verdict::ahead);
    CHECK_FALSE(again.placed);
    r = w.on_packet(1, 1, true);
    CHECK(r.v == verdict::in_order);
    CHECK(r.advanced == 3);
    CHECK(w.expected() == 4);
    CHECK(w.placed_ahead() == 1);
    r = w.on_packet(4, 1, true);
    CHECK(r.advanced == 2);
    CHECK(w.expected() == 6);
    CHECK(w.placed_ahead() == 0);
    CHECK(w.on_packet(2, 1, true).v == verdict::behind);
}

TEST_CASE("psn window: 24-bit wrap", "[golden][rc]") {
    rc_psn_window w;
    // Bring expected to 0xFFFFFE with one burst, then cross the wrap out of order.
    CHECK(w.on_packet(0, 0xFFFFFEU, true).advanced == 0xFFFFFEU);
    CHECK(w.on_packet(0, 1, true).placed);  // PSN 0 of the next lap: 2 ahead
    CHECK(w.on_packet(0xFFFFFFU, 1, true).placed);
    const auto r = w.on_packet(0xFFFFFEU, 1, true);
    CHECK(r.advanced == 3);
    CHECK(w.expected() == 1);
    CHECK(w.on_packet(0xFFFFF0U, 1, true).v == verdict::behind);  // 17 behind
}

TEST_CASE("psn window: TLM bursts of consecutive PSNs - unwrapped", "[golden][rc]") {
    rc_psn_window w(0xFFFFFFFFU);
    CHECK(w.on_packet(8, 8, true).placed);  // burst 8..15 overtakes burst 0..7
    const auto r = w.on_packet(0, 8, true);
    CHECK(r.advanced == 16);
    CHECK(w.expected() == 16);
    CHECK(w.placed_ahead() == 0);
}
