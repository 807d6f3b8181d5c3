// One synthetic-traffic simulation on the Verilated switch core (`ndrsim traffic --level rtl`):
// the same sources as the cycle and TLM levels (traffic_pattern, traffic_mix: Bernoulli or
// backlogged arrivals, size and SL mixes), attached directly to the ports of rtl/ib_switch_core
// through the harness rtl/ib_switch_core/switch_core_bench.h (no link model: a beat leaves a
// source and enters the core in the same cycle; sinks free delivered packets at once), run
// through warm-up, window and drain like run_traffic, reported through the same traffic_outcome.
#pragma once
#include "config/sim_config.h"
#include "traffic_sim.h"

namespace ndr::tb {

/// Throws cfg::config_error if the configuration does not fit the core's built
/// parameterisation (ports, VLs, 64 B datapath, packet size vs buffer).
traffic_outcome run_traffic_rtl(const cfg::config& c);

}  // namespace ndr::tb
