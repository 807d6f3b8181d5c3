// Base of the TLM devices (switch, traffic endpoints): a calendar of per-packet timers and two
// SystemC processes. `on_timer` runs at the first delta of a time step (with the link PEQ
// callbacks, which deliver arrivals at that delta too); `evaluate` runs one delta later, once
// per time step with work, and makes the step's decisions from the resulting state (the TLM
// counterpart of the cycle models' evaluate-then-commit, STYLE.md §8). Every cross-device
// interaction has >= 1 beat of latency, so decisions never depend on process order.
// Times are whole beats ("cycles") of the shared timing (cycle::timing), so both levels round
// identically; sc_time = cycles x cycle_ps.
#pragma once
#include <cstdint>
#include <exception>
#include <queue>
#include <vector>

#include <systemc>
#include <tlm>

namespace ndr::tlmm {

/// First error thrown by any device; the run stops (sc_stop) and the harness rethrows it.
struct run_status {
    std::exception_ptr error;
    void rethrow() const {
        if (error) std::rethrow_exception(error);
    }
};

/// One pending per-packet action of a device.
struct timer {
    uint64_t at = 0;   ///< cycle
    uint64_t seq = 0;  ///< insertion order (ties)
    uint8_t kind = 0;
    uint8_t vl = 0;
    uint16_t port = 0;
    uint16_t port2 = 0;
    uint32_t a = 0;
    tlm::tlm_generic_payload* gp = nullptr;
};

class timed_device : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(timed_device);
    timed_device(sc_core::sc_module_name name, uint64_t cycle_ps, run_status& status);

    uint64_t now_cycle() const;
    sc_core::sc_time cycles(uint64_t n) const;
    uint64_t cycle_ps() const { return cycle_ps_; }

protected:
    void schedule(uint64_t at, timer t);
    /// Asks for evaluate() at the end of the current time step.
    void request_eval() { eval_ev_.notify(sc_core::SC_ZERO_TIME); }
    virtual void on_timer(uint64_t now, const timer& t) = 0;
    virtual void evaluate(uint64_t now) = 0;
    /// Runs f; an exception is recorded in the run status and stops the simulation.
    template <typename F>
    void guarded(F&& f) {
        try {
            f();
        } catch (...) {
            fail(std::current_exception());
        }
    }
    void fail(std::exception_ptr e);

private:
    struct later {
        bool operator()(const timer& x, const timer& y) const {
            return x.at != y.at ? x.at > y.at : x.seq > y.seq;
        }
    };
    void wake();
    void eval();

    uint64_t cycle_ps_;
    uint64_t res_ps_;
    run_status& status_;
    std::priority_queue<timer, std::vector<timer>, later> timers_;
    uint64_t seq_ = 0;
    sc_core::sc_event wake_ev_;
    sc_core::sc_event eval_ev_;
};

}  // namespace ndr::tlmm
