// Pairwise-exchange all-to-all (MPICH's long-message alltoall, NCCL-like ordering).
//
// Buffer 2S: send blocks at [0,S), receive blocks at [S,2S), blocks of S/n bytes (equal:
// build_schedule requires S % (n * dtype_bytes) == 0). Rank i's own block is a local_copy.
// Step k = 1..n-1: rank i sends its block for t = (i+k) mod n to rank t's receive block i, cut
// into chunks. All chunks of step k on rank i depend on all chunks of rank i's step k-1 (the
// previous send is complete, i.e. acknowledged), so at most one peer per rank is in flight.
#include <vector>

#include "collective/schedule_detail.h"

namespace ndr::coll::detail {

void build_pairwise(const coll_params& p, schedule& s) {
    const uint32_t n = p.nranks;
    const uint64_t blk = p.bytes / n;
    const uint64_t chunk = effective_chunk(p);
    s.buffer_bytes = 2 * p.bytes;
    for (uint32_t i = 0; i < n; ++i) {
        if (blk != 0) s.local_copies.push_back(local_copy{i, blk, i * blk, p.bytes + i * blk});
    }
    const uint64_t nc = chunk_count(blk, chunk);
    std::vector<std::vector<uint32_t>> prev(n), cur(n);
    for (uint32_t k = 1; k < n; ++k) {
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t t = (i + k) % n;
            const byte_range b{t * blk, blk};
            cur[i].clear();
            for (uint64_t c = 0; c < nc; ++c) {
                const byte_range ch = chunk_of(b, chunk, c);
                cur[i].push_back(add_xfer(s, i, t, ch, p.bytes + i * blk + (ch.offset - b.offset),
                                          false, prev[i]));
            }
        }
        std::swap(prev, cur);
    }
}

uint64_t pairwise_xfer_count(const coll_params& p) {
    const uint64_t n = p.nranks;
    return sat_mul(sat_mul(n, n - 1), chunk_count(p.bytes / n, effective_chunk(p)));
}

}  // namespace ndr::coll::detail
