// The link-utilisation sampler (testbench/report/link_sampler.h) against what the level
// estimate predicts of it (sampler_takes, testbench/sim/level_cost.cpp): driven as the run loop
// drives it (replay_loop.h: advance one interval, take a sample, until the span is covered),
// the number of samples it takes, its final interval and its series' length are what the
// closed-form walk of the halving rule gives; the cap shrinks with the fabric only above 4,096
// links; and a saturated link reads exactly 1 in every sample, whatever the halvings.
// No simulation here (the SystemC stub main is linked as for every test of this folder).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "link_sampler.h"

namespace tb = ndr::tb;

namespace {

struct fake_link {
    std::string name;
    uint32_t tier = 0;
};

/// Every link sends one beat per cycle (saturated) from cycle 0, nothing unsent.
struct fake_fabric {
    std::vector<fake_link> l;
    uint64_t now = 0;
    const std::vector<fake_link>& links() const { return l; }
    uint64_t link_beats(const fake_link&) const { return now; }
    uint64_t link_beats_unsent(const fake_link&, uint64_t) const { return 0; }
};

struct walk {
    uint64_t takes = 0;
    uint64_t last_interval = 0;
    std::size_t points = 0;
};

/// The run loop of replay_loop.h over `span` cycles.
walk drive(std::size_t links, uint64_t span, uint64_t cycle_ps, uint64_t period_ps,
           bool check_full) {
    fake_fabric f;
    f.l.resize(links);
    std::vector<tb::link_sample_series> series;
    tb::link_sampler<fake_fabric> s(f, series, cycle_ps, period_ps);
    walk w;
    while (f.now < span) {
        f.now += s.interval();
        s.take(f.now);
        ++w.takes;
    }
    w.last_interval = s.interval();
    w.points = series.front().utilisation.size();
    if (check_full) {
        for (const float u : series.back().utilisation) REQUIRE(u == 1.0F);
    }
    return w;
}

}  // namespace

TEST_CASE("link_sampler: the level estimate's sample count is the sampler's", "[report]") {
    const uint64_t cycle_ps = 1280;  // 781 cycles per automatic first interval
    const uint64_t first = tb::sampler_interval(cycle_ps, 0);
    CHECK(first == 781);
    CHECK(tb::sampler_interval(cycle_ps, 10'000'000) == 7813);  // 10 us, rounded
    CHECK(tb::sampler_interval(cycle_ps, 100) == 1);            // at least one cycle
    for (const std::size_t links : {std::size_t{4}, std::size_t{20'000}}) {
        const std::size_t cap = tb::sampler_cap(links, false);
        for (const uint64_t span : {uint64_t{1}, uint64_t{781} * 1999, uint64_t{781} * 2000,
                                    uint64_t{781} * 2001, uint64_t{8'000'000}}) {
            INFO("links " << links << " span " << span);
            const walk w = drive(links, span, cycle_ps, 0, links == 4);
            CHECK(static_cast<double>(w.takes) ==
                  tb::sampler_takes(static_cast<double>(span), first, cap));
            CHECK(w.points <= cap);
            CHECK(w.points > 0);
        }
    }
    // 8,000,000 cycles at 781 per sample on 4 links (cap 2,000): 2,000 samples at 781 cycles
    // (1,562,000), then 1,000 more at 1,562 (3,124,000 in all), 1,000 at 3,124 (6,248,000),
    // then ceil(1,752,000 / 6,248) = 281 at 6,248: 4,281 samples, 1,281 points, by hand.
    const walk w = drive(4, 8'000'000, cycle_ps, 0, true);
    CHECK(w.takes == 4281);
    CHECK(w.last_interval == 6248);
    CHECK(w.points == 1281);
}

TEST_CASE("link_sampler: the series cap follows the fabric only above 4,096 links", "[report]") {
    CHECK(tb::sampler_cap(128, false) == 2000);
    CHECK(tb::sampler_cap(4096, false) == 2000);
    CHECK(tb::sampler_cap(24'576, false) == 333);  // 8,192,000 / 24,576
    CHECK(tb::sampler_cap(1'000'000, false) == 250);
    CHECK(tb::sampler_cap(128, true) == 1'000'000);
    CHECK(tb::sampler_cap(24'576, true) == 5208);  // 128,000,000 / 24,576
    CHECK(tb::sampler_cap(10'000'000, true) == 4000);
}
