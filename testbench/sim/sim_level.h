// The one level dispatcher: which model level (cycle, tlm, rtl) runs a job, chosen by the config
// key sim.level (`--level` is its flag), and the calls that run a trace replay or a synthetic-
// traffic point at that level. Every command that simulates (run, traffic, compare, validate,
// sweep) goes through here, so a level, or a reason a level cannot do a job, is stated once.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "config/sim_config.h"
#include "level_cost.h"
#include "run_sim.h"
#include "trace/trace.h"
#include "traffic_sim.h"

namespace ndr::tb {

enum class sim_level : uint8_t { cycle, tlm, rtl };

/// "cycle", "tlm" or "rtl".
std::string_view level_name(sim_level l);

/// The level that replays a trace of `trace_ranks` ranks under config `c` (sim.level; auto: tlm
/// above sim.tlm_above_hosts hosts unless fabric.technology is roce, else cycle). Throws
/// cfg::config_error (exit 2, one line naming sim.level) when the level cannot replay it: rtl
/// (no RTL HCA), or tlm with roce or a packet capture (`pcap`).
sim_level replay_level(const cfg::config& c, uint32_t trace_ranks, bool pcap = false);

/// The level of a trace replay and why: `rule` is "explicit" (sim.level cycle or tlm), "cost"
/// (auto, sim.level_auto cost: the smaller of `estimate`'s two CPU times), "hosts" (auto,
/// sim.level_auto hosts), or "cycle only" (auto, where only the cycle level can run the job);
/// `reason` says it in one sentence for report.json.
struct level_choice {
    sim_level level = sim_level::cycle;
    std::string rule;
    std::string reason;
    bool estimated = false;
    level_estimate estimate;
};

/// replay_level for the trace itself: with sim.level auto and sim.level_auto cost, estimates
/// both levels' CPU time (level_cost.h) and picks the cheaper one. Throws as replay_level.
level_choice choose_replay_level(const cfg::config& c, const trace::trace& tr, bool pcap = false);

/// report.json `sim.level_choice`: {level, rule, reason} and, for rule "cost", the estimate
/// (estimated_cpu_s per level and the counts it came from).
nlohmann::json level_choice_json(const level_choice& ch);

/// The level that runs synthetic traffic (sim.level; auto: cycle). Throws cfg::config_error when
/// the level cannot: tlm or rtl with fabric.technology roce; any level with fault injection.
sim_level traffic_level(const cfg::config& c);

/// Replays `tr` at choose_replay_level(c, tr).
run_outcome run_trace_at_level(const cfg::config& c, const trace::trace& tr,
                               const run_options& ro = {});
/// Replays `tr` at `level`, already chosen by the caller (choose_replay_level).
run_outcome run_trace_at(sim_level level, const cfg::config& c, const trace::trace& tr,
                         const run_options& ro = {});

/// Runs one synthetic-traffic point at traffic_level(c).
traffic_outcome run_traffic_at_level(const cfg::config& c);

}  // namespace ndr::tb
