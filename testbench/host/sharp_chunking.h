// How a SHARP collective is cut into chunks and whether it carries real values: the rules the
// replay runs a SHARP job by (replay::start_sharp_job) and the level estimate counts it by
// (testbench/sim/level_cost.cpp), written once.
#pragma once
#include <algorithm>
#include <cstdint>

#include "collective/coll_types.h"
#include "config/sim_config.h"

namespace ndr::tb {

/// A member's `bytes` of input go by streaming aggregation above sharp.sat_threshold, by
/// low-latency OSTs up to it (docs/domain.md §7).
inline bool sharp_wants_sat(const cfg::sharp_config& s, uint64_t bytes) {
    return bytes > s.sat_threshold.count;
}

/// Payload per chunk: sharp.sat_chunk (streaming) or sharp.ost_bytes (low latency), at most the
/// sharp.osts_per_tree OSTs a tree may hold in a node (larger requests are pipelined over
/// several OSTs), in whole elements of `elem` bytes.
inline uint64_t sharp_chunk_bytes(const cfg::sharp_config& s, bool sat, uint64_t elem) {
    uint64_t cb = sat ? s.sat_chunk.count : s.ost_bytes.count;
    cb = std::min<uint64_t>(cb, uint64_t{s.osts_per_tree} * s.ost_bytes.count);
    return std::max<uint64_t>(elem, cb / elem * elem);
}

/// SHARP chunks per TLM transaction (sim.tlm_sharp_burst, `burst_bytes`; 0 at the cycle level)
/// for a member's `chunks` chunks of `cb` bytes: a burst of consecutive chunks that the
/// aggregation nodes take as one chunk of their payloads, at its first packet (cut through).
/// At most a quarter of the member's chunks (four bursts at least), a quarter of the tree's
/// window (four bursts in flight; the window, counted in bursts, holds whole ones) and half the
/// node's OSTs. 1: one packet per transaction.
inline uint32_t sharp_burst_chunks(const cfg::sharp_config& s, uint64_t burst_bytes, uint64_t cb,
                                   uint64_t chunks) {
    const uint64_t osts_per_chunk =
        std::max<uint64_t>(1, (cb + s.ost_bytes.count - 1) / s.ost_bytes.count);
    const uint64_t window = std::max<uint64_t>(1, s.osts_per_tree / osts_per_chunk);
    const uint64_t b =
        std::min<uint64_t>({burst_bytes / cb, window / 4, s.osts / osts_per_chunk / 2, chunks / 4,
                            (uint64_t{1} << 30) / cb});
    uint64_t k = b;
    while (k > 1 && window % k != 0) --k;  // the window holds whole bursts
    return k >= 2 ? static_cast<uint32_t>(k) : 1U;
}

/// Whether the members' real values travel and are checked against the golden reduction:
/// reductions only, with sharp.data on, or auto up to 1 MiB of collective.
inline bool sharp_carries_data(const cfg::sharp_config& s, coll::op_kind op, uint64_t bytes) {
    const bool reduces = op == coll::op_kind::allreduce || op == coll::op_kind::reduce;
    return reduces && (s.data == "on" || (s.data == "auto" && bytes <= (uint64_t{1} << 20)));
}

}  // namespace ndr::tb
