// Ring channels (coll_params::channels, node_groups; models/collective/ring.cpp) and the
// rail-spread orders of coll::ring_order over node_layout::node_groups: results on real data
// against the definitions (coll_test_util.h), transfer counts against the builder, the bytes every
// rank sends against 2(n-1)/n S, and the orders against hand-computed vectors.
#include <catch2/catch.hpp>

#include <map>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "coll_test_util.h"
#include "collective/schedule.h"
#include "collective/schedule_exec.h"
#include "common/node_layout.h"

namespace c = ndr::coll;
namespace t = ndr::coll::test;
using c::algo_kind;
using c::op_kind;

namespace {

c::coll_params ring_params(op_kind op, uint32_t n, uint64_t bytes, uint32_t channels,
                           uint64_t chunk) {
    c::coll_params p;
    p.op = op;
    p.algo = algo_kind::ring;
    p.nranks = n;
    p.bytes = bytes;
    p.dtype_bytes = 8;
    p.chunk_bytes = chunk;
    p.channels = channels;
    return p;
}

/// Ranks 0..n-1 shuffled and cut into "nodes" of 2 (the last of 1 for odd n).
std::vector<std::vector<uint32_t>> shuffled_groups(uint32_t n, uint64_t seed) {
    std::vector<uint32_t> v(n);
    std::iota(v.begin(), v.end(), 0U);
    std::mt19937_64 rng(seed);
    std::shuffle(v.begin(), v.end(), rng);
    std::vector<std::vector<uint32_t>> g;
    for (uint32_t i = 0; i < n; i += 2) {
        g.push_back(i + 1 < n ? std::vector<uint32_t>{v[i], v[i + 1]}
                              : std::vector<uint32_t>{v[i]});
    }
    return g;
}

}  // namespace

TEST_CASE("ring channels: real-data results in every order and counts equal to the builder",
          "[collective]") {
    for (op_kind op : {op_kind::allreduce, op_kind::reduce_scatter, op_kind::allgather}) {
        for (uint32_t n : {2U, 3U, 4U, 6U}) {
            for (uint32_t ch : {1U, 2U, 3U, 5U}) {
                for (uint64_t elems : {uint64_t{1}, uint64_t{13}, uint64_t{60}}) {
                    for (bool orders : {false, true}) {
                        CAPTURE(name(op), n, ch, elems, orders);
                        auto p = ring_params(op, n, elems * 8 * n, ch, 16);
                        if (orders) p.node_groups = shuffled_groups(n, n + ch);
                        const auto s = c::build_schedule(p);
                        CHECK(c::transfer_count(p) == s.xfers.size());
                        REQUIRE(c::find_races(s).empty());
                        const t::buffers in = t::random_inputs(n, s.buffer_bytes, n + elems);
                        for (uint64_t seed = 0; seed <= 2; ++seed) {
                            const auto out = c::execute(
                                s, in, c::wrapping_sum(8),
                                {seed == 0 ? c::exec_order::latest_first : c::exec_order::random,
                                 seed});
                            CHECK(t::check_result(s, in, out).empty());
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("ring channels: each rank sends 2(n-1)/n S in all and channels cap at the block size",
          "[collective]") {
    const uint32_t n = 8;
    const uint64_t S = uint64_t{8} * n * 64;  // 64 elements per block
    for (uint32_t ch : {1U, 4U, 8U}) {
        const auto s = c::build_schedule(ring_params(op_kind::allreduce, n, S, ch, 0));
        std::vector<uint64_t> sent(n, 0);
        for (const auto& x : s.xfers) sent[x.src] += x.bytes;
        for (uint32_t r = 0; r < n; ++r) CHECK(sent[r] == 2 * (n - 1) * S / n);
        // chunking off: one transfer per position, step and channel
        CHECK(s.xfers.size() == uint64_t{2} * (n - 1) * n * ch);
    }
    // 3 elements per block: at most 3 channels, none empty
    const auto p = ring_params(op_kind::allreduce, n, uint64_t{8} * n * 3, 8, 0);
    CHECK(c::ring_channels(p) == 3);
    const auto s = c::build_schedule(p);
    CHECK(s.xfers.size() == uint64_t{2} * (n - 1) * n * 3);
    for (const auto& x : s.xfers) CHECK(x.bytes == 8);
    // a 64-byte floor per part: 512 B blocks take 8 channels, 256 B blocks 4, 32 B blocks 1
    auto f = ring_params(op_kind::allreduce, n, uint64_t{512} * n, 16, 0);
    f.channel_min_bytes = 64;
    CHECK(c::ring_channels(f) == 8);
    f.bytes = uint64_t{256} * n;
    CHECK(c::ring_channels(f) == 4);
    f.bytes = uint64_t{32} * n;
    CHECK(c::ring_channels(f) == 1);
    // one element in all: one channel
    CHECK(c::ring_channels(ring_params(op_kind::allreduce, n, 8, 8, 0)) == 1);
}

TEST_CASE("ring channels: bad node groups are refused", "[collective]") {
    auto p = ring_params(op_kind::allreduce, 4, 64, 2, 0);
    p.node_groups = {{0, 1}, {2, 2}};
    CHECK_THROWS_AS(c::build_schedule(p), std::invalid_argument);
    p.node_groups = {{0, 1}, {2}};
    CHECK_THROWS_AS(c::build_schedule(p), std::invalid_argument);
    p.node_groups = {};
    p.channels = 0;
    CHECK_THROWS_AS(c::build_schedule(p), std::invalid_argument);
}

TEST_CASE("ring_order over node groups: hand-computed orders and one ring per rail each way",
          "[collective]") {
    // 2 nodes x 4 GPUs, default placement: node 1 runs backwards.
    const ndr::common::node_layout two(4, 0, 8, {});
    std::vector<uint32_t> all(8);
    std::iota(all.begin(), all.end(), 0U);
    const auto g2 = two.node_groups(all);
    REQUIRE(g2 == std::vector<std::vector<uint32_t>>{{0, 1, 2, 3}, {4, 5, 6, 7}});
    std::vector<std::vector<uint32_t>> o;
    for (uint32_t ch = 0; ch < 4; ++ch) o.push_back(c::ring_order(g2, ch));
    CHECK(o[0] == std::vector<uint32_t>{0, 1, 2, 3, 7, 6, 5, 4});
    CHECK(o[1] == std::vector<uint32_t>{1, 2, 3, 0, 4, 7, 6, 5});
    CHECK(o[3] == std::vector<uint32_t>{3, 0, 1, 2, 6, 5, 4, 7});
    // 4 nodes x 8 GPUs: every inter-node hop stays on one rail; each (node, GPU) sends one
    // inter-node hop and receives one over the 8 channels.
    const ndr::common::node_layout four(8, 0, 32, {});
    std::vector<uint32_t> m(32);
    std::iota(m.begin(), m.end(), 0U);
    std::vector<std::vector<uint32_t>> oo;
    for (uint32_t ch = 0; ch < 8; ++ch) oo.push_back(c::ring_order(four.node_groups(m), ch));
    std::map<uint32_t, int> out, in;
    for (const auto& ord : oo) {
        for (size_t q = 0; q < ord.size(); ++q) {
            const auto a = four.of_rank(ord[q]);
            const auto b = four.of_rank(ord[(q + 1) % ord.size()]);
            if (a.node == b.node) continue;
            CHECK(a.gpu == b.gpu);
            ++out[ord[q]];
            ++in[ord[(q + 1) % ord.size()]];
        }
    }
    CHECK(out.size() == 32);
    CHECK(in.size() == 32);
    for (const auto& [r, k] : out) CHECK(k == 1);
    for (const auto& [r, k] : in) CHECK(k == 1);
    // one node, or one GPU per node: no groups, the identity order
    CHECK(ndr::common::node_layout(8, 0, 8, {}).node_groups(all).empty());
    CHECK(ndr::common::node_layout(1, 0, 8, {}).node_groups(all).empty());
    CHECK(c::ring_order({}, 3).empty());
}

TEST_CASE("node-aware tree: real-data allreduce and counts and inter-node hops on one rail",
          "[collective]") {
    // 3 nodes of 4 ranks (the layout's positions: node k holds 4k..4k+3 by local GPU)
    std::vector<std::vector<uint32_t>> groups{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}};
    for (uint32_t ch : {1U, 2U, 4U}) {
        for (uint64_t elems : {uint64_t{12}, uint64_t{100}}) {
            CAPTURE(ch, elems);
            c::coll_params p;
            p.op = op_kind::allreduce;
            p.algo = algo_kind::tree;
            p.nranks = 12;
            p.bytes = elems * 8 * 12;
            p.dtype_bytes = 8;
            p.chunk_bytes = 64;
            p.channels = ch;
            p.node_groups = groups;
            const auto s = c::build_schedule(p);
            CHECK(c::transfer_count(p) == s.xfers.size());
            REQUIRE(c::find_races(s).empty());
            const t::buffers in = t::random_inputs(12, s.buffer_bytes, elems + ch);
            for (uint64_t seed = 0; seed <= 2; ++seed) {
                const auto out = c::execute(
                    s, in, c::wrapping_sum(8),
                    {seed == 0 ? c::exec_order::latest_first : c::exec_order::random, seed});
                CHECK(t::check_result(s, in, out).empty());
            }
            // every hop between nodes joins the same local GPU; inside a node, neighbours
            for (const auto& x : s.xfers) {
                if (x.src / 4 != x.dst / 4) CHECK(x.src % 4 == x.dst % 4);
            }
            // channel c's trees leave a node at GPU c (tree 0) and c-1 (tree 1): channels
            // 0..ch-1 use GPUs -1..ch-1, ch+1 rails, at most the node's 4
            std::set<uint32_t> rails;
            for (const auto& x : s.xfers) {
                if (x.src / 4 != x.dst / 4) rails.insert(x.src % 4);
            }
            CHECK(rails.size() == std::min<size_t>(4, ch + 1));
        }
    }
    c::coll_params bad;
    bad.op = op_kind::allreduce;
    bad.algo = algo_kind::tree;
    bad.nranks = 4;
    bad.bytes = 64;
    bad.node_groups = {{0, 1}, {1, 2, 3}};
    CHECK_THROWS_AS(c::build_schedule(bad), std::invalid_argument);
}
