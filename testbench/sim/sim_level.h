// The one level dispatcher: which model level (cycle, tlm, rtl) runs a job, chosen by the config
// key sim.level (`--level` is its flag), and the calls that run a trace replay or a synthetic-
// traffic point at that level. Every command that simulates (run, traffic, compare, validate,
// sweep) goes through here, so a level, or a reason a level cannot do a job, is stated once.
#pragma once
#include <cstdint>
#include <string_view>

#include "config/sim_config.h"
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

/// The level that runs synthetic traffic (sim.level; auto: cycle). Throws cfg::config_error when
/// the level cannot: tlm or rtl with fabric.technology roce; any level with fault injection.
sim_level traffic_level(const cfg::config& c);

/// Replays `tr` at replay_level(c, tr.nranks).
run_outcome run_trace_at_level(const cfg::config& c, const trace::trace& tr,
                               const run_options& ro = {});

/// Runs one synthetic-traffic point at traffic_level(c).
traffic_outcome run_traffic_at_level(const cfg::config& c);

}  // namespace ndr::tb
