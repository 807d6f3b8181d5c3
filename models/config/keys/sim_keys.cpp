// The `sim` section: run control. One row per key, in listing order; the
// defaults are the initialisers of `sim_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_sim_keys(std::vector<config_key>& keys) {
    section_keys<sim_config> s(keys, &config::sim);
    s.uint_key("sim.seed", &sim_config::seed, 0, U64_MAX,
               "random seed; the same seed and config give the same run");
    s.uint_key("sim.warmup_cycles", &sim_config::warmup_cycles, 0, MAX_RUN_CYCLES,
               "core cycles simulated before the measurement window (not measured)");
    s.uint_key("sim.measure_cycles", &sim_config::measure_cycles, 1, MAX_RUN_CYCLES,
               "core cycles in the measurement window");
    s.uint_key("sim.drain_cycles", &sim_config::drain_cycles, 0, MAX_RUN_CYCLES,
               "max core cycles after the window to deliver the packets created in it");
    s.bool_key("sim.check_invariants", &sim_config::check_invariants,
               "check lossless flow-control invariants at every event (slower)");
    s.unit_key("sim.run_time_limit", &sim_config::run_time_limit, "> 0", positive,
               "ndrsim run stops with an error (naming what is still running) if the trace has not "
               "finished by this simulated time");
    s.choice_key("sim.level", &sim_config::level, {"auto", "cycle", "tlm", "rtl"},
                 "model level of run, traffic, compare, validate and sweep (--level): cycle, tlm "
                 "(docs/fidelity_tlm.md), rtl (traffic only: the Verilated switch core) or auto "
                 "(traffic: cycle; trace replay: tlm above sim.tlm_above_hosts hosts, else cycle)");
    s.uint_key("sim.tlm_above_hosts", &sim_config::tlm_above_hosts, 0, U32_MAX,
               "trace replay with sim.level auto uses the TLM level on fabrics of more than this "
               "many hosts, the cycle level otherwise; 0 = always the cycle level");
    s.choice_key("sim.tlm_mode", &sim_config::tlm_mode, {"at", "lt"},
                 "ndrsim run --level tlm: at = approximately timed (nb_transport phases, one "
                 "SystemC activation per time step with work); lt = loosely timed with temporal "
                 "decoupling (each device runs ahead by up to sim.tlm_quantum, tlm_quantumkeeper)");
    s.unit_key("sim.tlm_quantum", &sim_config::tlm_quantum, "any", nullptr,
               "global quantum of sim.tlm_mode=lt; 0 = the shortest link latency of the fabric "
               "(exact: same results as at); longer quanta trade timing accuracy for speed");
    s.unit_key("sim.tlm_burst", &sim_config::tlm_burst, "any", nullptr,
               "ndrsim run --level tlm: one transaction carries a burst of consecutive MTU packets "
               "of one message, up to this many payload bytes, while one queue pair has the HCA "
               "port to itself (docs/fidelity_tlm.md); 0 (or less than two hca.mtu) = one packet "
               "per transaction (packet-exact, slower)");
}

}  // namespace ndr::cfg::detail
