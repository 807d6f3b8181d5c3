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
// Not modelled: NCCL's aggregation of several small blocks into one network step (aggFactor,
// when a block is under half a step) and its channels: each block crosses each hop as its own
// transfer, on one set of trees (docs/architecture.md "PAT").
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

}  // namespace

void build_pat(const coll_params& p, schedule& s) {
    const uint32_t n = p.nranks;
    const uint64_t chunk = effective_chunk(p);
    s.buffer_bytes = p.bytes;
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
