// PAT, NCCL's Parallel Aggregated Trees (NCCL 2.23+; NVIDIA/nccl src/include/collectives.h
// PatAGAlgorithm / PatRSAlgorithm, peers in src/device/prims_simple.h; docs/domain.md §13
// "PAT"): allgather and reduce_scatter for one GPU per node.
//
// Every rank talks to the ranks at distance 2^d. Seen from the owner O of a block, the ranks
// are at offsets t = 0..n-1 (allgather: rank O - t; reduce_scatter: rank O - t as well, the
// contributors below the block's owner), and the offsets form one binomial tree: the parent
// of t is t - lowbit(t) (t with its lowest set bit cleared), so t's depth is popcount(t), at
// most ceil(log2 n), and every offset has exactly one parent (every rank gets every block
// once; every contribution is counted once). All n trees are the same tree shifted by the
// owner, and they run at once: "parallel trees".
//
// allgather      rank O - t' (holding block O, t' the parent of t) sends block O to rank O - t:
//                a hop of 2^lowbit(t) towards lower ranks (NCCL: send to rank - 2^d, receive
//                from rank + 2^d). The root's sends are the longest hops (t = 2^d), the
//                farthest first as NCCL orders them; a forward waits for the block's arrival.
// reduce_scatter rank B - t adds into its own copy of block B what its children (offsets
//                t + 2^j, j < lowbit(t)) sent it, then sends the partial sum to its parent,
//                rank B - t + lowbit(t) (NCCL: send to rank + 2^d, receive from rank - 2^d),
//                which reduces it into its copy: the leaves' one-hop sends first, the owner
//                last.
// Buffers are in place (schedule.h): [0,S), blocks by block_range. Every hop is cut into
// chunks; chunk c of a hop waits for chunk c of the hops into its sender (allgather: the one
// that brought the block; reduce_scatter: every child's).
//
// Aggregation (NCCL's aggFactor): while a chunk (collective.chunk, NCCL's step) holds at
// least twice agg blocks and agg < n/2, agg doubles (pat_aggregation; chunk 0 = none). With
// agg > 1 the offsets are grouped as NCCL's aggregated steps group them (pat_groups: with
// D = 2^ceil(log2 n) / agg, offsets r, r + D, ... share a message), and each group is one
// network message per rank, its blocks packed into a staging range and unpacked (or reduced)
// at the receiver by local steps; agg = n/2 is Bruck's algorithm with its dimensions
// reversed, log2 n messages per rank. Not modelled: NCCL's extra aggregation for pipelining
// depth (NCCL_STEPS) and PAT's channels (one set of trees; docs/architecture.md "PAT").
#include <algorithm>
#include <cstdint>
#include <vector>

#include "collective/schedule_detail.h"

namespace ndr::coll::detail {

namespace {

uint32_t lowbit(uint32_t t) {
    return t & (~t + 1);
}

uint32_t popcount(uint32_t t) {
    uint32_t c = 0;
    for (; t != 0; t &= t - 1) ++c;
    return c;
}

/// Offsets 1..n-1 by depth (popcount), larger offsets first within a depth: every parent
/// before its children, and the farthest hop of each depth first.
std::vector<uint32_t> allgather_order(uint32_t n) {
    std::vector<uint32_t> out;
    for (uint32_t depth = 1; out.size() + 1 < n; ++depth) {
        for (uint32_t t = n - 1; t >= 1; --t) {
            if (popcount(t) == depth) out.push_back(t);
        }
    }
    return out;
}

constexpr uint32_t NONE = UINT32_MAX;

/// Offset groups of the aggregated PAT (pat_aggregation > 1), allgather order (every offset's
/// parent in an earlier group or the root): with D = 2^ceil(log2 n) / agg, first the
/// multiples of D grouped by their lowest set bit, largest first; then for every residue
/// 0 < r < D, by popcount then larger first, the offsets r, r + D, ..., r + (agg-1) D. The
/// offsets of one group share their lowest set bit, so one rank sends them to one peer in one
/// message. Offsets >= n are left out; empty groups too.
std::vector<std::vector<uint32_t>> pat_groups(uint32_t n, uint32_t agg) {
    uint32_t pow2 = 1;
    while (pow2 < n) pow2 <<= 1;
    const uint32_t delta = pow2 / agg;
    std::vector<std::vector<uint32_t>> out;
    for (uint32_t bit = agg / 2; bit >= 1; bit >>= 1) {
        std::vector<uint32_t> g;
        for (uint32_t m = 1; m < agg; ++m) {
            if (lowbit(m) == bit && m * delta < n) g.push_back(m * delta);
        }
        if (!g.empty()) out.push_back(std::move(g));
    }
    for (uint32_t bits = 1; (1U << (bits - 1)) < delta; ++bits) {
        for (uint32_t r = delta - 1; r >= 1; --r) {
            if (popcount(r) != bits) continue;
            std::vector<uint32_t> g;
            for (uint32_t a = 0; a < agg && r + a * delta < n; ++a) g.push_back(r + a * delta);
            if (!g.empty()) out.push_back(std::move(g));
        }
    }
    return out;
}

/// The aggregated PAT: per group and rank one network message carrying the group's blocks
/// from a staging range of the sender to one of the receiver, with local steps (src == dst)
/// packing the blocks into the send staging range and unpacking (allgather: copying;
/// reduce_scatter: reducing) them at the receiver.
void build_pat_aggregated(const coll_params& p, schedule& s, uint32_t agg) {
    const uint32_t n = p.nranks;
    std::vector<std::vector<uint32_t>> groups = pat_groups(n, agg);
    const bool gather = p.op == op_kind::allgather;
    if (!gather) std::reverse(groups.begin(), groups.end());  // children before parents
    std::vector<uint64_t> stage(n, p.bytes);                  // per rank: next free staging byte
    // allgather: avail[X * n + O] = the step after which block O is at rank X (NONE: its own)
    // reduce_scatter: into[X * n + B] = the reductions into rank X's copy of block B
    std::vector<uint32_t> avail(gather ? std::size_t{n} * n : 0, NONE);
    std::vector<std::vector<uint32_t>> into(gather ? 0 : std::size_t{n} * n);
    for (const std::vector<uint32_t>& g : groups) {
        const uint32_t dist = lowbit(g.front());
        for (uint32_t x = 0; x < n; ++x) {
            const uint32_t peer = gather ? (x + n - dist) % n : (x + dist) % n;
            std::vector<uint32_t> blocks;  // the block each offset of g moves
            uint64_t total = 0;
            for (const uint32_t t : g) {
                blocks.push_back(gather ? (x + t - dist) % n : (x + t) % n);
                total += block_range(p.bytes, p.dtype_bytes, n, blocks.back()).bytes;
            }
            const uint64_t send_at = stage[x];
            stage[x] += total;
            const uint64_t recv_at = stage[peer];
            stage[peer] += total;
            std::vector<uint32_t> packs;
            uint64_t off = 0;
            for (const uint32_t b : blocks) {
                const byte_range r = block_range(p.bytes, p.dtype_bytes, n, b);
                std::vector<uint32_t> deps;
                if (gather && avail[std::size_t{x} * n + b] != NONE) {
                    deps.push_back(avail[std::size_t{x} * n + b]);
                }
                if (!gather) deps = into[std::size_t{x} * n + b];
                packs.push_back(add_xfer(s, x, x, r, send_at + off, false, std::move(deps)));
                off += r.bytes;
            }
            const uint32_t msg =
                add_xfer(s, x, peer, byte_range{send_at, total}, recv_at, false, packs);
            off = 0;
            for (const uint32_t b : blocks) {
                const byte_range r = block_range(p.bytes, p.dtype_bytes, n, b);
                const uint32_t u = add_xfer(s, peer, peer, byte_range{recv_at + off, r.bytes},
                                            r.offset, !gather, {msg});
                if (gather) {
                    avail[std::size_t{peer} * n + b] = u;
                } else {
                    into[std::size_t{peer} * n + b].push_back(u);
                }
                off += r.bytes;
            }
        }
    }
    s.buffer_bytes = *std::max_element(stage.begin(), stage.end());
}

}  // namespace

uint32_t pat_aggregation(const coll_params& p) {
    const uint32_t n = p.nranks;
    if (p.chunk_bytes == 0 || n < 4) return 1;
    const uint64_t chunk = effective_chunk(p);
    const uint64_t blk = block_range(p.bytes, p.dtype_bytes, n, 0).bytes;  // the largest
    uint32_t agg = 1;
    while (agg < n / 2 && blk * agg * 2 <= chunk) agg *= 2;
    return agg;
}

void build_pat(const coll_params& p, schedule& s) {
    const uint32_t n = p.nranks;
    const uint64_t chunk = effective_chunk(p);
    s.buffer_bytes = p.bytes;
    const uint32_t agg = pat_aggregation(p);
    if (agg > 1) {
        build_pat_aggregated(p, s, agg);
        return;
    }
    // first[t * n + owner]: index of chunk 0 of the hop into offset t of block `owner`'s tree
    // (chunks follow consecutively).
    std::vector<uint32_t> first(std::size_t{n} * n, 0);
    const bool gather = p.op == op_kind::allgather;
    if (gather) {
        for (const uint32_t t : allgather_order(n)) {
            const uint32_t parent = t - lowbit(t);
            for (uint32_t owner = 0; owner < n; ++owner) {
                const byte_range b = block_range(p.bytes, p.dtype_bytes, n, owner);
                const uint32_t src = (owner + n - parent) % n;
                const uint32_t dst = (owner + n - t) % n;
                const uint64_t nc = chunk_count(b.bytes, chunk);
                first[std::size_t{t} * n + owner] = static_cast<uint32_t>(s.xfers.size());
                for (uint64_t c = 0; c < nc; ++c) {
                    const byte_range piece = chunk_of(b, chunk, c);
                    std::vector<uint32_t> deps;
                    if (parent != 0) {
                        deps.push_back(first[std::size_t{parent} * n + owner] +
                                       static_cast<uint32_t>(c));
                    }
                    add_xfer(s, src, dst, piece, piece.offset, false, std::move(deps));
                }
            }
        }
        return;
    }
    // reduce_scatter: children (larger offsets) before parents.
    for (uint32_t t = n - 1; t >= 1; --t) {
        const uint32_t lb = lowbit(t);
        for (uint32_t owner = 0; owner < n; ++owner) {
            const byte_range b = block_range(p.bytes, p.dtype_bytes, n, owner);
            const uint32_t src = (owner + n - t) % n;
            const uint32_t dst = (src + lb) % n;
            const uint64_t nc = chunk_count(b.bytes, chunk);
            first[std::size_t{t} * n + owner] = static_cast<uint32_t>(s.xfers.size());
            for (uint64_t c = 0; c < nc; ++c) {
                const byte_range piece = chunk_of(b, chunk, c);
                std::vector<uint32_t> deps;
                for (uint32_t j = 1; j < lb && t + j < n; j <<= 1) {
                    deps.push_back(first[std::size_t{t + j} * n + owner] +
                                   static_cast<uint32_t>(c));
                }
                add_xfer(s, src, dst, piece, piece.offset, true, std::move(deps));
            }
        }
    }
}

uint64_t pat_xfer_count(const coll_params& p) {
    const uint32_t agg = pat_aggregation(p);
    if (agg > 1) {  // per group and rank: a pack and an unpack per block, one message
        uint64_t per_rank = 0;
        for (const std::vector<uint32_t>& g : pat_groups(p.nranks, agg)) {
            per_rank += 2 * g.size() + 1;
        }
        return sat_mul(per_rank, p.nranks);
    }
    // n-1 hops per block, each block cut into chunks (E%n blocks one element longer).
    const uint64_t n = p.nranks;
    const uint64_t chunk = effective_chunk(p);
    const uint64_t elems = p.bytes / p.dtype_bytes;
    const uint64_t base = elems / n;
    const uint64_t extra = elems % n;
    const uint64_t per_hop = sat_add(sat_mul(extra, chunk_count((base + 1) * p.dtype_bytes, chunk)),
                                     sat_mul(n - extra, chunk_count(base * p.dtype_bytes, chunk)));
    return sat_mul(n - 1, per_hop);
}

}  // namespace ndr::coll::detail
