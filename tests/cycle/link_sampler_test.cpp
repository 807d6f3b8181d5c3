// The link-utilisation sampler (testbench/report/link_sampler.h) against what the level
// estimate predicts of it (sampler_takes, testbench/sim/level_cost.cpp): driven as the run loop
// drives it (replay_loop.h: advance one interval, take a sample, until the span is covered),
// the number of samples it takes, its final interval and its series' length are what the
// closed-form walk of the halving rule gives; the cap shrinks with the fabric only above 4,096
// links; a saturated link reads exactly 1 in every sample, whatever the halvings; and links
// of different, irregular loads get the series a per-link reference of the rule computes
// (each link's own samples, pairs merged by averaging, the odd last one dropped).
// No simulation here (the SystemC stub main is linked as for every test of this folder).
#include <catch2/catch.hpp>

#include <algorithm>
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

/// Every link sends one beat per cycle (saturated) from cycle 0, nothing unsent: every link's
/// counters are `now` (beats) and `now` (wire free).
struct fake_fabric {
    std::vector<fake_link> l;
    uint64_t now = 0;
    const std::vector<fake_link>& links() const { return l; }
    const uint64_t* link_beats_at(const fake_link&) const { return &now; }
    const uint64_t* link_free_at(const fake_link&) const { return &now; }
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
    s.finish();
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

/// Link i has sent (now * (i + 1) + now / 7 * i) / (links + 1) beats by `now`, of which
/// (i * 13) % 5 are not yet on the wire (its wire is free that many cycles after `now`): loads
/// from ~0 to ~1, different on every link. advance() moves `now` and the counters.
struct uneven_fabric {
    std::vector<fake_link> l;
    uint64_t now = 0;
    std::vector<uint64_t> beats;
    std::vector<uint64_t> free;
    explicit uneven_fabric(std::size_t links) : l(links), beats(links, 0), free(links, 0) {}
    const std::vector<fake_link>& links() const { return l; }
    std::size_t index(const fake_link& x) const { return static_cast<std::size_t>(&x - l.data()); }
    const uint64_t* link_beats_at(const fake_link& x) const { return &beats[index(x)]; }
    const uint64_t* link_free_at(const fake_link& x) const { return &free[index(x)]; }
    static uint64_t sent(uint64_t now, std::size_t i, std::size_t links) {
        return (now * (i + 1) + now / 7 * i) / (links + 1);
    }
    static uint64_t unsent(std::size_t i) { return i * 13 % 5; }
    void advance(uint64_t t) {
        now = t;
        for (std::size_t i = 0; i < l.size(); ++i) {
            beats[i] = sent(now, i, l.size());
            free[i] = now + unsent(i);
        }
    }
};

/// The per-link reference: after one interval `iv` ending at f.now, each link's utilisation is
/// the beats it put on the wire in that interval (sent less the not-yet-sent tail, never more
/// than the interval holds, never backwards) over the interval, appended to ref[i].
void reference_take(const uneven_fabric& f, uint64_t iv, std::vector<std::vector<float>>& ref,
                    std::vector<uint64_t>& last) {
    const std::size_t links = ref.size();
    for (std::size_t i = 0; i < links; ++i) {
        const uint64_t total = uneven_fabric::sent(f.now, i, links);
        const uint64_t unsent = std::min(total, uneven_fabric::unsent(i));
        const uint64_t b = std::clamp(total - unsent, last[i], last[i] + iv);
        ref[i].push_back(
            static_cast<float>(static_cast<double>(b - last[i]) / static_cast<double>(iv)));
        last[i] = b;
    }
}

TEST_CASE("link_sampler: uneven links get the per-link reference series", "[report]") {
    const std::size_t links = 5;
    const uint64_t first = 3;
    const std::size_t cap = tb::sampler_cap(links, true);  // fixed period: 1,000,000 points
    uneven_fabric f(links);
    std::vector<tb::link_sample_series> series;
    tb::link_sampler<uneven_fabric> s(f, series, 1000, first * 1000);
    REQUIRE(s.interval() == first);
    // The reference: the rule of link_sampler::take written per link, with a small cap so that
    // it halves; the sampler under test runs with its own (large) cap, so compare up to the
    // reference's first halving, then check the halving itself on a copy with the cap forced.
    std::vector<std::vector<float>> ref(links);
    std::vector<uint64_t> last(links, 0);
    const uint64_t takes = 1001;
    for (uint64_t t = 0; t < takes; ++t) {
        f.advance(f.now + first);
        s.take(f.now);
        reference_take(f, first, ref, last);
    }
    s.finish();
    REQUIRE(cap > takes);  // no halving in this run
    for (std::size_t i = 0; i < links; ++i) {
        INFO("link " << i);
        CHECK(series[i].utilisation == ref[i]);
    }
    CHECK(series[0].utilisation != series[4].utilisation);
}

TEST_CASE("link_sampler: halving merges each link's own pairs", "[report]") {
    // 20,000 links: the automatic cap is 409 points (8,192,000 / 20,000), so 410 takes halve
    // once, leaving 204 points per link (the odd last sample is dropped), each the mean of two
    // of that link's samples.
    const std::size_t links = 20'000;
    const std::size_t cap = tb::sampler_cap(links, false);
    REQUIRE(cap == 409);
    uneven_fabric f(links);
    std::vector<tb::link_sample_series> series;
    tb::link_sampler<uneven_fabric> s(f, series, 1'000'000, 0);  // 1 cycle per automatic sample
    const uint64_t iv = s.interval();
    std::vector<std::vector<float>> ref(links);
    std::vector<uint64_t> last(links, 0);
    for (std::size_t t = 0; t < cap; ++t) {
        f.advance(f.now + iv);
        s.take(f.now);
        reference_take(f, iv, ref, last);
    }
    CHECK(s.interval() == 2 * iv);
    s.finish();
    for (const std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{777}, links - 1}) {
        INFO("link " << i);
        REQUIRE(series[i].utilisation.size() == cap / 2);
        for (std::size_t k = 0; k < cap / 2; ++k) {
            CHECK(series[i].utilisation[k] == (ref[i][2 * k] + ref[i][2 * k + 1]) / 2.0F);
        }
    }
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
