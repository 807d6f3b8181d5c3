// The `sim` section: run control.
// Each parameter is one field here, with its default as the initialiser, and one row in
// sim_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Run control.
struct sim_config {
    uint64_t seed = 1;
    uint64_t warmup_cycles = 20'000;              ///< not measured
    uint64_t measure_cycles = 100'000;            ///< measurement window
    uint64_t drain_cycles = 200'000;              ///< max cycles after the window to deliver
                                                  ///< packets created in it
    bool check_invariants = true;                 ///< lossless checks every event
    time_ps_t run_time_limit{1'000'000'000'000};  ///< `ndrsim run` fails past this simulated time
    std::string level = "auto";  ///< cycle|tlm|rtl|auto: model level of every command (--level)
    uint32_t tlm_above_hosts = 1024;         ///< sim.level auto, `ndrsim run`: TLM above this
                                             ///< many hosts (0 = always cycle level)
    std::string level_auto = "cost";         ///< sim.level auto for trace replay: cost or hosts
    double level_auto_cycle_below_s = 10.0;  ///< cost: cycle level below this estimate
    std::string tlm_mode = "at";             ///< TLM level: at (approximately timed) or lt
                                             ///< (loosely timed, temporal decoupling)
    time_ps_t tlm_quantum{0};                ///< lt: global quantum; 0 = the shortest link latency
    bytes_t tlm_burst{1024 * 1024};          ///< TLM `run`: payload bytes of one message per
                                             ///< transaction at most; 0 = one packet each
    bytes_t tlm_burst_shared{64 * 1024};     ///< the same while other QPs wait for the port
    bytes_t tlm_sharp_burst{0};  ///< TLM `run`: SHARP payload bytes of one tree and member per
                                 ///< transaction at most (0: off until the long-cable gap is
                                 ///< understood, docs/fidelity_tlm.md)
};

namespace detail {

/// The rows of the `sim` section; `s` is a section_keys<sim_config> (config/keys/key_builders.h).
template <class Rows>
void sim_rows(Rows& s) {
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
                 "(traffic: cycle; trace replay: chosen by sim.level_auto)");
    s.choice_key("sim.level_auto", &sim_config::level_auto, {"cost", "hosts"},
                 "how sim.level auto picks the level of a trace replay: cost = the level with the "
                 "smaller estimated CPU time (transfers, packets, TLM bursts, hosts and the idle "
                 "fabric over the estimated simulated span, per-unit costs measured in "
                 "docs/performance.md); hosts = tlm above sim.tlm_above_hosts "
                 "hosts (the rule before issue 19)");
    s.real_key("sim.level_auto_cycle_below_s", &sim_config::level_auto_cycle_below_s,
               real_bounds{0.0, true, 1e12, true, "0 <= x <= 1e12"},
               "with sim.level_auto cost: a replay whose cycle-level estimate is below this many "
               "CPU seconds runs at the cycle level (the packet-exact reference) even where TLM "
               "is estimated cheaper; 0 = always the cheaper level");
    s.uint_key("sim.tlm_above_hosts", &sim_config::tlm_above_hosts, 0, U32_MAX,
               "with sim.level_auto hosts, trace replay with sim.level auto uses the TLM level on "
               "fabrics of more than this many hosts, the cycle level otherwise; 0 = always the "
               "cycle level");
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
    s.unit_key("sim.tlm_burst_shared", &sim_config::tlm_burst_shared, "any", nullptr,
               "ndrsim run --level tlm: the burst limit while other queue pairs wait for the "
               "same HCA port (a tree's parent and children, an alltoall's peers): the queue "
               "pairs take turns a burst of up to this many payload bytes at a time instead of "
               "one packet each (docs/fidelity_tlm.md); at most sim.tlm_burst; 0 (or less than "
               "two hca.mtu) = one packet per turn (packet-exact round robin, slower)");
    s.unit_key("sim.tlm_sharp_burst", &sim_config::tlm_sharp_burst, "any", nullptr,
               "ndrsim run --level tlm: one transaction carries a burst of consecutive SHARP "
               "chunks of one tree and one member, up to this many payload bytes, and the "
               "aggregation nodes combine bursts as the cycle level combines packets; a "
               "burst holds at most a quarter of a member's chunks and of the tree's OST window "
               "(docs/fidelity_tlm.md); 0 (or less than two chunks, the default) = one chunk per "
               "transaction (packet-exact, slower). Off by default: on a 3-level rail tree with "
               "30/100 m cables bursts came out 20 % fast (cause not found yet); 64KiB is the "
               "measured setting");
}

}  // namespace detail
}  // namespace ndr::cfg
