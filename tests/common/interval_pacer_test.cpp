// common::interval_pacer against the analytic schedule: event k of a back-to-back run is due at
// k x interval (ps) and happens at the first cycle boundary at or after it, so N events span
// (N - 1) x interval to within one cycle, i.e. the rate is 1 / interval, not 1 / ceil(interval).
#include <catch2/catch.hpp>

#include <cstdint>

#include "common/interval_pacer.h"

using ndr::common::interval_pacer;

namespace {
constexpr uint64_t CYCLE_PS = 1280;     // 64 B at 400 Gb/s
constexpr uint64_t INTERVAL_PS = 4651;  // hca.message_interval: 1 / 215 M msg/s
}  // namespace

TEST_CASE("interval_pacer: back-to-back events keep the exact interval over many", "[unit]") {
    interval_pacer p(INTERVAL_PS, CYCLE_PS);
    constexpr uint64_t N = 100'000;
    uint64_t first = 0;
    uint64_t last = 0;
    for (uint64_t k = 0; k < N; ++k) {
        const uint64_t c = p.next(0);
        // Hand-derived: ceil(k x 4651 / 1280).
        REQUIRE(c == (k * INTERVAL_PS + CYCLE_PS - 1) / CYCLE_PS);
        if (k == 0) first = c;
        last = c;
    }
    const double span_ps = static_cast<double>((last - first) * CYCLE_PS);
    const double exact_ps = static_cast<double>((N - 1) * INTERVAL_PS);
    CHECK(span_ps >= exact_ps - static_cast<double>(CYCLE_PS));
    CHECK(span_ps <= exact_ps + static_cast<double>(CYCLE_PS));
    // 215.0 M events/s, not the 195.3 M of one event per 4 whole cycles.
    const double rate = static_cast<double>(N - 1) / (span_ps * 1e-12);
    CHECK(rate == Approx(1e12 / INTERVAL_PS).epsilon(1e-4));
    CHECK(rate > 214.9e6);
}

TEST_CASE("interval_pacer: never earlier than asked, never closer than the interval", "[unit]") {
    interval_pacer p(INTERVAL_PS, CYCLE_PS);
    CHECK(p.next(196) == 196);  // the first event: when asked
    // due at 196 x 1280 + 4651 = 255,531 ps -> cycle ceil(199.63) = 200
    CHECK(p.next(196) == 200);
    CHECK(p.next(1000) == 1000);  // an idle gap longer than the interval: no catching up
    CHECK(p.next(0) == 1004);     // 1,280,000 + 4651 ps -> ceil(1003.63)
}

TEST_CASE("interval_pacer: interval 0 does not limit; a whole-cycle interval is exact", "[unit]") {
    interval_pacer none(0, CYCLE_PS);
    CHECK(none.next(5) == 5);
    CHECK(none.next(5) == 5);
    interval_pacer four(4 * CYCLE_PS, CYCLE_PS);
    CHECK(four.next(10) == 10);
    CHECK(four.next(10) == 14);
    CHECK(four.next(10) == 18);
}
