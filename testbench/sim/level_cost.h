// The cost estimate behind sim.level=auto for trace replay (sim.level_auto = cost): the CPU time
// each level would take, from counts known before anything is built (hosts and links of the
// fabric; per collective its transfers, packets and TLM transactions; the simulated span, over
// which the cycle level's idle fabric costs CPU too: the forced FC refresh on every link and
// VL, and the utilisation sampler reading every link), with per-unit costs measured on the
// benchmark machine (docs/performance.md, "Choosing the level"). An estimate, not a promise: it
// only has to rank the two levels where they differ by more than its error.
#pragma once
#include <cstdint>
#include <string>

#include "config/sim_config.h"
#include "trace/trace.h"

namespace ndr::tb {

/// The counts one replay would process, summed over the trace's collectives and point-to-point
/// records.
struct replay_counts {
    uint32_t hosts = 0;
    uint32_t path_links = 2;   ///< links on a typical host-to-host path (2 per switch level)
    double transfers = 0;      ///< RDMA messages (schedule transfers; p2p records)
    double packets = 0;        ///< MTU packets of those transfers
    double transactions = 0;   ///< TLM transactions: bursts of up to sim.tlm_burst per transfer
    double sharp_packets = 0;  ///< SHARP chunks up and down the trees (one packet each)
    double sharp_transactions = 0;  ///< the same at the TLM level (sim.tlm_sharp_burst bursts)
    double sharp_data_bytes = 0;    ///< members' SHARP input carried and checked (sharp.data)
    double links = 0;               ///< one-way fabric links (2 per cable)
    double span_us = 0;       ///< simulated span: the busiest rank's compute, gaps and collectives
    double fc_refreshes = 0;  ///< forced FC refreshes over the span: links x VLs x span / period
    double samples = 0;       ///< utilisation samples per link over the span (link_sampler.h)
};

struct level_estimate {
    replay_counts counts;
    double cycle_cpu_s = 0;  ///< estimated CPU seconds of the cycle level
    double tlm_cpu_s = 0;    ///< estimated CPU seconds of the TLM level
};

/// Counts and cost of replaying `tr` on `hosts` hosts under `c`.
level_estimate estimate_replay(const cfg::config& c, const trace::trace& tr, uint32_t hosts);

}  // namespace ndr::tb
