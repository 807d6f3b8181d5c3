// The run loop of a trace replay, the same at every level (run_sim.cpp, run_sim_tlm.cpp): advance
// one utilisation-sample interval at a time until the replay is done, and stop with the
// replay's pending summary once sim.run_time_limit has passed.
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>

#include "replay.h"

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

}  // namespace ndr::tb
