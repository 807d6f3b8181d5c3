// Ties one cycle_engine to one SystemC process: an SC_METHOD that runs only at cycles where
// the engine has work, never once per port per cycle. Errors thrown by the engine stop the
// simulation (sc_stop) and are re-thrown by sim_status::rethrow() after sc_start returns.
#pragma once
#include <exception>
#include <memory>
#include <string>

#include "cycle/cycle_engine.h"

namespace ndr::cycle {

struct sim_status {
    std::exception_ptr error;
    void rethrow() const {
        if (error) std::rethrow_exception(error);
    }
};

class engine_driver_impl;

/// Owns the SC_MODULE; construct during elaboration only.
class engine_driver {
public:
    engine_driver(const std::string& name, cycle_engine& engine, uint64_t cycle_ps,
                  sim_status& status);
    ~engine_driver();
    engine_driver(const engine_driver&) = delete;
    engine_driver& operator=(const engine_driver&) = delete;

private:
    std::unique_ptr<engine_driver_impl> impl_;
};

/// Current simulated cycle (SystemC time / cycle_ps).
cycle_t sc_now_cycle(uint64_t cycle_ps);
/// Runs the SystemC kernel until cycle `until` (absolute), then rethrows any engine error.
void sc_run_until(cycle_t until, uint64_t cycle_ps, const sim_status& status);

}  // namespace ndr::cycle
