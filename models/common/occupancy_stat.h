// Time-weighted occupancy of one buffer over a measurement window: mean and maximum.
#pragma once
#include <algorithm>
#include <cstdint>

#include "common/cycles.h"

namespace ndr::common {

class occupancy_stat {
public:
    void update(cycle_t t, uint32_t value) {
        if (t > last_) {
            area_ += static_cast<uint64_t>(value_) * (t - last_);
            last_ = t;
        }
        value_ = value;
        max_ = std::max(max_, value);
    }
    /// Starts a window at t (the current value carries in).
    void reset(cycle_t t) {
        last_ = t;
        area_ = 0;
        max_ = value_;
    }
    /// Closes the window at t and returns the mean occupancy over [start, t).
    void close(cycle_t t, cycle_t start) {
        update(t, value_);
        mean_ = t > start ? static_cast<double>(area_) / static_cast<double>(t - start) : 0.0;
        frozen_max_ = max_;
    }
    double mean() const { return mean_; }
    uint32_t max() const { return frozen_max_; }
    uint32_t value() const { return value_; }

private:
    uint32_t value_ = 0;  // hot (update) fields first: 24 bytes
    uint32_t max_ = 0;
    cycle_t last_ = 0;
    uint64_t area_ = 0;
    double mean_ = 0.0;
    uint32_t frozen_max_ = 0;
};

}  // namespace ndr::common
