// Ring algorithms (NCCL-style, pipelined by chunks).
//
// allreduce      n-1 reduce-scatter steps then n-1 allgather steps over n blocks
//                (block_range). Reduce-scatter step k: rank r sends block (r-k-1) mod n to
//                r+1, which reduces it into its own copy; after n-1 steps rank r holds the
//                reduced block r. Allgather step k: rank r sends block (r-k) mod n (a copy).
//                The block rank r sends at step k is the one it received at step k-1, so every
//                chunk of a block travels one linear chain of 2(n-1) hops around the ring:
//                chunk c of step k on rank r depends on chunk c of step k-1 arriving at r.
//                Each rank sends 2(n-1)/n * S bytes (docs/domain.md §9). The step rule is
//                written once, in coll::ring_stream (ring_stream.cpp): build_ring builds its
//                levels whole, the replay unfolds them.
// reduce_scatter the first n-1 steps of allreduce (rank i ends with reduced block i).
// allgather      the last n-1 steps (rank i starts with its block i).
// broadcast      pipelined chain root -> root+1 -> ... -> root+n-1 over the whole buffer.
// reduce         pipelined chain root+1 -> root+2 -> ... -> root, reducing at every hop.
#include <algorithm>
#include <vector>

#include "collective/ring_stream.h"
#include "collective/schedule_detail.h"

namespace ndr::coll::detail {

namespace {

/// Chunk count of a range of `elems` elements split into `parts` parts on element boundaries
/// (block_range): elems % parts parts one element longer.
uint64_t split_chunks(uint64_t elems, uint64_t parts, uint64_t dtype, uint64_t chunk) {
    const uint64_t base = elems / parts;
    const uint64_t extra = elems % parts;
    return sat_add(sat_mul(extra, chunk_count((base + 1) * dtype, chunk)),
                   sat_mul(parts - extra, chunk_count(base * dtype, chunk)));
}

/// Pipelined chain through ranks first, first+1, ... (n-1 hops) over the whole buffer.
void chain(const coll_params& p, schedule& s, uint32_t first, bool reduce) {
    const uint32_t n = p.nranks;
    const uint64_t chunk = effective_chunk(p);
    const byte_range all{0, p.bytes};
    const uint64_t nc = chunk_count(p.bytes, chunk);
    std::vector<uint32_t> prev, cur;
    for (uint32_t h = 0; h + 1 < n; ++h) {
        const uint32_t src = (first + h) % n;
        const uint32_t dst = (first + h + 1) % n;
        cur.clear();
        for (uint64_t c = 0; c < nc; ++c) {
            const byte_range ch = chunk_of(all, chunk, c);
            std::vector<uint32_t> deps;
            if (!prev.empty()) deps.push_back(prev[c]);
            cur.push_back(add_xfer(s, src, dst, ch, ch.offset, reduce, std::move(deps)));
        }
        std::swap(prev, cur);
    }
}

}  // namespace

void build_ring(const coll_params& p, schedule& s) {
    s.buffer_bytes = p.bytes;
    switch (p.op) {
        case op_kind::allreduce:
        case op_kind::reduce_scatter:
        case op_kind::allgather: {
            // The channels' steps in index order: the levels coll::ring_stream unfolds are the
            // one statement of the ring's step rule, built whole here.
            const ring_stream rs(p);
            std::vector<xfer> level;
            for (uint32_t c = 0; c < rs.chains(); ++c) {
                for (uint32_t k = 0; k < rs.levels(); ++k) {
                    rs.level(c, k, level);
                    for (xfer& x : level) s.xfers.push_back(std::move(x));
                }
            }
            break;
        }
        case op_kind::broadcast:
            chain(p, s, p.root, false);
            break;
        case op_kind::reduce:
            chain(p, s, (p.root + 1) % p.nranks, true);
            break;
        default:
            break;  // rejected by build_schedule
    }
}

uint64_t ring_xfer_count(const coll_params& p) {
    const uint64_t n = p.nranks;
    const uint64_t chunk = effective_chunk(p);
    if (p.op == op_kind::broadcast || p.op == op_kind::reduce) {
        return sat_mul(n - 1, chunk_count(p.bytes, chunk));  // chain: n-1 hops
    }
    // One ring step of one channel sends every block's part once (the block index is a
    // bijection of the position): E%n blocks of E/n+1 elements, the others of E/n
    // (block_range), each cut into ring_channels(p) parts.
    const uint64_t elems = p.bytes / p.dtype_bytes;
    const uint64_t base = elems / n;
    const uint64_t extra = elems % n;
    const uint64_t parts = ring_channels(p);
    const uint64_t step =
        sat_add(sat_mul(extra, split_chunks(base + 1, parts, p.dtype_bytes, chunk)),
                sat_mul(n - extra, split_chunks(base, parts, p.dtype_bytes, chunk)));
    const uint64_t steps = p.op == op_kind::allreduce ? 2 * (n - 1) : n - 1;
    return sat_mul(steps, step);
}

}  // namespace ndr::coll::detail

namespace ndr::coll {

std::vector<uint32_t> ring_order(const std::vector<std::vector<uint32_t>>& groups, uint32_t c) {
    std::vector<uint32_t> order;
    // even nodes forwards from member c, odd nodes backwards from c-1
    for (size_t k = 0; k < groups.size(); ++k)
        detail::append_rotated(order, groups[k], c, k % 2 == 1);
    return order;
}

uint32_t ring_channels(const coll_params& p) {
    const uint64_t e = p.dtype_bytes == 0 ? 1 : p.dtype_bytes;
    const uint64_t smallest = p.bytes / e / (p.nranks == 0 ? 1 : p.nranks);  // elements
    uint64_t c = std::min<uint64_t>(p.channels == 0 ? 1 : p.channels, smallest);
    if (p.channel_min_bytes != 0) c = std::min(c, smallest * e / p.channel_min_bytes);
    return static_cast<uint32_t>(std::max<uint64_t>(1, c));
}

}  // namespace ndr::coll
