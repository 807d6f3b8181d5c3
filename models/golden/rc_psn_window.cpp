#include "golden/rc_psn_window.h"

#include <algorithm>

namespace ndr::golden {

rc_psn_window::result rc_psn_window::on_packet(uint32_t psn, uint32_t count, bool out_of_order) {
    const uint32_t dist = (psn - expected_) & mask_;
    const uint32_t half = mask_ / 2 + 1;
    result r;
    if (dist == 0) {
        r.v = verdict::in_order;
        r.placed = true;
        uint32_t step = count;
        // Skip the PSNs already placed out of order right behind this packet.
        while (seen(step)) ++step;
        r.advanced = step;
        expected_ = (expected_ + step) & mask_;
        if (ahead_count_ != 0) {
            const uint32_t skipped = step - count;
            ahead_count_ -= skipped;
            if (step >= ahead_.size()) {
                ahead_.clear();
            } else {
                ahead_.erase(ahead_.begin(), ahead_.begin() + step);
            }
            if (ahead_count_ == 0) ahead_.clear();
        }
        return r;
    }
    if (dist >= half) {
        r.v = verdict::behind;
        return r;
    }
    r.v = verdict::ahead;
    if (!out_of_order || seen(dist)) return r;
    if (ahead_.size() < std::size_t{dist} + count) ahead_.resize(std::size_t{dist} + count, 0);
    for (uint32_t j = 0; j < count; ++j) ahead_[dist + j] = 1;
    ahead_count_ += count;
    r.placed = true;
    return r;
}

}  // namespace ndr::golden
