// Recursive doubling allreduce (models/collective/rd.cpp) against its closed forms (MPICH,
// Thakur/Rabenseifner/Gropp 2005): log2(pof2) exchange steps plus fold and unfold when n is not
// a power of two, 2 rem + log2(pof2) pof2 network transfers per chunk, S sent per rank and step;
// MPICH's short-message selection; real-data results and dropped dependencies caught.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "coll_test_util.h"
#include "collective/schedule.h"
#include "collective/schedule_exec.h"

namespace c = ndr::coll;
namespace t = ndr::coll::test;
using c::algo_kind;
using c::op_kind;

namespace {

c::coll_params rd_params(uint32_t n, uint64_t bytes, uint64_t chunk) {
    c::coll_params p;
    p.op = op_kind::allreduce;
    p.algo = algo_kind::rd;
    p.nranks = n;
    p.bytes = bytes;
    p.dtype_bytes = 8;
    p.chunk_bytes = chunk;
    return p;
}

/// Longest chain of network transfers (local steps, src == dst, add no step).
uint32_t network_depth(const c::schedule& s) {
    return t::dep_depth(s, true);
}

/// Rank 1 (the first folding rank) goes through `steps` = log2 pof2 + 2 rounds: it receives the
/// fold before any of its sends, exchanges with log2 pof2 partners, and sends the unfold after
/// every receive.
void check_fold_rounds(const c::schedule& s, uint32_t lg, uint32_t steps) {
    const size_t t = s.xfers.size();
    std::vector<std::vector<bool>> before(t, std::vector<bool>(t, false));  // before[i][d]
    for (size_t i = 0; i < t; ++i) {
        for (uint32_t d : s.xfers[i].deps) {
            before[i][d] = true;
            for (size_t k = 0; k < t; ++k) before[i][k] = before[i][k] || before[d][k];
        }
    }
    std::vector<size_t> sends, recvs;
    for (size_t i = 0; i < t; ++i) {
        const auto& x = s.xfers[i];
        if (x.src == x.dst || s.params.chunk_bytes != 0) continue;
        if (x.src == 1) sends.push_back(i);
        if (x.dst == 1) recvs.push_back(i);
    }
    if (s.params.chunk_bytes != 0) return;
    REQUIRE(sends.size() == lg + 1);
    REQUIRE(recvs.size() == lg + 1);
    const size_t fold = recvs.front();
    const size_t unfold = sends.back();
    CHECK(s.xfers[fold].src == 0);
    CHECK(s.xfers[unfold].dst == 0);
    for (size_t x : sends) CHECK((x == unfold || before[x][fold]));
    for (size_t x : recvs) CHECK((x == fold || before[unfold][x]));
    CHECK(1 + lg + 1 == steps);
}

}  // namespace

TEST_CASE("rd allreduce: steps, transfers and bytes match the closed form", "[collective]") {
    // n -> (pof2, log2 pof2), by hand.
    struct row {
        uint32_t n, pof2, lg;
    };
    for (const row r : {row{2, 2, 1}, row{3, 2, 1}, row{4, 4, 2}, row{5, 4, 2}, row{7, 4, 2},
                        row{8, 8, 3}, row{12, 8, 3}, row{128, 128, 7}}) {
        CAPTURE(r.n);
        const uint32_t rem = r.n - r.pof2;
        const uint32_t steps = r.lg + (rem > 0 ? 2 : 0);
        for (uint64_t chunks : {uint64_t{1}, uint64_t{3}}) {
            const uint64_t bytes = 8 * 6;  // 6 elements: 1 chunk, or 3 of 2 elements
            const auto p = rd_params(r.n, bytes, chunks == 1 ? 0 : bytes / chunks);
            const auto s = c::build_schedule(p);
            uint64_t network = 0;
            uint64_t local = 0;
            uint64_t reduces = 0;
            std::vector<uint64_t> sent(r.n, 0);
            for (const auto& x : s.xfers) {
                if (x.src == x.dst) {
                    ++local;
                    reduces += x.reduce ? 1 : 0;
                } else {
                    ++network;
                    sent[x.src] += x.bytes;
                }
            }
            CHECK(network == chunks * (2 * rem + uint64_t{r.lg} * r.pof2));
            // Per exchange and chunk: one copy into the send buffer, one reduction (eager MPI).
            CHECK(local == 2 * chunks * uint64_t{r.lg} * r.pof2);
            CHECK(reduces == chunks * uint64_t{r.lg} * r.pof2);
            CHECK(c::transfer_count(p) == s.xfers.size());
            // Critical path: log2 pof2 hops; folding adds the fold and the unfold, but with
            // eager sends the fold may overlap a first exchange that does not involve a
            // folding rank (n = 3, 5, 12), so it is 1 or 2 hops longer. Chunks run side by side.
            if (rem == 0) {
                CHECK(network_depth(s) == r.lg);
            } else {
                CHECK(network_depth(s) >= r.lg + 1);
                CHECK(network_depth(s) <= steps);
            }
            if (rem > 0) check_fold_rounds(s, r.lg, steps);
            // A rank in the exchange sends S per step; a folded rank 2i sends S once (fold).
            for (uint32_t i = 0; i < r.n; ++i) {
                const bool folded = i < 2 * rem && i % 2 == 0;
                const bool folds_back = i < 2 * rem && i % 2 == 1;
                CHECK(sent[i] == bytes * (folded ? 1 : r.lg + (folds_back ? 1 : 0)));
            }
        }
    }
    // 128 ranks: 7 steps, where rhd (Rabenseifner) needs 2 log2 n = 14.
    const auto s = c::build_schedule(rd_params(128, 8, 0));
    CHECK(network_depth(s) == 7);
}

TEST_CASE("rd allreduce computes the sum on real data in every legal order", "[collective]") {
    for (uint32_t n : {1U, 2U, 3U, 5U, 6U, 8U, 11U, 16U}) {
        for (uint64_t elems : {uint64_t{1}, uint64_t{7}, uint64_t{40}}) {
            for (uint64_t chunk : {uint64_t{0}, uint64_t{8}, uint64_t{24}}) {
                CAPTURE(n, elems, chunk);
                const auto p = rd_params(n, elems * 8, chunk);
                const auto s = c::build_schedule(p);
                REQUIRE(c::find_races(s).empty());
                const t::buffers in = t::random_inputs(n, elems * 8, n * 1000 + elems);
                const std::vector<uint8_t> want = t::ref_sum(in, elems * 8, 8);
                for (uint64_t seed = 0; seed <= 3; ++seed) {
                    const auto out = c::execute(
                        s, in, c::wrapping_sum(8),
                        {seed == 0 ? c::exec_order::latest_first : c::exec_order::random, seed});
                    for (uint32_t r = 0; r < n; ++r) {
                        CAPTURE(r, seed);
                        CHECK(t::same(out[r], 0, want, 0, elems * 8));
                    }
                }
            }
        }
    }
}

TEST_CASE("rd allreduce: every dependency matters", "[collective]") {
    const auto good = c::build_schedule(rd_params(6, 5 * 8, 16));
    REQUIRE(c::find_races(good).empty());
    for (size_t i = 0; i < good.xfers.size(); ++i) {
        if (good.xfers[i].deps.empty()) continue;
        auto bad = good;
        bad.xfers[i].deps.clear();
        CAPTURE(i);
        CHECK_FALSE(c::find_races(bad).empty());
    }
}

TEST_CASE("auto with the MPICH rule: rd up to 2 KiB or count < pof2, else Rabenseifner",
          "[collective]") {
    const auto mpich = c::auto_rule::mpich;
    CHECK(c::choose_algo(op_kind::allreduce, 8, 128, mpich, 4) == algo_kind::rd);
    CHECK(c::choose_algo(op_kind::allreduce, 2048, 128, mpich, 4) == algo_kind::rd);
    // 2052 B = 513 fp32 elements >= pof2 128: Rabenseifner.
    CHECK(c::choose_algo(op_kind::allreduce, 2052, 128, mpich, 4) == algo_kind::rhd);
    // 4096 B of fp64 = 512 elements < pof2 1024 (1,500 ranks): rd.
    CHECK(c::choose_algo(op_kind::allreduce, 4096, 1500, mpich, 8) == algo_kind::rd);
    CHECK(c::choose_algo(op_kind::allreduce, 8192, 1024, mpich, 8) == algo_kind::rhd);
    CHECK(c::choose_algo(op_kind::allreduce, 1 << 20, 8, mpich, 4) == algo_kind::rhd);
    // Other ops and the NCCL rule are unchanged.
    CHECK(c::choose_algo(op_kind::allgather, 8, 128, mpich, 4) == algo_kind::ring);
    CHECK(c::choose_algo(op_kind::allreduce, 8, 128) == algo_kind::tree);
    c::coll_params p = rd_params(128, 8, 0);
    p.algo = algo_kind::auto_;
    p.rule = mpich;
    CHECK(c::build_schedule(p).algo == algo_kind::rd);
}
