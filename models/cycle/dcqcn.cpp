#include "cycle/dcqcn.h"

#include <algorithm>
#include <cmath>

#include "common/timing.h"

namespace ndr::cycle {

using common::ps_to_cycles;

dcqcn_params dcqcn_params::from(const cfg::config& c, uint64_t cycle_ps) {
    dcqcn_params p;
    p.line_bps = static_cast<double>(c.link.rate.bps);
    p.g = c.dcqcn.g;
    p.rai_bps = static_cast<double>(c.dcqcn.rate_ai.bps);
    p.rhai_bps = static_cast<double>(c.dcqcn.rate_hai.bps);
    p.min_bps = static_cast<double>(c.dcqcn.min_rate.bps);
    p.byte_counter = c.dcqcn.byte_counter.count;
    p.fast_recovery = c.dcqcn.fast_recovery_steps;
    p.alpha_cycles = ps_to_cycles(c.dcqcn.alpha_timer.ps, cycle_ps, 1);
    p.rate_cycles = ps_to_cycles(c.dcqcn.rate_timer.ps, cycle_ps, 1);
    p.cycle_s = static_cast<double>(cycle_ps) * 1e-12;
    return p;
}

void dcqcn_rp::on_cnp(cycle_t t, const dcqcn_params& p) {
    advance(t, p);
    ++cnps_;
    if (!limited_) {  // an unlimited QP runs at line rate: the limiter starts from there
        limited_ = true;
        rc_ = p.line_bps;
        rt_ = p.line_bps;
        next_ = static_cast<double>(t);
    }
    rt_ = rc_;
    rc_ = std::max(p.min_bps, rc_ * (1.0 - alpha_ / 2.0));
    alpha_ = (1.0 - p.g) * alpha_ + p.g;
    t_stage_ = 0;
    b_stage_ = 0;
    bytes_ = 0;
    alpha_due_ = t + p.alpha_cycles;
    rate_due_ = t + p.rate_cycles;
}

void dcqcn_rp::increase(const dcqcn_params& p) {
    const uint32_t lo = std::min(t_stage_, b_stage_);
    const uint32_t hi = std::max(t_stage_, b_stage_);
    if (hi < p.fast_recovery) {
        // fast recovery: towards the target only
    } else if (lo > p.fast_recovery) {
        rt_ += static_cast<double>(lo - p.fast_recovery) * p.rhai_bps;
    } else {
        rt_ += p.rai_bps;
    }
    rt_ = std::min(rt_, p.line_bps);
    rc_ = std::min(p.line_bps, (rt_ + rc_) / 2.0);
    if (rc_ >= p.line_bps * (1.0 - 1e-9)) {
        rc_ = p.line_bps;
        limited_ = false;  // back at line rate: the limiter is removed
    }
}

void dcqcn_rp::advance(cycle_t t, const dcqcn_params& p) {
    if (!limited_) return;
    if (t >= alpha_due_) {
        const uint64_t n = (t - alpha_due_) / p.alpha_cycles + 1;
        alpha_ *= std::pow(1.0 - p.g, static_cast<double>(n));
        alpha_due_ += n * p.alpha_cycles;
    }
    while (limited_ && t >= rate_due_) {
        ++t_stage_;
        increase(p);
        rate_due_ += p.rate_cycles;
    }
}

double dcqcn_rp::on_send(cycle_t t, uint32_t wire_bytes, const dcqcn_params& p) {
    advance(t, p);
    if (!limited_) return 0.0;
    bytes_ += wire_bytes;
    if (bytes_ >= p.byte_counter) {
        bytes_ -= p.byte_counter;
        ++b_stage_;
        increase(p);
    }
    const double gap = static_cast<double>(wire_bytes) * 8.0 / rc_ / p.cycle_s;
    next_ = std::max(next_, static_cast<double>(t)) + gap;
    return limited_ ? next_ : 0.0;
}

}  // namespace ndr::cycle
