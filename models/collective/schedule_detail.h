// Internal helpers shared by the schedule builders (ring.cpp, tree.cpp, rhd.cpp, rd.cpp,
// alltoall.cpp, pat.cpp, schedule.cpp). Not part of the public interface.
#pragma once
#include <cstdint>
#include <vector>

#include "collective/schedule.h"

namespace ndr::coll::detail {

/// Effective chunk size in bytes: chunk_bytes rounded down to whole elements (at least one
/// element); chunk_bytes 0 = no chunking (UINT64_MAX).
uint64_t effective_chunk(const coll_params& p);

/// Number of chunks a range of `len` bytes is cut into (0 for an empty range).
inline uint64_t chunk_count(uint64_t len, uint64_t chunk) {
    return len == 0 ? 0 : (len - 1) / chunk + 1;
}

/// Chunk k of the range r.
inline byte_range chunk_of(byte_range r, uint64_t chunk, uint64_t k) {
    const uint64_t off = k * chunk;
    const uint64_t left = r.bytes - off;
    return byte_range{r.offset + off, left < chunk ? left : chunk};
}

/// Saturating sum and product for transfer counts: a count beyond MAX_XFERS only has to stay
/// beyond it.
inline uint64_t sat_add(uint64_t a, uint64_t b) {
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
inline uint64_t sat_mul(uint64_t a, uint64_t b) {
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/// A node's members `m` visited from member c (mod |m|): forwards c, c+1, ..., c-1, or
/// backwards c-1, c-2, ..., c. The rail rotation of ring channels (ring_order) and of the
/// node-aware trees' chains (tree.cpp).
inline void append_rotated(std::vector<uint32_t>& out, const std::vector<uint32_t>& m, uint32_t c,
                           bool backwards) {
    const size_t w = m.size();
    for (size_t j = 0; j < w; ++j)
        out.push_back(m[backwards ? (c % w + 2 * w - 1 - j) % w : (c + j) % w]);
}

/// Appends a transfer and returns its index.
uint32_t add_xfer(schedule& s, uint32_t src, uint32_t dst, byte_range src_r, uint64_t dst_off,
                  bool reduce, std::vector<uint32_t> deps);

/// Builders: fill s.xfers / s.local_copies / s.buffer_bytes for validated parameters.
void build_ring(const coll_params& p, schedule& s);
void build_tree(const coll_params& p, schedule& s);
void build_rhd(const coll_params& p, schedule& s);
void build_rd(const coll_params& p, schedule& s);
void build_pairwise(const coll_params& p, schedule& s);
void build_p2p(const coll_params& p, schedule& s);
void build_dissemination(const coll_params& p, schedule& s);
void build_pat(const coll_params& p, schedule& s);

/// Transfer counts of the builders above, computed per range (never per chunk), so that a
/// collective too large to build is refused before anything is allocated. Each equals the
/// size of the xfers list its builder makes (tests/collective/transfer_count_test.cpp).
uint64_t ring_xfer_count(const coll_params& p);
uint64_t tree_xfer_count(const coll_params& p);
uint64_t rhd_xfer_count(const coll_params& p);
uint64_t rd_xfer_count(const coll_params& p);
uint64_t pairwise_xfer_count(const coll_params& p);
uint64_t p2p_xfer_count(const coll_params& p);
uint64_t dissemination_xfer_count(const coll_params& p);
uint64_t pat_xfer_count(const coll_params& p);
/// PAT's aggregation factor (pat.cpp): 1, or the blocks one PAT message carries.
uint32_t pat_aggregation(const coll_params& p);

}  // namespace ndr::coll::detail
