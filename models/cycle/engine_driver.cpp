#include "cycle/engine_driver.h"

#include <systemc>

namespace ndr::cycle {

class engine_driver_impl : public sc_core::sc_module, public wake_sink {
public:
    SC_HAS_PROCESS(engine_driver_impl);
    engine_driver_impl(const sc_core::sc_module_name& name, cycle_engine& engine, uint64_t cycle_ps,
                       sim_status& status)
        : sc_core::sc_module(name), engine_(engine), cycle_ps_(cycle_ps), status_(status) {
        SC_METHOD(tick);
        sensitive << wake_;
        dont_initialize();
        engine_.set_wake_sink(this);
    }
    ~engine_driver_impl() override { engine_.set_wake_sink(nullptr); }

    void wake_at(cycle_t c) override {
        const cycle_t now = now_cycle();
        const cycle_t at = c < now ? now : c;
        // SystemC ignores a notification no earlier than the pending one: skip the call.
        if (at >= armed_) return;
        armed_ = at;
        // The kernel's time unit is 1 ps (now_cycle() assumes it too): an exact integer delay.
        wake_.notify(sc_core::sc_time::from_value((at - now) * cycle_ps_));
    }

    void start_of_simulation() override {
        const cycle_t n = engine_.next_cycle();
        if (n != NEVER) wake_at(n);
    }

private:
    cycle_t now_cycle() const { return sc_core::sc_time_stamp().value() / cycle_ps_; }
    void tick() {
        armed_ = NEVER;  // the notification that ran us is spent
        if (status_.error) return;
        try {
            const cycle_t now = now_cycle();
            const cycle_t next = engine_.wake_cycle();
            if (next == now) {
                engine_.step(now);
            } else if (next != NEVER) {
                wake_at(next);
            }
        } catch (...) {
            status_.error = std::current_exception();
            sc_core::sc_stop();
        }
    }

    cycle_engine& engine_;
    uint64_t cycle_ps_;
    sim_status& status_;
    sc_core::sc_event wake_;
    cycle_t armed_ = NEVER;  ///< cycle of the pending notification of wake_, NEVER if none
};

engine_driver::engine_driver(const std::string& name, cycle_engine& engine, uint64_t cycle_ps,
                             sim_status& status)
    : impl_(std::make_unique<engine_driver_impl>(name.c_str(), engine, cycle_ps, status)) {}

engine_driver::~engine_driver() = default;

cycle_t sc_now_cycle(uint64_t cycle_ps) {
    return sc_core::sc_time_stamp().value() / cycle_ps;
}

void sc_run_until(cycle_t until, uint64_t cycle_ps, const sim_status& status) {
    const cycle_t now = sc_now_cycle(cycle_ps);
    if (until > now) {
        sc_core::sc_start(
            sc_core::sc_time(static_cast<double>((until - now) * cycle_ps), sc_core::SC_PS));
    }
    status.rethrow();
}

}  // namespace ndr::cycle
