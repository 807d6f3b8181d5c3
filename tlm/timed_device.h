// Base of the TLM devices (switch, traffic endpoints): a calendar of per-packet timers and two
// SystemC processes. `on_timer` runs at the first delta of a time step (with the link PEQ
// callbacks, which deliver arrivals at that delta too); `evaluate` runs one delta later, once
// per time step with work, and makes the step's decisions from the resulting state (the TLM
// counterpart of the cycle models' evaluate-then-commit, docs/style.md §8). Every cross-device
// interaction has >= 1 beat of latency, so decisions never depend on process order.
// Times are whole beats ("cycles") of the shared timing (common::timing), so both levels round
// identically; sc_time = cycles x cycle_ps.
//
// Loosely-timed mode (set_loosely_timed, `sim.tlm_mode=lt`): temporal decoupling. One SC_THREAD
// per device replaces the two methods; at each global quantum boundary (tlm_global_quantum,
// tlm_utils::tlm_quantumkeeper) it runs every time step of its calendar inside the quantum in
// local time (timers, then evaluate, per step, as in AT) and syncs to the next boundary. Links
// pass packets and FC packets straight through with the latency as annotated delay, and the
// receiver turns them into calendar entries at (SystemC time + delay) (deliver). When the
// quantum is at most the shortest link latency nothing can arrive inside a quantum already
// run, so the results are identical to AT; a longer quantum runs late arrivals at the
// receiver's current local time (faster, no longer exact).
#pragma once
#include <cstdint>
#include <exception>
#include <vector>

#include <systemc>
#include <tlm>

#include "timer_calendar.h"

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
    /// Switches to loosely-timed mode with this quantum (cycles, >= 1). Before sc_start.
    void set_loosely_timed(uint64_t quantum_cycles);
    bool loosely_timed() const { return quantum_ != 0; }

protected:
    void schedule(uint64_t at, timer t);
    /// Asks for evaluate() at the end of the current time step.
    void request_eval() {
        if (quantum_ == 0) {
            eval_ev_.notify(sc_core::SC_ZERO_TIME);
        } else {
            eval_req_ = true;
        }
    }
    /// Timer kinds from DELIVERY up are LT arrivals (deliver): like AT socket callbacks they
    /// ask for evaluate() only if their handler calls request_eval(); every other timer does.
    static constexpr uint8_t DELIVERY = 200;
    /// LT: an arrival from another device at cycle `at` joins the calendar.
    void deliver(uint64_t at, timer t);
    /// The cycle at SystemC time + annotated delay d (an arrival's time in LT).
    uint64_t arrival_cycle(const sc_core::sc_time& d) const;
    /// Delay to annotate on outgoing transactions: local time - SystemC time (0 in AT).
    sc_core::sc_time offset() const;
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
    void wake();
    void eval();
    void lt_loop();
    void push(uint64_t at, timer t);

    uint64_t cycle_ps_;
    uint64_t res_ps_;
    run_status& status_;
    timer_calendar<timer> timers_;
    uint64_t seq_ = 0;
    sc_core::sc_event wake_ev_;
    sc_core::sc_event eval_ev_;
    uint64_t quantum_ = 0;  ///< LT quantum in cycles, 0 = AT
    uint64_t local_ = 0;    ///< LT local time (cycles)
    bool eval_req_ = false;
    sc_core::sc_event lt_ev_;
};

}  // namespace ndr::tlmm
