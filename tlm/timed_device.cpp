#include "timed_device.h"

#include <cmath>
#include <stdexcept>

namespace ndr::tlmm {

timed_device::timed_device(sc_core::sc_module_name name, uint64_t cycle_ps, run_status& status)
    : sc_core::sc_module(name), cycle_ps_(cycle_ps), status_(status) {
    const double res = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
    res_ps_ = static_cast<uint64_t>(std::llround(res));
    if (res_ps_ == 0 || cycle_ps_ % res_ps_ != 0) {
        throw std::invalid_argument("timed_device: SystemC time resolution must divide one beat");
    }
    SC_METHOD(wake);
    sensitive << wake_ev_;
    dont_initialize();
    SC_METHOD(eval);
    sensitive << eval_ev_;
    dont_initialize();
}

uint64_t timed_device::now_cycle() const {
    return sc_core::sc_time_stamp().value() * res_ps_ / cycle_ps_;
}

sc_core::sc_time timed_device::cycles(uint64_t n) const {
    return sc_core::sc_time::from_value(n * cycle_ps_ / res_ps_);
}

void timed_device::schedule(uint64_t at, timer t) {
    const uint64_t now = now_cycle();
    if (at <= now) throw std::logic_error(std::string(name()) + ": timer not in the future");
    t.at = at;
    t.seq = seq_++;
    const bool earliest = timers_.empty() || at < timers_.top().at;
    timers_.push(t);
    if (earliest) wake_ev_.notify(cycles(at - now));  // an earlier notification wins
}

void timed_device::wake() {
    guarded([&] {
        const uint64_t now = now_cycle();
        while (!timers_.empty() && timers_.top().at <= now) {
            const timer t = timers_.top();
            timers_.pop();
            on_timer(now, t);
        }
        request_eval();
        if (!timers_.empty()) wake_ev_.notify(cycles(timers_.top().at - now));
    });
}

void timed_device::eval() {
    guarded([&] { evaluate(now_cycle()); });
}

void timed_device::fail(std::exception_ptr e) {
    if (!status_.error) status_.error = e;
    sc_core::sc_stop();
}

}  // namespace ndr::tlmm
