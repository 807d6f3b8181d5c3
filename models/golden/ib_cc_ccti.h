// The CA side of InfiniBand congestion control (IBTA Annex A10 CACongestionSetting and
// CongestionControlTable) for one QP, as both HCA models apply it. Each BECN adds
// CCTI_Increase to the CCT index (CCTI), capped at CCTI_Limit; a free-running timer of period
// CCTI_Timer takes one off at each expiry, down to CCTI_Min. After a packet that starts at t
// and lasts `wire` on the link, the QP's next packet may start at t + wire + CCT[CCTI] (the
// injection-rate delay inserted between its packets). Times in picoseconds; the timer is
// applied lazily (advance) before every use, which gives the same index as timer events.
// SystemC-free.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ndr::golden {

struct cc_ca_params {
    uint32_t increase = 1;
    uint32_t limit = 127;
    uint32_t min = 0;
    uint64_t timer_ps = 1;         ///< > 0
    std::vector<uint64_t> ird_ps;  ///< CCT delays, limit + 1 entries or more
};

class cc_ccti {
public:
    cc_ccti() = default;
    explicit cc_ccti(const cc_ca_params& p) : ccti_(p.min), max_(p.min) {}

    /// Applies the timer expiries up to time t.
    void advance(uint64_t t, const cc_ca_params& p) {
        if (ccti_ < p.min) ccti_ = max_ = p.min;  // a default-constructed QP starts at CCTI_Min
        if (t < period_start_ + p.timer_ps) return;
        const uint64_t n = (t - period_start_) / p.timer_ps;
        period_start_ += n * p.timer_ps;
        ccti_ = static_cast<uint32_t>(std::max<uint64_t>(p.min, ccti_ > n ? ccti_ - n : 0));
    }
    /// A BECN for this QP arrived at time t.
    void on_becn(uint64_t t, const cc_ca_params& p) {
        advance(t, p);
        ccti_ = std::min(p.limit, ccti_ + p.increase);
        max_ = std::max(max_, ccti_);
        ++becns_;
    }
    /// A packet of the QP starts at t and occupies the link for `wire_ps`.
    void on_send(uint64_t t, uint64_t wire_ps, const cc_ca_params& p) {
        advance(t, p);
        next_ = t + wire_ps + p.ird_ps[ccti_];
    }
    /// Earliest time the QP's next packet may start.
    uint64_t next_send() const { return next_; }
    uint32_t ccti() const { return ccti_; }
    uint32_t ccti_max() const { return max_; }
    uint64_t becns() const { return becns_; }

private:
    uint32_t ccti_ = 0;
    uint32_t max_ = 0;
    uint64_t period_start_ = 0;
    uint64_t next_ = 0;
    uint64_t becns_ = 0;
};

}  // namespace ndr::golden
