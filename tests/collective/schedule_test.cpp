// Collective schedules (models/collective/schedule.h) executed on random data by the reference
// executor and compared with each collective's definition, for every op x algorithm x rank
// count, odd sizes and chunk sizes; plus the cost-model properties (bytes per rank, steps,
// per-link tree volume), tree shapes, algorithm choice, validation and build speed.
//
// Insufficient dependencies are caught two ways (details in schedule_exec.h): find_races
// proves for each schedule that every pair of conflicting accesses is ordered by deps, and
// every schedule is executed in several randomised topological orders plus latest-first, so
// a transfer that runs before the data it reads (or after its destination was reused) yields
// a wrong final buffer. schedule_exec_test.cpp shows both catching dropped dependencies.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "coll_test_util.h"
#include "collective/schedule.h"
#include "collective/schedule_exec.h"

namespace c = ndr::coll;
namespace t = ndr::coll::test;
using c::algo_kind;
using c::op_kind;

namespace {

const std::vector<uint32_t> RANKS = {1, 2, 3, 4, 5, 7, 8, 16};

struct combo {
    op_kind op;
    algo_kind algo;
};

const std::vector<combo> COMBOS = {
    {op_kind::allreduce, algo_kind::ring},     {op_kind::allreduce, algo_kind::tree},
    {op_kind::allreduce, algo_kind::rhd},      {op_kind::reduce_scatter, algo_kind::ring},
    {op_kind::reduce_scatter, algo_kind::rhd}, {op_kind::allgather, algo_kind::ring},
    {op_kind::allgather, algo_kind::rhd},      {op_kind::alltoall, algo_kind::pairwise},
    {op_kind::broadcast, algo_kind::ring},     {op_kind::broadcast, algo_kind::tree},
    {op_kind::reduce, algo_kind::ring},        {op_kind::reduce, algo_kind::tree},
    {op_kind::allreduce, algo_kind::rd},       {op_kind::allgather, algo_kind::pat},
    {op_kind::reduce_scatter, algo_kind::pat},
};

/// Longest chain of deps (in transfers): the number of sequential steps.
uint32_t depth(const c::schedule& s) {
    return ndr::coll::test::dep_depth(s);
}

std::vector<uint64_t> sent_per_rank(const c::schedule& s) {
    std::vector<uint64_t> b(s.params.nranks, 0);
    for (const auto& x : s.xfers) b[x.src] += x.bytes;
    return b;
}

/// Builds, validates, race-checks and executes p in listed, latest-first and 3 random orders.
void run_and_check(const c::coll_params& p) {
    INFO("op " << c::name(p.op) << " algo " << c::name(p.algo) << " n " << p.nranks << " bytes "
               << p.bytes << " elem " << p.dtype_bytes << " chunk " << p.chunk_bytes << " root "
               << p.root);
    const c::schedule s = c::build_schedule(p);
    REQUIRE_NOTHROW(c::validate_schedule(s));
    const auto races = c::find_races(s, 4);
    INFO((races.empty() ? std::string("no races") : races.front()));
    REQUIRE(races.empty());
    const t::buffers in = t::random_inputs(p.nranks, s.buffer_bytes, p.bytes * 131 + p.nranks);
    std::vector<c::exec_options> orders = {{c::exec_order::listed, 0},
                                           {c::exec_order::latest_first, 0}};
    for (uint64_t seed = 1; seed <= 3; ++seed) orders.push_back({c::exec_order::random, seed});
    for (const auto& o : orders) {
        const auto out = c::execute(s, in, c::wrapping_sum(p.dtype_bytes), o);
        const std::string err = t::check_result(s, in, out);
        INFO("order " << static_cast<int>(o.order) << " seed " << o.seed << ": " << err);
        REQUIRE(err.empty());
    }
}

}  // namespace

TEST_CASE("collective schedules compute the collective for every algorithm, n, size, chunk",
          "[collective]") {
    for (const combo& cb : COMBOS) {
        for (uint32_t n : RANKS) {
            const uint32_t e = 8;  // int64, wrapping sum
            std::vector<uint64_t> elems = {1, n, 2 * n + 1, 37, 100};
            if (n > 1) elems.push_back(n - 1);
            if (cb.op == op_kind::alltoall) elems = {n, 3 * n, 5 * n};
            std::set<uint32_t> roots = {0, n - 1, n / 2};
            if (cb.op != op_kind::broadcast && cb.op != op_kind::reduce) roots = {0};
            for (uint64_t el : elems) {
                // chunk 0 = none; 1 element; 3 elements (divides few steps); 16 elements.
                for (uint64_t chunk :
                     {uint64_t{0}, uint64_t{e}, uint64_t{3 * e}, uint64_t{16 * e + 5}}) {
                    for (uint32_t root : roots) {
                        c::coll_params p;
                        p.op = cb.op;
                        p.algo = cb.algo;
                        p.nranks = n;
                        p.bytes = el * e;
                        p.dtype_bytes = e;
                        p.chunk_bytes = chunk;
                        p.root = root;
                        run_and_check(p);
                    }
                }
            }
        }
    }
}

TEST_CASE("collective schedules split on element boundaries for 1-, 2- and 4-byte types",
          "[collective]") {
    for (const combo& cb : COMBOS) {
        for (uint32_t e : {1U, 2U, 4U}) {
            for (uint32_t n : {3U, 5U, 8U}) {
                c::coll_params p;
                p.op = cb.op;
                p.algo = cb.algo;
                p.nranks = n;
                p.dtype_bytes = e;
                p.bytes = cb.op == op_kind::alltoall ? uint64_t{4} * n * e : uint64_t{29} * e;
                p.chunk_bytes = 3 * e + e / 2;  // rounded down to 3 elements
                p.root = n - 1;
                run_and_check(p);
                const auto s = c::build_schedule(p);
                for (const auto& x : s.xfers) {
                    CHECK(x.bytes % e == 0);
                    CHECK(x.src_offset % e == 0);
                    CHECK(x.dst_offset % e == 0);
                    CHECK(x.bytes <= 3 * e);
                }
            }
        }
    }
}

TEST_CASE("collective point-to-point schedules", "[collective]") {
    for (op_kind op : {op_kind::send, op_kind::recv, op_kind::rdma_write, op_kind::rdma_read}) {
        c::coll_params p;
        p.op = op;
        p.nranks = 2;
        p.bytes = 1000;
        p.dtype_bytes = 1;
        const auto s = c::build_schedule(p);
        CHECK(s.algo == algo_kind::direct);
        REQUIRE(s.xfers.size() == 1);
        const bool inbound = op == op_kind::recv || op == op_kind::rdma_read;
        CHECK(s.xfers[0].src == (inbound ? 1U : 0U));
        CHECK(s.xfers[0].dst == (inbound ? 0U : 1U));
        CHECK(s.xfers[0].bytes == 1000);
        CHECK_FALSE(s.xfers[0].reduce);
        run_and_check(p);
        p.root = 5;  // the peer's rank in a wider communicator: ignored
        CHECK(c::build_schedule(p).xfers.size() == 1);
        p.nranks = 3;
        CHECK_THROWS_AS(c::build_schedule(p), std::invalid_argument);
    }
}

TEST_CASE("collective dissemination barrier: every rank hears from every other", "[collective]") {
    for (uint32_t n : {1U, 2U, 3U, 4U, 5U, 7U, 8U, 16U, 33U}) {
        c::coll_params p;
        p.op = op_kind::barrier;
        p.nranks = n;
        const auto s = c::build_schedule(p);
        CHECK(s.algo == algo_kind::rhd);
        CHECK(s.buffer_bytes == 0);
        uint32_t rounds = 0;
        while ((1U << rounds) < n) ++rounds;
        CHECK(s.xfers.size() == size_t{n} * rounds);
        CHECK(depth(s) == rounds);
        REQUIRE_NOTHROW(c::validate_schedule(s));
        // First token of each rank: its round-0 transfer.
        std::map<uint32_t, uint32_t> first_token;
        for (size_t i = 0; i < s.xfers.size(); ++i) {
            CHECK(s.xfers[i].bytes == 0);
            first_token.emplace(s.xfers[i].src, static_cast<uint32_t>(i));
        }
        for (uint32_t r = 0; r < n; ++r) {
            // Rank r finishes when every token sent to it has arrived: close over their deps.
            std::vector<bool> seen(s.xfers.size(), false);
            std::vector<uint32_t> stack;
            for (size_t i = 0; i < s.xfers.size(); ++i) {
                if (s.xfers[i].dst == r) stack.push_back(static_cast<uint32_t>(i));
            }
            while (!stack.empty()) {
                const uint32_t i = stack.back();
                stack.pop_back();
                if (seen[i]) continue;
                seen[i] = true;
                for (uint32_t d : s.xfers[i].deps) stack.push_back(d);
            }
            for (uint32_t j = 0; j < n; ++j) {
                if (j == r) continue;
                INFO("n " << n << " rank " << r << " other " << j);
                CHECK(seen[first_token.at(j)]);
            }
        }
    }
}

TEST_CASE("collective ring and rhd allreduce send 2(n-1)/n * S per rank", "[collective]") {
    for (uint32_t n : {2U, 3U, 4U, 5U, 8U, 16U}) {
        c::coll_params p;
        p.op = op_kind::allreduce;
        p.nranks = n;
        p.dtype_bytes = 4;
        p.bytes = uint64_t{4} * n * 1000;
        p.chunk_bytes = 4096;
        const uint64_t want = 2 * (n - 1) * p.bytes / n;
        p.algo = algo_kind::ring;
        for (uint64_t b : sent_per_rank(c::build_schedule(p))) CHECK(b == want);
        if ((n & (n - 1)) == 0) {
            p.algo = algo_kind::rhd;
            for (uint64_t b : sent_per_rank(c::build_schedule(p))) CHECK(b == want);
        }
        // reduce_scatter and allgather: (n-1)/n * S per rank (ring and rhd for powers of two).
        for (op_kind op : {op_kind::reduce_scatter, op_kind::allgather}) {
            p.op = op;
            for (algo_kind a : {algo_kind::ring, algo_kind::rhd}) {
                if (a == algo_kind::rhd && (n & (n - 1)) != 0) continue;
                p.algo = a;
                for (uint64_t b : sent_per_rank(c::build_schedule(p))) CHECK(b == want / 2);
            }
        }
        p.op = op_kind::allreduce;
    }
}

TEST_CASE("collective step counts: ring 2(n-1), rhd 2 log2 n, trees log-depth", "[collective]") {
    for (uint32_t n : {2U, 3U, 4U, 5U, 7U, 8U, 16U, 32U}) {
        c::coll_params p;
        p.op = op_kind::allreduce;
        p.nranks = n;
        p.dtype_bytes = 8;
        p.bytes = uint64_t{8} * n * 4;
        p.chunk_bytes = 0;
        uint32_t lg = 0;
        while ((1U << lg) < n) ++lg;
        p.algo = algo_kind::ring;
        auto s = c::build_schedule(p);
        CHECK(s.xfers.size() == size_t{2} * (n - 1) * n);
        CHECK(depth(s) == 2 * (n - 1));
        for (const auto& x : s.xfers) CHECK(x.deps.size() <= 1);
        p.algo = algo_kind::rhd;
        s = c::build_schedule(p);
        if ((n & (n - 1)) == 0) {
            CHECK(s.xfers.size() == size_t{2} * lg * n);
            CHECK(depth(s) == 2 * lg);
        } else {
            CHECK(depth(s) == 2 * (lg - 1) + 2);  // + fold and unfold
        }
        p.algo = algo_kind::tree;
        s = c::build_schedule(p);
        // 2 trees x (n-1) edges x (up + down), one chunk per half.
        CHECK(s.xfers.size() == size_t{4} * (n - 1));
        CHECK(depth(s) <= 2 * (lg + 1));
        p.op = op_kind::broadcast;
        s = c::build_schedule(p);
        // Binomial tree: the root sends ceil(log2 n) times, chains are floor(log2 n) long.
        CHECK(s.xfers.size() == n - 1);
        uint32_t flg = 0;
        while ((2U << flg) <= n) ++flg;
        CHECK(depth(s) == flg);
        size_t root_sends = 0;
        for (const auto& x : s.xfers) root_sends += x.src == 0 ? 1 : 0;
        CHECK(root_sends == lg);
        p.op = op_kind::reduce;
        CHECK(depth(c::build_schedule(p)) == flg);
        p.algo = algo_kind::ring;
        CHECK(depth(c::build_schedule(p)) == n - 1);
    }
}

TEST_CASE("collective ring pipelines chunks: per-chunk chains, not per-step barriers",
          "[collective]") {
    c::coll_params p;
    p.op = op_kind::allreduce;
    p.algo = algo_kind::ring;
    p.nranks = 4;
    p.dtype_bytes = 4;
    p.bytes = 4 * 4 * 1024;  // 4 KiB blocks
    p.chunk_bytes = 1024;    // 4 chunks per block
    const auto s = c::build_schedule(p);
    CHECK(s.xfers.size() == size_t{2} * 3 * 4 * 4);
    CHECK(depth(s) == 6);  // chunks overlap: depth stays 2(n-1)
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        const auto& x = s.xfers[i];
        if (x.deps.empty()) continue;
        const auto& d = s.xfers[x.deps[0]];
        CHECK(d.dst == x.src);                // arrival at this rank
        CHECK(d.dst_offset == x.src_offset);  // the same chunk
        CHECK(d.bytes == x.bytes);
    }
}

TEST_CASE("collective double binary tree: NCCL shapes and per-link volume", "[collective]") {
    // NCCL's 14-rank picture (trees.cc): 0 -> 8; 8 -> 4, 12; 4 -> 2, 6; 12 -> 10, 13; ...
    CHECK(c::btree_node(14, 0).child0 == 8);
    CHECK(c::btree_node(14, 8).child0 == 4);
    CHECK(c::btree_node(14, 8).child1 == 12);
    CHECK(c::btree_node(14, 12).child0 == 10);
    CHECK(c::btree_node(14, 12).child1 == 13);
    CHECK(c::btree_node(14, 13).parent == 12);
    CHECK(c::btree_node(14, 1).parent == 2);
    // Mirror for even n: 12 ranks, tree 1 root 11 with child 3.
    CHECK(c::dtree_node(12, 11, 1).parent == -1);
    CHECK(c::dtree_node(12, 11, 1).child0 == 3);
    // Shift for odd n: 13 ranks, tree 1 root 1 with child 9.
    CHECK(c::dtree_node(13, 1, 1).parent == -1);
    CHECK(c::dtree_node(13, 1, 1).child0 == 9);

    for (uint32_t n = 1; n <= 70; ++n) {
        for (int tr = 0; tr < 2; ++tr) {
            uint32_t roots = 0;
            for (uint32_t r = 0; r < n; ++r) {
                const auto nd = c::dtree_node(n, r, tr);
                if (nd.parent < 0) {
                    ++roots;
                } else {
                    const auto pn = c::dtree_node(n, static_cast<uint32_t>(nd.parent), tr);
                    INFO("n " << n << " tree " << tr << " rank " << r);
                    CHECK((pn.child0 == static_cast<int32_t>(r) ||
                           pn.child1 == static_cast<int32_t>(r)));
                }
                for (int32_t ch : {nd.child0, nd.child1}) {
                    if (ch >= 0) {
                        CHECK(c::dtree_node(n, static_cast<uint32_t>(ch), tr).parent ==
                              static_cast<int32_t>(r));
                    }
                }
            }
            CHECK(roots == 1);
        }
        if (n % 2 == 0) {
            for (uint32_t r = 0; r < n; ++r) {  // complementary: interior in one tree at most
                const bool in0 = c::dtree_node(n, r, 0).child0 >= 0;
                const bool in1 = c::dtree_node(n, r, 1).child0 >= 0;
                INFO("n " << n << " rank " << r);
                CHECK_FALSE((in0 && in1));
            }
        }
    }

    for (uint32_t n : {2U, 3U, 5U, 8U, 13U, 16U}) {
        c::coll_params p;
        p.op = op_kind::allreduce;
        p.algo = algo_kind::tree;
        p.nranks = n;
        p.dtype_bytes = 4;
        p.bytes = 4 * 1001;  // halves of 501 and 500 elements
        p.chunk_bytes = 4 * 64;
        const auto s = c::build_schedule(p);
        const uint64_t half0 = 4 * 501;
        // Per tree, every edge carries its half exactly once each way and nothing else does.
        for (int tr = 0; tr < 2; ++tr) {
            std::map<std::pair<uint32_t, uint32_t>, uint64_t> up, down;
            for (const auto& x : s.xfers) {
                if ((x.src_offset < half0) != (tr == 0)) continue;
                (x.reduce ? up : down)[{x.src, x.dst}] += x.bytes;
            }
            const uint64_t h = tr == 0 ? half0 : p.bytes - half0;
            size_t edges = 0;
            for (uint32_t r = 0; r < n; ++r) {
                const auto nd = c::dtree_node(n, r, tr);
                if (nd.parent < 0) continue;
                ++edges;
                const auto par = static_cast<uint32_t>(nd.parent);
                CHECK(up[{r, par}] == h);
                CHECK(down[{par, r}] == h);
            }
            CHECK(up.size() == edges);
            CHECK(down.size() == edges);
        }
        // Even n: a rank sends at most S/2 up per tree + 2 * S/2 down in its one interior tree.
        if (n % 2 == 0) {
            for (uint64_t b : sent_per_rank(s)) CHECK(b <= 4 * half0);
        }
    }
}

TEST_CASE("collective choose_algo and validation", "[collective]") {
    CHECK(c::choose_algo(op_kind::allreduce, 1 << 20, 128) == algo_kind::ring);
    CHECK(c::choose_algo(op_kind::allreduce, (1 << 20) - 4, 128) == algo_kind::tree);
    CHECK(c::choose_algo(op_kind::allreduce, 8, 4) == algo_kind::ring);
    CHECK(c::choose_algo(op_kind::allreduce, 8, 5) == algo_kind::tree);
    CHECK(c::choose_algo(op_kind::reduce_scatter, 8, 64) == algo_kind::ring);
    CHECK(c::choose_algo(op_kind::allgather, 8, 64) == algo_kind::ring);
    CHECK(c::choose_algo(op_kind::alltoall, 8, 64) == algo_kind::pairwise);
    // host.stack nccl: NCCL's alltoall is grouped send/recv (p2p); MPI keeps pairwise.
    CHECK(c::choose_algo(op_kind::alltoall, 8, 64, c::auto_rule::nccl) == algo_kind::p2p);
    CHECK(c::choose_algo(op_kind::alltoall, 8, 64, c::auto_rule::mpich) == algo_kind::pairwise);
    CHECK(c::choose_algo(op_kind::allgather, 8, 64, c::auto_rule::nccl) == algo_kind::ring);
    CHECK(c::choose_algo(op_kind::broadcast, 8, 64) == algo_kind::ring);
    CHECK(c::choose_algo(op_kind::reduce, 8, 64) == algo_kind::ring);
    CHECK(c::choose_algo(op_kind::barrier, 0, 64) == algo_kind::rhd);
    for (op_kind op : {op_kind::send, op_kind::recv, op_kind::rdma_write, op_kind::rdma_read}) {
        CHECK(c::choose_algo(op, 8, 2) == algo_kind::direct);
    }

    c::coll_params p;
    p.nranks = 8;
    p.bytes = 64;
    p.dtype_bytes = 4;
    auto s = c::build_schedule(p);  // auto: 64 B at 8 ranks -> tree
    CHECK(s.algo == algo_kind::tree);
    CHECK(s.params.algo == algo_kind::auto_);

    auto throws_with = [](const c::coll_params& q, const std::string& what) {
        try {
            c::build_schedule(q);
            FAIL("no exception for: " << what);
        } catch (const std::invalid_argument& ex) {
            INFO(ex.what());
            CHECK(std::string(ex.what()).find(what) != std::string::npos);
        }
    };
    c::coll_params q = p;
    q.algo = algo_kind::pairwise;
    throws_with(q, "algo pairwise does not fit");
    q.algo = algo_kind::sharp;
    throws_with(q, "not a host schedule");
    q = p;
    q.op = op_kind::alltoall;
    q.algo = algo_kind::ring;
    throws_with(q, "alltoall: algo ring does not fit");
    q = p;
    q.nranks = 0;
    throws_with(q, "nranks must be >= 1");
    q = p;
    q.op = op_kind::broadcast;
    q.root = 8;
    throws_with(q, "root 8 out of range");
    q = p;
    q.bytes = 66;
    throws_with(q, "not a multiple of dtype_bytes");
    q = p;
    q.op = op_kind::alltoall;
    q.bytes = 4 * 12;  // 12 elements over 8 ranks
    throws_with(q, "multiple of nranks");
    q = p;
    q.dtype_bytes = 0;
    throws_with(q, "dtype_bytes");

    // n = 1: valid, nothing to send.
    for (const combo& cb : COMBOS) {
        c::coll_params one;
        one.op = cb.op;
        one.algo = cb.algo;
        one.nranks = 1;
        one.bytes = 64;
        const auto s1 = c::build_schedule(one);
        CHECK(s1.xfers.empty());
    }
}

// Size and dependency fan-in of large schedules; their build speed is a benchmark
// (docs/performance.md), not a timed unit test: wall-clock limits fail on a loaded machine.
TEST_CASE("collective 128 ranks x 1 GiB schedules have small deps", "[collective]") {
    c::coll_params p;
    p.op = op_kind::allreduce;
    p.algo = algo_kind::ring;
    p.nranks = 128;
    p.bytes = uint64_t{1} << 30;
    p.dtype_bytes = 4;
    p.chunk_bytes = 1 << 20;
    const auto s = c::build_schedule(p);
    CHECK(s.xfers.size() == size_t{128} * 254 * 8);  // 8 MiB blocks, 1 MiB chunks
    size_t max_deps = 0;
    for (const auto& x : s.xfers) max_deps = std::max(max_deps, x.deps.size());
    CHECK(max_deps == 1);
    CHECK_NOTHROW(c::validate_schedule(s));
    for (uint64_t b : sent_per_rank(s)) CHECK(b == 2 * 127 * (p.bytes / 128));

    for (algo_kind a : {algo_kind::tree, algo_kind::rhd}) {
        p.algo = a;
        const auto sa = c::build_schedule(p);
        INFO(c::name(a) << ": " << sa.xfers.size() << " transfers");
        max_deps = 0;
        for (const auto& x : sa.xfers) max_deps = std::max(max_deps, x.deps.size());
        CHECK(max_deps <= 16);
    }
}
