// Ring algorithms (NCCL-style, pipelined by chunks).
//
// allreduce      n-1 reduce-scatter steps then n-1 allgather steps over n blocks
//                (block_range). Reduce-scatter step k: rank r sends block (r-k-1) mod n to
//                r+1, which reduces it into its own copy; after n-1 steps rank r holds the
//                reduced block r. Allgather step k: rank r sends block (r-k) mod n (a copy).
//                The block rank r sends at step k is the one it received at step k-1, so every
//                chunk of a block travels one linear chain of 2(n-1) hops around the ring:
//                chunk c of step k on rank r depends on chunk c of step k-1 arriving at r.
//                Each rank sends 2(n-1)/n * S bytes (docs/domain.md §9).
// reduce_scatter the first n-1 steps of allreduce (rank i ends with reduced block i).
// allgather      the last n-1 steps (rank i starts with its block i).
// broadcast      pipelined chain root -> root+1 -> ... -> root+n-1 over the whole buffer.
// reduce         pipelined chain root+1 -> root+2 -> ... -> root, reducing at every hop.
#include <vector>

#include "collective/schedule_detail.h"

namespace ndr::coll::detail {

namespace {

enum class ring_phase { reduce_scatter, allgather };

/// Runs `steps` ring steps of `phase` starting after `prev` (prev[r] = per-chunk transfers
/// sent by rank r in the step before, empty at the start). Returns the last step's transfers.
std::vector<std::vector<uint32_t>> ring_steps(const coll_params& p, schedule& s, ring_phase phase,
                                              std::vector<std::vector<uint32_t>> prev) {
    const uint32_t n = p.nranks;
    const uint64_t chunk = effective_chunk(p);
    std::vector<std::vector<uint32_t>> cur(n);
    for (uint32_t k = 0; k + 1 < n; ++k) {
        for (uint32_t r = 0; r < n; ++r) {
            // Block sent by r at step k (see the file comment).
            const uint32_t blk =
                phase == ring_phase::reduce_scatter ? (r + 2 * n - k - 1) % n : (r + n - k) % n;
            const byte_range b = block_range(p.bytes, p.dtype_bytes, n, blk);
            const uint32_t dst = (r + 1) % n;
            const std::vector<uint32_t>& arrived = prev[(r + n - 1) % n];  // into r, step k-1
            const uint64_t nc = chunk_count(b.bytes, chunk);
            cur[r].clear();
            cur[r].reserve(nc);
            for (uint64_t c = 0; c < nc; ++c) {
                const byte_range ch = chunk_of(b, chunk, c);
                std::vector<uint32_t> deps;
                if (!arrived.empty()) deps.push_back(arrived[c]);
                cur[r].push_back(add_xfer(s, r, dst, ch, ch.offset,
                                          phase == ring_phase::reduce_scatter, std::move(deps)));
            }
        }
        std::swap(prev, cur);
    }
    return prev;
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
    const std::vector<std::vector<uint32_t>> none(p.nranks);
    switch (p.op) {
        case op_kind::allreduce:
            ring_steps(p, s, ring_phase::allgather,
                       ring_steps(p, s, ring_phase::reduce_scatter, none));
            break;
        case op_kind::reduce_scatter:
            ring_steps(p, s, ring_phase::reduce_scatter, none);
            break;
        case op_kind::allgather:
            ring_steps(p, s, ring_phase::allgather, none);
            break;
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
    // One ring step sends every block once (the block index is a bijection of the rank): E%n
    // blocks of E/n+1 elements, the others of E/n (block_range).
    const uint64_t elems = p.bytes / p.dtype_bytes;
    const uint64_t base = elems / n;
    const uint64_t extra = elems % n;
    const uint64_t step = sat_add(sat_mul(extra, chunk_count((base + 1) * p.dtype_bytes, chunk)),
                                  sat_mul(n - extra, chunk_count(base * p.dtype_bytes, chunk)));
    const uint64_t steps = p.op == op_kind::allreduce ? 2 * (n - 1) : n - 1;
    return sat_mul(steps, step);
}

}  // namespace ndr::coll::detail
