// Recursive halving / doubling (Thakur, Rabenseifner, Gropp 2005; MPICH).
//
// pof2 = the largest power of two <= n, rem = n - pof2. Fold: for i < rem, rank 2i sends to
// rank 2i+1 (allreduce, reduce_scatter: its whole buffer, reduced; allgather: its block 2i) and
// sits out; the pof2 remaining ranks get virtual ranks j (rank 2j+1 for j < rem, j + rem
// otherwise). The buffer is cut into pof2 segments: allreduce uses block_range(S, e, pof2, j);
// reduce_scatter and allgather give virtual rank j the blocks of the real ranks it stands for
// (blocks 2j and 2j+1 for j < rem, block j+rem otherwise), so the segments stay in rank order.
//   Recursive halving (reduce-scatter), distance pof2/2 first: at distance m, j and j^m split
//   their common range of 2m segments; the lower rank keeps the lower half and sends the upper
//   half (reduce), the other the opposite. After log2 pof2 steps j holds reduced segment j.
//   Recursive doubling (allgather), distance 1 first: j sends its range of m segments to j^m
//   (copy), doubling the range.
// Unfold: rank 2i+1 sends rank 2i its result (allreduce, allgather: the whole buffer;
// reduce_scatter: block 2i). allreduce = fold + halving + doubling + unfold: 2 log2 n steps for
// powers of two, each rank sending 2(n-1)/n * S (docs/domain.md §9).
// Every exchange is cut into chunks. A chunk sent from rank r depends on every earlier transfer
// that arrived at r into an overlapping range (at most ~2 per earlier step); found by binary
// search in per-step arrival lists, so building stays O(T log T) for T transfers.
#include <algorithm>
#include <vector>

#include "collective/schedule_detail.h"

namespace ndr::coll::detail {

namespace {

struct arrival {
    uint64_t offset = 0;
    uint64_t end = 0;
    uint32_t idx = 0;
};

class rhd_builder {
public:
    rhd_builder(const coll_params& p, schedule& s)
        : s_(s), chunk_(effective_chunk(p)), arrived_(p.nranks), pending_(p.nranks) {}

    /// Sends `r` from src to dst in chunks; arrivals become visible at the next commit().
    void send(uint32_t src, uint32_t dst, byte_range r, bool reduce) {
        const uint64_t nc = chunk_count(r.bytes, chunk_);
        for (uint64_t c = 0; c < nc; ++c) {
            const byte_range ch = chunk_of(r, chunk_, c);
            const uint32_t idx = add_xfer(s_, src, dst, ch, ch.offset, reduce, overlaps(src, ch));
            pending_[dst].push_back(arrival{ch.offset, ch.offset + ch.bytes, idx});
        }
    }

    /// Ends a step: this step's arrivals become dependencies of later sends.
    void commit() {
        for (size_t r = 0; r < pending_.size(); ++r) {
            if (pending_[r].empty()) continue;
            std::sort(pending_[r].begin(), pending_[r].end(),
                      [](const arrival& a, const arrival& b) { return a.offset < b.offset; });
            arrived_[r].push_back(std::move(pending_[r]));
            pending_[r].clear();
        }
    }

private:
    std::vector<uint32_t> overlaps(uint32_t rank, byte_range ch) const {
        std::vector<uint32_t> deps;
        const uint64_t end = ch.offset + ch.bytes;
        for (const std::vector<arrival>& step : arrived_[rank]) {
            // Arrivals of one step into one rank come from one sender: disjoint and sorted.
            auto it = std::partition_point(step.begin(), step.end(),
                                           [&](const arrival& a) { return a.end <= ch.offset; });
            for (; it != step.end() && it->offset < end; ++it) deps.push_back(it->idx);
        }
        return deps;
    }

    schedule& s_;
    uint64_t chunk_;
    std::vector<std::vector<std::vector<arrival>>> arrived_;  ///< [rank][step] sorted
    std::vector<std::vector<arrival>> pending_;               ///< [rank] this step
};

/// The exchanges of the algorithm, range by range: send(src, dst, range, reduce) for each,
/// commit() at the end of each step. Shared by the builder and the transfer count.
template <typename Send, typename Commit>
void rhd_plan(const coll_params& p, Send&& send, Commit&& commit) {
    const uint32_t n = p.nranks;
    const uint32_t e = p.dtype_bytes;
    uint32_t pof2 = 1;
    while (uint64_t{pof2} * 2 <= n) pof2 *= 2;
    const uint32_t rem = n - pof2;
    auto real = [&](uint32_t j) { return j < rem ? 2 * j + 1 : j + rem; };

    // seg[j]..seg[j+1]: virtual rank j's segment.
    std::vector<uint64_t> seg(pof2 + 1, p.bytes);
    for (uint32_t j = 0; j < pof2; ++j) {
        seg[j] = p.op == op_kind::allreduce
                     ? block_range(p.bytes, e, pof2, j).offset
                     : block_range(p.bytes, e, n, j < rem ? 2 * j : j + rem).offset;
    }
    auto segs = [&](uint32_t a, uint32_t b) { return byte_range{seg[a], seg[b] - seg[a]}; };
    const byte_range all{0, p.bytes};
    const bool reduces = p.op != op_kind::allgather;

    // Fold.
    for (uint32_t i = 0; i < rem; ++i) {
        send(2 * i, 2 * i + 1, reduces ? all : block_range(p.bytes, e, n, 2 * i), reduces);
    }
    commit();

    // Recursive halving.
    if (reduces) {
        for (uint32_t m = pof2 / 2; m >= 1; m /= 2) {
            for (uint32_t j = 0; j < pof2; ++j) {
                const uint32_t lo = j & ~(2 * m - 1);
                const uint32_t mid = lo + m;
                const byte_range give = (j & m) != 0 ? segs(lo, mid) : segs(mid, lo + 2 * m);
                send(real(j), real(j ^ m), give, true);
            }
            commit();
        }
    }

    // Recursive doubling.
    if (p.op != op_kind::reduce_scatter) {
        for (uint32_t m = 1; m < pof2; m *= 2) {
            for (uint32_t j = 0; j < pof2; ++j) {
                const uint32_t lo = j & ~(m - 1);
                send(real(j), real(j ^ m), segs(lo, lo + m), false);
            }
            commit();
        }
    }

    // Unfold.
    for (uint32_t i = 0; i < rem; ++i) {
        const byte_range r =
            p.op == op_kind::reduce_scatter ? block_range(p.bytes, e, n, 2 * i) : all;
        send(2 * i + 1, 2 * i, r, false);
    }
    commit();
}

}  // namespace

void build_rhd(const coll_params& p, schedule& s) {
    s.buffer_bytes = p.bytes;
    rhd_builder b(p, s);
    rhd_plan(
        p,
        [&](uint32_t src, uint32_t dst, byte_range r, bool reduce) { b.send(src, dst, r, reduce); },
        [&] { b.commit(); });
}

uint64_t rhd_xfer_count(const coll_params& p) {
    const uint64_t chunk = effective_chunk(p);
    uint64_t total = 0;
    rhd_plan(
        p,
        [&](uint32_t, uint32_t, byte_range r, bool) {
            total = sat_add(total, chunk_count(r.bytes, chunk));
        },
        [] {});
    return total;
}

}  // namespace ndr::coll::detail
