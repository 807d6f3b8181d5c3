// A reference ring schedule for tests (the textbook NCCL ring, written out step by step as
// the ring's definition reads; models/collective/ring.cpp file comment): the schedule
// build_schedule must make for a ring reduce_scatter, allgather or allreduce. It walks the
// steps one after the other and keeps, per position, the transfers it sent one step before,
// so a chunk's dependency is found by following the block around the ring, not by index
// arithmetic as coll::ring_stream computes it.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "coll_test_util.h"
#include "collective/schedule.h"

namespace ndr::coll::test {

/// build_schedule(p).xfers as the definition gives them (p: a ring RS, AG or AR).
inline std::vector<xfer> reference_ring(const coll_params& p) {
    const uint32_t n = p.nranks;
    const uint32_t channels = ring_channels(p);
    uint64_t chunk = UINT64_MAX;
    if (p.chunk_bytes != 0) {
        chunk = p.chunk_bytes - p.chunk_bytes % p.dtype_bytes;
        if (chunk == 0) chunk = p.dtype_bytes;
    }
    std::vector<xfer> out;
    for (uint32_t ch = 0; ch < channels; ++ch) {
        const std::vector<uint32_t> order = ring_order(p.node_groups, ch);
        const auto rank = [&](uint32_t pos) { return order.empty() ? pos : order[pos]; };
        // Part ch of `channels` of the block rank `owner` ends with, on element boundaries.
        const auto part = [&](uint32_t owner) {
            const auto [off, len] = ref_block(p.bytes, p.dtype_bytes, n, owner);
            const auto [poff, plen] = ref_block(len, p.dtype_bytes, channels, ch);
            return std::pair<uint64_t, uint64_t>{off + poff, plen};
        };
        // Reduce-scatter step k: position q sends block q-k-1 (mod n) to q+1, which reduces it;
        // allgather step k: block q-k (a copy). Chunk i of a step waits for chunk i of the
        // same block arriving into q one step before.
        std::vector<std::vector<uint32_t>> sent_before(n), sent_now(n);
        const auto phase = [&](bool reduce) {
            for (uint32_t k = 0; k + 1 < n; ++k) {
                for (uint32_t q = 0; q < n; ++q) {
                    const uint32_t blk = reduce ? (q + 2 * n - k - 1) % n : (q + n - k) % n;
                    const auto [off, len] = part(rank(blk));
                    const std::vector<uint32_t>& arrived = sent_before[(q + n - 1) % n];
                    sent_now[q].clear();
                    for (uint64_t i = 0; i * chunk < len; ++i) {
                        xfer x;
                        x.src = rank(q);
                        x.dst = rank((q + 1) % n);
                        x.bytes = std::min(chunk, len - i * chunk);
                        x.src_offset = off + i * chunk;
                        x.dst_offset = x.src_offset;
                        x.reduce = reduce;
                        if (!arrived.empty()) x.deps.push_back(arrived[i]);
                        sent_now[q].push_back(static_cast<uint32_t>(out.size()));
                        out.push_back(std::move(x));
                    }
                }
                std::swap(sent_before, sent_now);
            }
        };
        if (p.op != op_kind::allgather) phase(true);
        if (p.op != op_kind::reduce_scatter) phase(false);
    }
    return out;
}

}  // namespace ndr::coll::test
