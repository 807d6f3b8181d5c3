// Adaptive routing choice (models/golden/ar_select.h) against hand-computed vectors: the LFT
// port kept while quiet, the least-loaded port (queued blocks minus free credits) otherwise,
// ports without credits skipped, ties to the LFT port or by the seeded draw.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "golden/ar_select.h"

using ndr::golden::ar_candidate;
using ndr::golden::ar_choose;
using ndr::golden::ar_tie_draw;

namespace {

// Four up-ports 4..7 of a radix-8 leaf; a full-MTU packet needs 65 blocks.
constexpr uint32_t NEED = 65;
constexpr uint32_t THRESHOLD = 64;  // routing.ar_threshold 4 KiB

uint8_t pick(uint8_t lft, const std::vector<ar_candidate>& c, uint64_t tie = 0) {
    return ar_choose(lft, c.data(), c.size(), NEED, THRESHOLD, tie);
}

}  // namespace

TEST_CASE("ar: a port outside the group keeps its LFT route", "[golden][ar]") {
    const std::vector<ar_candidate> up{{4, 500, 0}, {5, 0, 512}, {6, 0, 512}, {7, 0, 512}};
    CHECK(pick(0, up) == 0);  // a down route to host 0: single path, whatever the load
}

TEST_CASE("ar: a quiet LFT port with credits is kept", "[golden][ar]") {
    // Port 5 has 64 blocks queued (= threshold) and 100 credits; port 4 is idle with 512.
    const std::vector<ar_candidate> up{{4, 0, 512}, {5, 64, 100}, {6, 0, 512}, {7, 0, 512}};
    CHECK(pick(5, up) == 5);
}

TEST_CASE("ar: past the threshold - the least queued minus free credits wins", "[golden][ar]") {
    // load = queued - free: 4: 130-200 = -70, 5: 65-512 = -447, 6: 0-300 = -300, 7: 200-512 = -312
    const std::vector<ar_candidate> up{{4, 130, 200}, {5, 65, 512}, {6, 0, 300}, {7, 200, 512}};
    CHECK(pick(4, up) == 5);
    // The same with the LFT port 5 itself over the threshold (65 > 64): still the best, kept.
    CHECK(pick(5, up) == 5);
}

TEST_CASE("ar: an LFT port without credits is left even when its queue is short", "[golden][ar]") {
    // Port 6: nothing queued but only 64 credits (< 65): not quiet. Loads: 4: 100-512 = -412,
    // 5: 0-65 = -65, 6 has no room, 7: 10-400 = -390. Best that fits: 4.
    const std::vector<ar_candidate> up{{4, 100, 512}, {5, 0, 65}, {6, 0, 64}, {7, 10, 400}};
    CHECK(pick(6, up) == 4);
}

TEST_CASE("ar: ports without the credits are skipped unless none has them", "[golden][ar]") {
    // Port 7 has the lowest load (0 - 60 = -60) but cannot take 65 blocks; 5 (-10) can.
    const std::vector<ar_candidate> some{{4, 200, 100}, {5, 80, 90}, {6, 300, 70}, {7, 0, 60}};
    CHECK(pick(4, some) == 5);
    // No port has 65 credits: the least load among all (port 7: 0 - 60) waits there.
    const std::vector<ar_candidate> none{{4, 200, 10}, {5, 80, 20}, {6, 300, 0}, {7, 0, 60}};
    CHECK(pick(4, none) == 7);
}

TEST_CASE("ar: ties go to the LFT port - else to the (tie mod n)-th tied port", "[golden][ar]") {
    // LFT 4 over the threshold (100 queued); 4, 5, 7 all at load 100 - 500 = -400, 6 worse.
    const std::vector<ar_candidate> up{{4, 100, 500}, {5, 100, 500}, {6, 300, 500}, {7, 100, 500}};
    CHECK(pick(4, up, 0) == 4);
    CHECK(pick(4, up, 7) == 4);
    // LFT 6 is not among the tied {4, 5, 7}: the draw picks index tie mod 3 in port order.
    CHECK(pick(6, up, 0) == 4);
    CHECK(pick(6, up, 1) == 5);
    CHECK(pick(6, up, 2) == 7);
    CHECK(pick(6, up, 3) == 4);
    CHECK(pick(6, up, 0xFFFFFFFFFFFFFFFFULL) == 4);  // 2^64 - 1 = 0 mod 3
}

TEST_CASE("ar: the tie draw is SplitMix64 - fixed by seed - switch and decision", "[golden][ar]") {
    // Seed 0, switch 0, decision 0 is SplitMix64's first output from state 0 (published
    // reference value of the generator).
    CHECK(ar_tie_draw(0, 0, 0) == 0xE220A8397B1DCDAFULL);
    // The state is seed * 0xBF58476D1CE4E5B9 + (sw << 40) + decision: (0, 0, 1) and (0, 0, 0)
    // are one apart; seed 1 starts from 0xBF58476D1CE4E5B9, not from 1.
    CHECK(ar_tie_draw(0, 0, 1) != ar_tie_draw(0, 0, 0));
    CHECK(ar_tie_draw(1, 0, 0) != ar_tie_draw(0, 0, 1));
    CHECK(ar_tie_draw(0, 1, 0) != ar_tie_draw(0, 0, 0));
}

TEST_CASE("ar: FLFR - a dead LFT port's packet takes the least loaded live port", "[golden][ar]") {
    using ndr::golden::ar_choose_alternative;
    // LFT port 4 is down, so the switch offers 5..7 only. load = queued - free:
    // 5: 0-512 = -512, 6: 65-512 = -447, 7: 0-512 = -512: 5 and 7 tie, no LFT port to prefer,
    // so the (tie mod 2)-th of them.
    const std::vector<ar_candidate> live{{5, 0, 512}, {6, 65, 512}, {7, 0, 512}};
    CHECK(ar_choose_alternative(4, live.data(), live.size(), NEED, 0) == 5);
    CHECK(ar_choose_alternative(4, live.data(), live.size(), NEED, 1) == 7);
    CHECK(ar_choose_alternative(4, live.data(), live.size(), NEED, 2) == 5);
    // Quiet ports are not kept in place as rule 2 would: even a quiet 6 loses to a less loaded 5.
    const std::vector<ar_candidate> quiet{{5, 0, 512}, {6, 0, 100}};
    CHECK(ar_choose_alternative(4, quiet.data(), quiet.size(), NEED, 0) == 5);
    // No live port left in the group: the LFT port (the packet is lost there).
    CHECK(ar_choose_alternative(4, live.data(), 0, NEED, 0) == 4);
}
