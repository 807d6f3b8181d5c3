// timer_calendar (tlm/timer_calendar.h) against an independent reference: a std::priority_queue
// ordered by (cycle, insertion sequence). Random timers near (inside the wheel) and far (beyond
// it, through the overflow heap), inserted while popping, must come out in exactly the same
// order, and pop_due must stop at its limit.
#include <catch2/catch.hpp>

#include <cstdint>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

#include "timer_calendar.h"

namespace {

struct item {
    uint64_t at = 0;
    uint64_t id = 0;
};

}  // namespace

TEST_CASE("timer_calendar: same order as a (cycle, sequence) priority queue", "[tlm]") {
    using key = std::tuple<uint64_t, uint64_t>;  // (at, insertion sequence)
    std::priority_queue<key, std::vector<key>, std::greater<>> ref;
    ndr::tlmm::timer_calendar<item> cal;
    std::mt19937_64 rng(7);
    uint64_t now = 0;
    uint64_t seq = 0;
    uint64_t popped = 0;
    for (int round = 0; round < 20000; ++round) {
        const int inserts = static_cast<int>(rng() % 4);
        for (int k = 0; k < inserts; ++k) {
            const uint64_t r = rng() % 100;
            // mostly near (same cycle + 1 .. 200), some far (up to 5 wheel turns ahead)
            const uint64_t delta = r < 80 ? 1 + rng() % 200 : 1 + rng() % (5 * 1024);
            const uint64_t at = now + delta;
            cal.push(item{at, seq});
            ref.emplace(at, seq);
            ++seq;
        }
        // advance to a random limit and pop everything due
        now += rng() % 50;
        item got;
        while (cal.pop_due(now, got)) {
            REQUIRE(!ref.empty());
            const auto [at, id] = ref.top();
            ref.pop();
            REQUIRE(got.at == at);
            REQUIRE(got.id == id);
            REQUIRE(got.at <= now);
            ++popped;
        }
        REQUIRE((ref.empty() || std::get<0>(ref.top()) > now));
        if (!ref.empty()) REQUIRE(cal.front_at() == std::get<0>(ref.top()));
    }
    REQUIRE(popped > 10000);
}
