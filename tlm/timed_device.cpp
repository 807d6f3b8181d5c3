#include "timed_device.h"

#include <tlm_utils/tlm_quantumkeeper.h>

#include <algorithm>
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
    SC_THREAD(lt_loop);  // returns at once unless loosely timed
}

void timed_device::set_loosely_timed(uint64_t quantum_cycles) {
    if (quantum_cycles == 0) throw std::invalid_argument("timed_device: LT quantum must be >= 1");
    quantum_ = quantum_cycles;
}

uint64_t timed_device::now_cycle() const {
    if (quantum_ != 0) return local_;
    return sc_core::sc_time_stamp().value() * res_ps_ / cycle_ps_;
}

sc_core::sc_time timed_device::cycles(uint64_t n) const {
    return sc_core::sc_time::from_value(n * cycle_ps_ / res_ps_);
}

uint64_t timed_device::arrival_cycle(const sc_core::sc_time& d) const {
    return (sc_core::sc_time_stamp() + d).value() * res_ps_ / cycle_ps_;
}

sc_core::sc_time timed_device::offset() const {
    if (quantum_ == 0) return sc_core::SC_ZERO_TIME;
    return cycles(local_) - sc_core::sc_time_stamp();
}

void timed_device::push(uint64_t at, timer t) {
    t.at = at;
    t.seq = seq_++;
    const bool earliest = timers_.empty() || at < timers_.front_at();
    timers_.push(t);
    if (!earliest) return;
    if (quantum_ != 0) {
        lt_ev_.notify(sc_core::SC_ZERO_TIME);  // the thread re-plans its next quantum
    } else {
        wake_ev_.notify(cycles(at - now_cycle()));  // an earlier notification wins
    }
}

void timed_device::schedule(uint64_t at, timer t) {
    if (at <= now_cycle())
        throw std::logic_error(std::string(name()) + ": timer not in the future");
    push(at, t);
}

void timed_device::deliver(uint64_t at, timer t) {
    push(std::max(at, local_), t);
}

void timed_device::wake() {
    guarded([&] {
        const uint64_t now = now_cycle();
        timer t;
        bool eval = false;  // arrivals ask for evaluate() through their handlers (as in LT)
        while (timers_.pop_due(now, t)) {
            if (t.kind < DELIVERY) eval = true;
            on_timer(now, t);
        }
        if (eval) request_eval();
        if (!timers_.empty()) wake_ev_.notify(cycles(timers_.front_at() - now));
    });
}

void timed_device::eval() {
    guarded([&] { evaluate(now_cycle()); });
}

void timed_device::lt_loop() {
    if (quantum_ == 0) return;
    tlm_utils::tlm_quantumkeeper qk;
    for (;;) {
        qk.reset();
        const uint64_t sc_now = sc_core::sc_time_stamp().value() * res_ps_ / cycle_ps_;
        local_ = std::max(local_, sc_now);
        if (timers_.empty()) {
            sc_core::wait(lt_ev_);
            continue;
        }
        const uint64_t first = std::max(timers_.front_at(), sc_now);
        const uint64_t window = first / quantum_ * quantum_;
        if (window > sc_now) {
            sc_core::wait(cycles(window - sc_now), lt_ev_);
            continue;
        }
        const uint64_t end = (sc_now / quantum_ + 1) * quantum_;
        guarded([&] {
            while (!timers_.empty() && timers_.front_at() < end) {
                const uint64_t t = std::max(timers_.front_at(), local_);
                local_ = t;
                eval_req_ = false;
                timer x;
                while (timers_.pop_due(t, x)) {
                    if (x.kind < DELIVERY) eval_req_ = true;
                    on_timer(t, x);
                }
                if (eval_req_) evaluate(t);
            }
        });
        if (status_.error) return;
        // Sync: the local time reaches the quantum boundary; wait there for the others.
        local_ = end;
        qk.set(cycles(end - sc_now));
        if (qk.need_sync()) qk.sync();
    }
}

void timed_device::fail(std::exception_ptr e) {
    if (!status_.error) status_.error = e;
    sc_core::sc_stop();
}

}  // namespace ndr::tlmm
