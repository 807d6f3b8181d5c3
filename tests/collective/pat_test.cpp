// PAT (models/collective/pat.cpp): the schedule against hand-computed step lists (peer, block
// and bytes per step, 4 and 8 ranks, derived from NCCL's PAT peers: allgather sends to
// rank - 2^d, reduce_scatter to rank + 2^d), every rank receiving every block exactly once,
// every reduction contribution counted exactly once, and the logarithmic depth.
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "coll_test_util.h"
#include "collective/schedule.h"
#include "collective/schedule_detail.h"
#include "collective/schedule_exec.h"

namespace c = ndr::coll;
namespace t = ndr::coll::test;
using c::algo_kind;
using c::op_kind;

namespace {

c::coll_params pat(op_kind op, uint32_t n, uint64_t bytes, uint64_t chunk = 0) {
    c::coll_params p;
    p.op = op;
    p.algo = algo_kind::pat;
    p.nranks = n;
    p.bytes = bytes;
    p.dtype_bytes = 4;
    p.chunk_bytes = chunk;
    return p;
}

/// The step of every transfer: 1 + the latest step among its deps.
std::vector<uint32_t> steps(const c::schedule& s) {
    std::vector<uint32_t> st(s.xfers.size(), 1);
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        for (uint32_t d : s.xfers[i].deps) st[i] = std::max(st[i], st[d] + 1);
    }
    return st;
}

/// (step, peer, offset, bytes) of the transfers rank `r` sends, as a set.
using sent = std::set<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>>;
sent sends_of(const c::schedule& s, uint32_t r) {
    const std::vector<uint32_t> st = steps(s);
    sent out;
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        const c::xfer& x = s.xfers[i];
        if (x.src == r) out.insert({st[i], x.dst, x.src_offset, x.bytes});
    }
    return out;
}

/// One expected transfer of a hand-computed list: src, dst, offset (both sides), deps.
struct row {
    uint32_t src, dst;
    uint64_t off;
    std::vector<uint32_t> deps;
};

/// s's transfers are exactly `want`, each of `bytes` B, reducing iff `reduce` (an allgather's
/// transfer also lands at the offset it was read from).
void check_list(const c::schedule& s, const std::vector<row>& want, uint64_t bytes, bool reduce) {
    REQUIRE(s.algo == algo_kind::pat);
    REQUIRE(s.xfers.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        CAPTURE(i);
        const c::xfer& x = s.xfers[i];
        CHECK(x.src == want[i].src);
        CHECK(x.dst == want[i].dst);
        CHECK(x.src_offset == want[i].off);
        if (!reduce) CHECK(x.dst_offset == want[i].off);
        CHECK(x.bytes == bytes);
        CHECK(x.reduce == reduce);
        CHECK(x.deps == want[i].deps);
    }
}

}  // namespace

TEST_CASE("PAT allgather of 4 ranks is the hand-computed transfer list", "[collective][pat]") {
    // 4 blocks of 16 B. Offsets t from the owner O: t = 2 and 1 hang off the root (step 1, the
    // farthest first), t = 3 off t = 2 (step 2). Hop into t goes from O - (t - lowbit t) to
    // O - t.
    const c::schedule s = c::build_schedule(pat(op_kind::allgather, 4, 64));
    const std::vector<row> want = {
        {0, 2, 0, {}},  {1, 3, 16, {}},  {2, 0, 32, {}},  {3, 1, 48, {}},   // t = 2
        {0, 3, 0, {}},  {1, 0, 16, {}},  {2, 1, 32, {}},  {3, 2, 48, {}},   // t = 1
        {2, 1, 0, {0}}, {3, 2, 16, {1}}, {0, 3, 32, {2}}, {1, 0, 48, {3}},  // t = 3
    };
    check_list(s, want, 16, false);
}

TEST_CASE("PAT reduce_scatter of 4 ranks is the hand-computed transfer list", "[collective][pat]") {
    // Block B is reduced from rank B - t into rank B - t + lowbit(t): t = 3 (leaf) first, then
    // t = 2 (after t = 3 arrived), then t = 1 (leaf).
    const c::schedule s = c::build_schedule(pat(op_kind::reduce_scatter, 4, 64));
    const std::vector<row> want = {
        {1, 2, 0, {}},  {2, 3, 16, {}},  {3, 0, 32, {}},  {0, 1, 48, {}},   // t = 3, hop 1
        {2, 0, 0, {0}}, {3, 1, 16, {1}}, {0, 2, 32, {2}}, {1, 3, 48, {3}},  // t = 2, hop 2
        {3, 0, 0, {}},  {0, 1, 16, {}},  {1, 2, 32, {}},  {2, 3, 48, {}},   // t = 1, hop 1
    };
    check_list(s, want, 16, true);
}

TEST_CASE("PAT of 8 ranks: rank 0's sends per step, peer and bytes", "[collective][pat]") {
    // 29 elements of 4 B over 8 blocks: blocks 0-4 hold 4 elements (16 B), 5-7 hold 3 (12 B):
    // offsets 0, 16, 32, 48, 64, 80, 92, 104.
    const uint64_t off[8] = {0, 16, 32, 48, 64, 80, 92, 104};
    auto blk = [&](uint32_t b) { return std::make_tuple(off[b], b < 5 ? 16ULL : 12ULL); };
    auto at = [&](uint32_t step, uint32_t peer, uint32_t b) {
        return std::make_tuple(step, peer, std::get<0>(blk(b)), std::get<1>(blk(b)));
    };
    SECTION("allgather: own block to 7, 6, 4; then blocks 2, 4 to 7 and 4 to 6; then 6 to 7") {
        const c::schedule s = c::build_schedule(pat(op_kind::allgather, 8, 29 * 4));
        const sent want = {at(1, 7, 0), at(1, 6, 0), at(1, 4, 0), at(2, 7, 2),
                           at(2, 7, 4), at(2, 6, 4), at(3, 7, 6)};
        CHECK(sends_of(s, 0) == want);
    }
    SECTION("reduce_scatter: blocks 1, 3, 5, 7 to 1; 2 and 6 to 2 a step later; 4 to 4 last") {
        const c::schedule s = c::build_schedule(pat(op_kind::reduce_scatter, 8, 29 * 4));
        const sent want = {at(1, 1, 1), at(1, 1, 3), at(1, 1, 5), at(1, 1, 7),
                           at(2, 2, 2), at(2, 2, 6), at(3, 4, 4)};
        CHECK(sends_of(s, 0) == want);
    }
}

TEST_CASE("PAT allgather delivers every block to every rank exactly once", "[collective][pat]") {
    for (uint32_t n : {2u, 3u, 5u, 6u, 8u, 11u, 16u, 24u}) {
        CAPTURE(n);
        const uint64_t bytes = uint64_t{n} * 40 + 12;  // uneven blocks
        const c::schedule s = c::build_schedule(pat(op_kind::allgather, n, bytes, 16));
        // arrivals[dst][block bytes]: every block's bytes land at every other rank once.
        std::vector<std::vector<uint32_t>> got(n, std::vector<uint32_t>(bytes / 4, 0));
        for (const c::xfer& x : s.xfers) {
            CHECK(x.src_offset == x.dst_offset);
            for (uint64_t b = x.dst_offset; b < x.dst_offset + x.bytes; b += 4) ++got[x.dst][b / 4];
        }
        for (uint32_t r = 0; r < n; ++r) {
            const auto [own_off, own_len] = t::ref_block(bytes, 4, n, r);
            for (uint64_t e = 0; e < bytes / 4; ++e) {
                const bool own = e * 4 >= own_off && e * 4 < own_off + own_len;
                CHECK(got[r][e] == (own ? 0U : 1U));
            }
        }
        CHECK(c::find_races(s).empty());
        const t::buffers in = t::random_inputs(n, s.buffer_bytes, n);
        CHECK(t::check_result(s, in, c::execute(s, in, c::wrapping_sum(4))).empty());
        // Logarithmic: floor(log2 n) steps (the ring takes n - 1).
        uint32_t lg = 0;
        while ((2U << lg) <= n) ++lg;
        CHECK(t::dep_depth(c::build_schedule(pat(op_kind::allgather, n, bytes))) == lg);
    }
}

TEST_CASE("PAT reduce_scatter counts every contribution exactly once", "[collective][pat]") {
    for (uint32_t n : {2u, 3u, 5u, 7u, 8u, 12u, 16u}) {
        CAPTURE(n);
        const uint64_t bytes = uint64_t{n} * 8;
        const c::schedule s = c::build_schedule(pat(op_kind::reduce_scatter, n, bytes));
        // held[rank][block]: the contributors whose input is summed into that copy; a transfer
        // moves the sender's set into the receiver's, which must not have any of them yet.
        std::vector<std::vector<std::set<uint32_t>>> held(n, std::vector<std::set<uint32_t>>(n));
        for (uint32_t r = 0; r < n; ++r) {
            for (uint32_t b = 0; b < n; ++b) held[r][b] = {r};
        }
        for (uint32_t i : c::execution_order(s, {c::exec_order::listed, 0})) {
            const c::xfer& x = s.xfers[i];
            REQUIRE(x.reduce);
            const uint32_t b = static_cast<uint32_t>(x.src_offset / 8);
            for (uint32_t who : held[x.src][b]) CHECK(held[x.dst][b].count(who) == 0);
            held[x.dst][b].insert(held[x.src][b].begin(), held[x.src][b].end());
        }
        for (uint32_t b = 0; b < n; ++b) CHECK(held[b][b].size() == n);
        CHECK(c::find_races(s).empty());
        uint32_t lg = 0;
        while ((2U << lg) <= n) ++lg;
        CHECK(t::dep_depth(s) == lg);
    }
}

namespace {

/// The network messages (src != dst) rank `r` sends, in order: (peer, bytes).
std::vector<std::pair<uint32_t, uint64_t>> messages_of(const c::schedule& s, uint32_t r) {
    std::vector<std::pair<uint32_t, uint64_t>> out;
    for (const c::xfer& x : s.xfers) {
        if (x.src == r && x.dst != r) out.emplace_back(x.dst, x.bytes);
    }
    return out;
}

}  // namespace

TEST_CASE("PAT aggregates small blocks: 16 ranks of 256 B blocks are reversed Bruck",
          "[collective][pat]") {
    // 4 KiB over 16 ranks, 1 MiB chunks: a block is 256 B, so NCCL's aggregation factor
    // doubles up to n/2 = 8 (2 x 256 x 8 <= 1 MiB); D = 16 / 8 = 2. Rank 0's messages: offset
    // 8 (1 block to rank 8), offsets 4, 12 (2 blocks to rank 12), 2, 6, 10, 14 (4 blocks to
    // rank 14), the odd offsets (8 blocks to rank 15): log2 16 messages, the farthest first.
    for (const op_kind op : {op_kind::allgather, op_kind::reduce_scatter}) {
        CAPTURE(c::name(op));
        const c::schedule s = c::build_schedule(pat(op, 16, 4096, 1 << 20));
        const std::vector<std::pair<uint32_t, uint64_t>> ag = {
            {8, 256}, {12, 512}, {14, 1024}, {15, 2048}};
        // reduce_scatter: the same tree backwards, sending to rank + 2^d, the nearest first.
        const std::vector<std::pair<uint32_t, uint64_t>> rs = {
            {1, 2048}, {2, 1024}, {4, 512}, {8, 256}};
        CHECK(messages_of(s, 0) == (op == op_kind::allgather ? ag : rs));
        CHECK(t::dep_depth(s, true) == 4);  // network steps
        CHECK(c::find_races(s).empty());
        const t::buffers in = t::random_inputs(16, 4096, 16);
        CHECK(t::check_result(s, in, c::execute(s, in, c::wrapping_sum(4))).empty());
        CHECK(c::transfer_count(pat(op, 16, 4096, 1 << 20)) == s.xfers.size());
    }
}

TEST_CASE("PAT aggregation factor follows NCCL's rule", "[collective][pat]") {
    // Doubles while a chunk holds two aggregated steps' blocks, up to n/2; chunk 0 = none.
    CHECK(c::detail::pat_aggregation(pat(op_kind::allgather, 16, 4096, 1 << 20)) == 8);
    CHECK(c::detail::pat_aggregation(pat(op_kind::allgather, 16, 16 << 20, 1 << 20)) == 1);
    CHECK(c::detail::pat_aggregation(pat(op_kind::allgather, 16, 1 << 20, 1 << 20)) == 8);
    CHECK(c::detail::pat_aggregation(pat(op_kind::allgather, 64, 64 << 20, 4 << 20)) == 4);
    CHECK(c::detail::pat_aggregation(pat(op_kind::allgather, 16, 4096, 0)) == 1);
    CHECK(c::detail::pat_aggregation(pat(op_kind::allgather, 3, 12, 1 << 20)) == 1);
}

TEST_CASE("aggregated PAT is exact on every rank count", "[collective][pat]") {
    for (uint32_t n : {4u, 5u, 6u, 7u, 9u, 12u, 13u, 32u}) {
        for (const op_kind op : {op_kind::allgather, op_kind::reduce_scatter}) {
            CAPTURE(n, c::name(op));
            const c::coll_params p = pat(op, n, uint64_t{n} * 12 + 8, 4096);
            REQUIRE(c::detail::pat_aggregation(p) > 1);
            const c::schedule s = c::build_schedule(p);
            CHECK(c::transfer_count(p) == s.xfers.size());
            CHECK(c::find_races(s).empty());
            const t::buffers in = t::random_inputs(n, p.bytes, n * 7);
            for (uint64_t seed = 1; seed <= 3; ++seed) {
                const auto out =
                    c::execute(s, in, c::wrapping_sum(4), {c::exec_order::random, seed});
                CHECK(t::check_result(s, in, out).empty());
            }
            // Every rank sends each of the n-1 hops' blocks once: n-1 blocks packed per rank.
            std::vector<uint32_t> packed(n, 0);
            for (const c::xfer& x : s.xfers) {
                if (x.src == x.dst && x.dst_offset >= p.bytes) ++packed[x.src];
            }
            for (uint32_t r = 0; r < n; ++r) CHECK(packed[r] == n - 1);
        }
    }
}
