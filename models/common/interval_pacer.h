// Events spaced by a minimum interval that need not be a whole number of cycles, such as the
// HCA's hca.message_interval (4.651 ns = 3.63 cycles of 1.28 ns). The exact time of each event
// is kept in picoseconds: event k of a back-to-back run is due at t0 + k x interval and happens
// at the first cycle boundary at or after that, so N events span (N - 1) x interval to within
// one cycle, whatever N (rounding each gap up to whole cycles would make the rate
// 1 / ceil(interval) instead: 195 M msg/s for the configured 215 M). docs/architecture.md
// ("Timing model and rounding"). SystemC-free; used by both HCA levels.
#pragma once
#include <algorithm>
#include <cstdint>

#include "common/cycles.h"

namespace ndr::common {

class interval_pacer {
public:
    interval_pacer() = default;
    /// At most one event per `interval_ps` (0: no limit), on a clock of `cycle_ps` (> 0).
    interval_pacer(uint64_t interval_ps, uint64_t cycle_ps)
        : interval_ps_(interval_ps), cycle_ps_(cycle_ps) {}

    /// Books the next event, wanted at cycle `earliest`: returns the cycle it happens, the
    /// first cycle >= `earliest` whose boundary is at or after the previous event's exact time
    /// plus the interval.
    cycle_t next(cycle_t earliest) {
        const uint64_t exact = std::max(earliest * cycle_ps_, next_ps_);
        next_ps_ = exact + interval_ps_;
        return (exact + cycle_ps_ - 1) / cycle_ps_;
    }

private:
    uint64_t interval_ps_ = 0;
    uint64_t cycle_ps_ = 1;
    uint64_t next_ps_ = 0;  ///< exact time (ps) before which the next event may not happen
};

}  // namespace ndr::common
