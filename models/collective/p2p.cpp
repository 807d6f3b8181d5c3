// NCCL's all-to-all: grouped send/recv (ncclGroupStart; ncclSend/ncclRecv to every peer;
// ncclGroupEnd), scheduled as NCCL schedules p2p operations (NVIDIA/nccl 5067397: src/init.cc
// ncclP2pSchedule, src/enqueue.cc scheduleP2pTasksToPlan, src/include/channel.h
// ncclP2pChannelBaseForRound; docs/architecture.md "All-to-all").
//
// Buffer 2S as pairwise (alltoall.cpp): send blocks at [0,S), receive blocks at [S,2S).
// Ranks are cut into groups of G ranks of one node: G = NCCL_MAX_DEV_WORK_P2P_PER_BATCH (8)
// with more than one node, reduced to the gcd with every node's rank count; with one node, G is
// the node's rank count. Rank i in group g at local offset l sends, for every group delta d in
// NCCL's quadratic order (0, 1, 3, 6, 10, ... mod the next power of two of the group count,
// deltas beyond the group count skipped) and every local delta e = 0..G-1, to the rank at
// offset (l + e) mod G of group (g + d) mod groups: the rounds of one group delta form one
// batch of G peers that one channel's work batch runs at once. The b-th batch goes to channel
// slot b mod P (P = coll_params::p2p_channels, NCCL's p2pnChannels; NCCL spreads the slots by
// bit reversal, a permutation), and a channel runs its batches one after the other: every
// transfer of batch b waits for the sends of batch b - P of the same rank (their last chunk to
// each peer: chunks to one peer share its queue pair and complete in order). With at most P
// batches (n <= P x G ranks) every peer is in flight at once. Delta 0 of batch 0 is the own
// block (a local copy). Each peer's block is cut into chunks, all of them in flight together.
#include <algorithm>
#include <numeric>
#include <vector>

#include "collective/schedule_detail.h"

namespace ndr::coll::detail {

namespace {

/// One rank's place: node groups of G ranks, the group index and the offset in it.
struct p2p_layout {
    uint32_t g = 1;                             ///< ranks per group
    std::vector<std::vector<uint32_t>> groups;  ///< ranks of every group, in order
    std::vector<uint32_t> group_of, offset_of;  ///< per rank
};

p2p_layout layout_of(const coll_params& p) {
    std::vector<std::vector<uint32_t>> nodes = p.node_groups;
    if (nodes.empty()) {  // one rank per node (single-GPU hosts)
        for (uint32_t r = 0; r < p.nranks; ++r) nodes.push_back({r});
    }
    p2p_layout l;
    l.g = nodes.size() > 1 ? 8 : static_cast<uint32_t>(nodes[0].size());
    for (const std::vector<uint32_t>& m : nodes) {
        const auto sz = static_cast<uint32_t>(m.size());
        if (sz % l.g != 0 || sz < l.g) l.g = std::gcd(l.g, sz);
    }
    l.group_of.assign(p.nranks, 0);
    l.offset_of.assign(p.nranks, 0);
    for (const std::vector<uint32_t>& m : nodes) {
        for (size_t k = 0; k < m.size(); k += l.g) {
            const auto gi = static_cast<uint32_t>(l.groups.size());
            l.groups.emplace_back(m.begin() + static_cast<std::ptrdiff_t>(k),
                                  m.begin() + static_cast<std::ptrdiff_t>(k + l.g));
            for (uint32_t o = 0; o < l.g; ++o) {
                l.group_of[m[k + o]] = gi;
                l.offset_of[m[k + o]] = o;
            }
        }
    }
    return l;
}

/// NCCL's group deltas in schedule order: (x^2 + x) / 2 mod the next power of two, those
/// below `groups` kept.
std::vector<uint32_t> group_deltas(uint32_t groups) {
    uint32_t pow2 = 1;
    while (pow2 < groups) pow2 *= 2;
    std::vector<uint32_t> d;
    uint32_t delta = 0;
    uint32_t round = 0;
    do {
        if (delta < groups) d.push_back(delta);
        ++round;
        delta = (delta + round) & (pow2 - 1);
    } while (round != pow2);
    return d;
}

}  // namespace

void build_p2p(const coll_params& p, schedule& s) {
    const uint32_t n = p.nranks;
    const uint64_t blk = p.bytes / n;
    const uint64_t chunk = effective_chunk(p);
    const uint64_t nc = chunk_count(blk, chunk);
    const uint32_t slots = std::max<uint32_t>(1, p.p2p_channels);
    s.buffer_bytes = 2 * p.bytes;
    for (uint32_t i = 0; i < n; ++i) {
        if (blk != 0) s.local_copies.push_back(local_copy{i, blk, i * blk, p.bytes + i * blk});
    }
    if (nc == 0) return;
    const p2p_layout l = layout_of(p);
    const auto n_groups = static_cast<uint32_t>(l.groups.size());
    const std::vector<uint32_t> deltas = group_deltas(n_groups);
    // last[i][b]: the last chunk of every peer of rank i's batch b (what batch b + slots waits for)
    std::vector<std::vector<std::vector<uint32_t>>> last(n);
    for (uint32_t i = 0; i < n; ++i) {
        last[i].resize(deltas.size());
        const uint32_t gi = l.group_of[i];
        const uint32_t off = l.offset_of[i];
        for (size_t b = 0; b < deltas.size(); ++b) {
            const std::vector<uint32_t>& grp = l.groups[(gi + deltas[b]) % n_groups];
            const std::vector<uint32_t> wait =
                b >= slots ? last[i][b - slots] : std::vector<uint32_t>{};
            for (uint32_t e = 0; e < l.g; ++e) {
                const uint32_t t = grp[(off + e) % l.g];
                if (t == i) continue;  // the own block: a local copy
                const byte_range blk_r{t * blk, blk};
                uint32_t x = 0;
                for (uint64_t c = 0; c < nc; ++c) {
                    const byte_range ch = chunk_of(blk_r, chunk, c);
                    x = add_xfer(s, i, t, ch, p.bytes + i * blk + (ch.offset - blk_r.offset), false,
                                 wait);
                }
                last[i][b].push_back(x);
            }
        }
    }
}

uint64_t p2p_xfer_count(const coll_params& p) {
    return pairwise_xfer_count(p);
}

}  // namespace ndr::coll::detail
