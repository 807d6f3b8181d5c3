// Test helpers for collective schedules: random inputs and the expected result of every
// collective, computed from the definitions independently of the schedule builders.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "collective/schedule.h"

namespace ndr::coll::test {

using buffers = std::vector<std::vector<uint8_t>>;

/// Parameters of one collective: op, algorithm, ranks, bytes, element size, chunk, channels.
inline coll_params params(op_kind op, algo_kind algo, uint32_t n, uint64_t bytes, uint32_t e,
                          uint64_t chunk, uint32_t channels = 1) {
    coll_params p;
    p.op = op;
    p.algo = algo;
    p.nranks = n;
    p.bytes = bytes;
    p.dtype_bytes = e;
    p.chunk_bytes = chunk;
    p.channels = channels;
    return p;
}

/// Offset and size of block i of n over `total` bytes of `e`-byte elements, by counting
/// (remainder elements go to the first blocks, as NCCL splits).
inline std::pair<uint64_t, uint64_t> ref_block(uint64_t total, uint32_t e, uint32_t n, uint32_t i) {
    const uint64_t elems = total / e;
    uint64_t off = 0;
    for (uint32_t k = 0; k < n; ++k) {
        const uint64_t cnt = elems / n + (k < elems % n ? 1 : 0);
        if (k == i) return {off * e, cnt * e};
        off += cnt;
    }
    return {off * e, 0};
}

/// acc += in, element-wise wrap-around over little-endian `e`-byte integers.
inline void ref_add(uint8_t* acc, const uint8_t* in, uint64_t bytes, uint32_t e) {
    for (uint64_t i = 0; i < bytes; i += e) {
        uint64_t a = 0;
        uint64_t b = 0;
        std::memcpy(&a, acc + i, e);
        std::memcpy(&b, in + i, e);
        a += b;
        std::memcpy(acc + i, &a, e);
    }
}

/// Longest chain of deps, in transfers: the number of sequential steps. With `network_only`,
/// local steps (src == dst) add no step.
inline uint32_t dep_depth(const schedule& s, bool network_only = false) {
    std::vector<uint32_t> d(s.xfers.size(), 0);
    uint32_t best = 0;
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        uint32_t m = 0;
        for (uint32_t p : s.xfers[i].deps) m = std::max(m, d[p]);
        d[i] = m + (!network_only || s.xfers[i].src != s.xfers[i].dst ? 1 : 0);
        best = std::max(best, d[i]);
    }
    return best;
}

inline buffers random_inputs(uint32_t n, uint64_t bytes, uint64_t seed) {
    std::mt19937_64 rng(seed);
    buffers in(n, std::vector<uint8_t>(bytes));
    for (auto& b : in) {
        for (auto& x : b) x = static_cast<uint8_t>(rng());
    }
    return in;
}

inline std::vector<uint8_t> ref_sum(const buffers& in, uint64_t bytes, uint32_t e) {
    std::vector<uint8_t> acc(bytes, 0);
    for (const auto& b : in) ref_add(acc.data(), b.data(), bytes, e);
    return acc;
}

inline bool same(const std::vector<uint8_t>& a, uint64_t a_off, const std::vector<uint8_t>& b,
                 uint64_t b_off, uint64_t len) {
    return len == 0 || std::memcmp(a.data() + a_off, b.data() + b_off, len) == 0;
}

/// Empty if `out` (final buffers) is the collective's result on `in`; else what differs.
inline std::string check_result(const schedule& s, const buffers& in, const buffers& out) {
    const coll_params& p = s.params;
    const uint32_t n = p.nranks;
    const uint32_t e = p.dtype_bytes;
    const uint64_t sz = p.bytes;
    switch (p.op) {
        case op_kind::allreduce: {
            const auto sum = ref_sum(in, sz, e);
            for (uint32_t r = 0; r < n; ++r) {
                if (!same(out[r], 0, sum, 0, sz)) return fmt::format("rank {}: not the sum", r);
            }
            return {};
        }
        case op_kind::reduce_scatter: {
            const auto sum = ref_sum(in, sz, e);
            for (uint32_t r = 0; r < n; ++r) {
                const auto [off, len] = ref_block(sz, e, n, r);
                if (!same(out[r], off, sum, off, len)) {
                    return fmt::format("rank {}: block {} not the sum", r, r);
                }
            }
            return {};
        }
        case op_kind::allgather:
            for (uint32_t r = 0; r < n; ++r) {
                for (uint32_t i = 0; i < n; ++i) {
                    const auto [off, len] = ref_block(sz, e, n, i);
                    if (!same(out[r], off, in[i], off, len)) {
                        return fmt::format("rank {}: block {} not rank {}'s", r, i, i);
                    }
                }
            }
            return {};
        case op_kind::alltoall: {
            const uint64_t blk = sz / n;
            for (uint32_t j = 0; j < n; ++j) {
                for (uint32_t i = 0; i < n; ++i) {
                    if (!same(out[j], sz + i * blk, in[i], j * blk, blk)) {
                        return fmt::format("rank {}: receive block {} not rank {}'s block {}", j, i,
                                           i, j);
                    }
                }
            }
            return {};
        }
        case op_kind::broadcast:
            for (uint32_t r = 0; r < n; ++r) {
                if (!same(out[r], 0, in[p.root], 0, sz)) {
                    return fmt::format("rank {}: not the root's data", r);
                }
            }
            return {};
        case op_kind::reduce:
            if (!same(out[p.root], 0, ref_sum(in, sz, e), 0, sz)) return "root: not the sum";
            return {};
        case op_kind::send:
        case op_kind::rdma_write:
            return same(out[1], 0, in[0], 0, sz) ? std::string{} : "peer: not rank 0's data";
        case op_kind::recv:
        case op_kind::rdma_read:
            return same(out[0], 0, in[1], 0, sz) ? std::string{} : "rank 0: not the peer's data";
        case op_kind::barrier:
            return {};
    }
    return "unknown op";
}

}  // namespace ndr::coll::test
