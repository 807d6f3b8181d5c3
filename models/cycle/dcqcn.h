// DCQCN reaction point (the sender NIC's per-QP rate limiter), after Zhu et al., "Congestion
// Control for Large-Scale RDMA Deployments", SIGCOMM 2015 (docs/roce.md). SystemC-free.
//
// A QP starts at line rate without a limiter. A CNP: target Rt = Rc, current
// Rc = Rc (1 - alpha/2), alpha = (1 - g) alpha + g, and the increase stages restart.
// Without CNPs alpha decays by (1 - g) every alpha_timer (K). Rate-increase events come from
// the timer (every T) and the byte counter (every B bytes sent); with i = the smaller of the
// two stage counts and j = the larger: j < F: fast recovery Rc = (Rt + Rc) / 2; i > F: hyper
// increase Rt += (i - F) R_HAI; otherwise additive Rt += R_AI; then Rc = (Rt + Rc) / 2
// (capped at line rate; at line rate the limiter is removed).
// Timers are evaluated lazily (advance(t) before every use): the result is the same as with
// timer events because the rate is only read when a packet is paced.
#pragma once
#include <cstdint>

#include "config/sim_config.h"
#include "cycle/event.h"

namespace ndr::cycle {

struct dcqcn_params {
    double line_bps = 0;
    double g = 1.0 / 256;
    double rai_bps = 0;
    double rhai_bps = 0;
    double min_bps = 0;
    uint64_t byte_counter = 0;
    uint32_t fast_recovery = 5;
    uint64_t alpha_cycles = 1;
    uint64_t rate_cycles = 1;
    double cycle_s = 0;  ///< seconds per cycle
    static dcqcn_params from(const cfg::config& c, uint64_t cycle_ps);
};

class dcqcn_rp {
public:
    dcqcn_rp() = default;
    explicit dcqcn_rp(double line_bps) : rc_(line_bps), rt_(line_bps) {}
    /// A CNP for this QP arrived at cycle t.
    void on_cnp(cycle_t t, const dcqcn_params& p);
    /// A packet of `wire_bytes` starts at cycle t: returns the earliest cycle (fractional)
    /// the next one may start at the current rate.
    double on_send(cycle_t t, uint32_t wire_bytes, const dcqcn_params& p);
    /// Earliest cycle the next packet may start (0 when not limited).
    double next_send() const { return limited_ ? next_ : 0.0; }
    bool limited() const { return limited_; }
    double rate_bps() const { return rc_; }
    double target_bps() const { return rt_; }
    double alpha() const { return alpha_; }
    /// Applies the timers up to cycle t.
    void advance(cycle_t t, const dcqcn_params& p);
    uint64_t cnps() const { return cnps_; }

private:
    void increase(const dcqcn_params& p);
    double rc_ = 0;
    double rt_ = 0;
    double alpha_ = 1.0;
    uint32_t t_stage_ = 0;
    uint32_t b_stage_ = 0;
    uint64_t bytes_ = 0;
    cycle_t alpha_due_ = 0;
    cycle_t rate_due_ = 0;
    double next_ = 0;
    bool limited_ = false;
    uint64_t cnps_ = 0;
};

}  // namespace ndr::cycle
