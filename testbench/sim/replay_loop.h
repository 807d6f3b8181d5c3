// The run loop of a trace replay, the same at every level (run_sim.cpp, run_sim_tlm.cpp): advance
// one utilisation-sample interval at a time until the replay is done, and stop with the
// replay's pending summary once sim.run_time_limit has passed.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "replay.h"
#include "run_outcome.h"

namespace ndr::tb {

/// `advance(now)` runs the level's simulation up to cycle `now` (and whatever the level does
/// after each step); `sampler` is a link_sampler. Returns the cycle the loop stopped at.
template <class Sampler, class Advance>
uint64_t run_replay_loop(const replay& rp, Sampler& sampler, uint64_t limit_cycles,
                         Advance&& advance) {
    uint64_t now = 0;
    while (!rp.done()) {
        if (now >= limit_cycles) {
            throw std::runtime_error(
                fmt::format("the trace did not finish within sim.run_time_limit ({} cycles): {}",
                            limit_cycles, rp.pending_summary()));
        }
        now += sampler.interval();
        advance(now);
        sampler.take(now);
    }
    return now;
}

/// When the switches' measurement windows close (buffer occupancy, credit stalls): the first
/// sample boundary at or after the replay's last completion `end`, where the loop stopped
/// (`now`). The loosely-timed TLM level can finish the replay while SystemC time is still a
/// sample behind (its devices run ahead within their quantum): the window then still closes
/// where the approximately-timed run's loop stops, so both modes report the same means.
inline uint64_t window_close_cycle(uint64_t now, uint64_t end, uint64_t interval) {
    if (interval == 0 || now >= end) return now;
    return std::max(now, (end + interval - 1) / interval * interval);
}

/// The node model's part of a run's outcome (nothing with node.gpus = 1: the report then has
/// no node fields, as before nodes existed).
inline void fill_node_summary(run_outcome& out, const replay& rp, uint64_t cycle_ps) {
    const common::nvlink_fabric* nvl = rp.nvlink();
    if (nvl == nullptr) return;
    const common::node_layout& l = rp.layout();
    out.multi_gpu = true;
    out.node.nodes = l.nodes();
    out.node.gpus = l.gpus();
    out.node.hcas = l.hcas();
    out.node.nvlink_bytes_per_s = nvl->bytes_per_cycle() / (static_cast<double>(cycle_ps) * 1e-12);
    out.node.gpu = nvl->stats();
    // rank -> node, for the timeline's per-node tracks
    uint32_t nranks = 0;
    for (const rank_slice& s : out.slices) nranks = std::max(nranks, s.rank + 1);
    out.node.rank_node.resize(nranks);
    for (uint32_t r = 0; r < nranks; ++r) out.node.rank_node[r] = l.of_rank(r).node;
}

}  // namespace ndr::tb
