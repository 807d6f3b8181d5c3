// transfer_count (models/collective/schedule.h): the up-front count of a collective's
// transfers equals what build_schedule builds for every op x host algorithm x rank count, size,
// element size and chunk; matches hand-computed counts; and a collective too large to replay
// is refused by build_schedule at once, before anything is allocated (issue 16: a 2^40-element
// allreduce grew to ~3 GB in ~5 s before hitting MAX_XFERS).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "coll_test_util.h"
#include "collective/schedule.h"

namespace c = ndr::coll;
using c::algo_kind;
using c::op_kind;
using ndr::coll::test::params;

namespace {

bool is_p2p(op_kind op) {
    return op == op_kind::send || op == op_kind::recv || op == op_kind::rdma_write ||
           op == op_kind::rdma_read;
}

}  // namespace

TEST_CASE("transfer_count equals the size of the built schedule", "[collective]") {
    const op_kind ops[] = {op_kind::allreduce,  op_kind::reduce_scatter, op_kind::allgather,
                           op_kind::alltoall,   op_kind::broadcast,      op_kind::reduce,
                           op_kind::barrier,    op_kind::send,           op_kind::recv,
                           op_kind::rdma_write, op_kind::rdma_read};
    const algo_kind algos[] = {algo_kind::auto_, algo_kind::ring,     algo_kind::tree,
                               algo_kind::rhd,   algo_kind::pairwise, algo_kind::direct,
                               algo_kind::pat};
    int cases = 0;
    for (op_kind op : ops) {
        for (algo_kind algo : algos) {
            if (!c::algo_supported(op, algo)) continue;
            for (uint32_t n : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 12u, 13u, 16u}) {
                if (is_p2p(op) && n != 2) continue;
                for (uint32_t e : {1u, 2u, 8u}) {
                    for (uint64_t bytes : {0ull, 8ull, 24ull, 96ull, 1000ull, 4104ull}) {
                        if (bytes % e != 0) continue;
                        if (op == op_kind::alltoall && bytes % (uint64_t{n} * e) != 0) continue;
                        for (uint64_t chunk : {0ull, 1ull, 8ull, 24ull, 1000ull}) {
                            const c::coll_params p = params(op, algo, n, bytes, e, chunk);
                            INFO(c::name(op) << " " << c::name(algo) << " n " << n << " e " << e
                                             << " bytes " << bytes << " chunk " << chunk);
                            CHECK(c::transfer_count(p) == c::build_schedule(p).xfers.size());
                            ++cases;
                        }
                    }
                }
            }
        }
    }
    CHECK(cases > 3000);
}

TEST_CASE("transfer_count matches hand-computed counts", "[collective]") {
    constexpr uint64_t MiB = uint64_t{1} << 20;
    // Ring allreduce, 4 ranks, 4 MiB of fp32, 1 MiB chunks: 2(n-1) = 6 steps of n = 4 one-chunk
    // blocks.
    CHECK(c::transfer_count(params(op_kind::allreduce, algo_kind::ring, 4, 4 * MiB, 4, MiB)) == 24);
    // Tree allreduce, 8 ranks, 2 MiB, 256 KiB chunks: two 1 MiB halves of 4 chunks; each chunk
    // goes up and down the 7 edges of its tree: 2 * 7 * 8.
    CHECK(c::transfer_count(
              params(op_kind::allreduce, algo_kind::tree, 8, 2 * MiB, 4, 256 * 1024)) == 112);
    // Pairwise alltoall, 4 ranks, 4 MiB (1 MiB blocks), 512 KiB chunks: 4 x 3 peers x 2.
    CHECK(c::transfer_count(
              params(op_kind::alltoall, algo_kind::pairwise, 4, 4 * MiB, 4, 512 * 1024)) == 24);
    // Dissemination barrier, 5 ranks: ceil(log2 5) = 3 rounds of 5 tokens.
    CHECK(c::transfer_count(params(op_kind::barrier, algo_kind::rhd, 5, 0, 4, MiB)) == 15);
    // Recursive halving/doubling allreduce, 8 ranks, 8 MiB, no chunking: 3 halving + 3
    // doubling steps of 8 sends.
    CHECK(c::transfer_count(params(op_kind::allreduce, algo_kind::rhd, 8, 8 * MiB, 4, 0)) == 48);
    // The case: 2^40 fp64 on 4 ranks, 1 MiB chunks: blocks of 2^41 bytes = 2^21
    // chunks, 6 steps x 4 blocks.
    CHECK(c::transfer_count(params(op_kind::allreduce, algo_kind::ring, 4, uint64_t{1} << 43, 8,
                                   MiB)) == 48 * (uint64_t{1} << 20));
    // Counts beyond 2^64 saturate: 65,536 ranks, 2^62 one-byte elements, 1-byte chunks.
    CHECK(c::transfer_count(params(op_kind::allreduce, algo_kind::ring, 65536, uint64_t{1} << 62, 1,
                                   1)) == UINT64_MAX);
}

TEST_CASE("a collective beyond MAX_XFERS is refused before it is built", "[collective]") {
    for (int log2_elems : {40, 48}) {
        const c::coll_params p = params(op_kind::allreduce, algo_kind::ring, 4,
                                        uint64_t{8} << log2_elems, 8, uint64_t{1} << 20);
        INFO("2^" << log2_elems << " fp64");
        std::string what;
        try {
            c::build_schedule(p);
        } catch (const c::schedule_too_large& e) {
            what = e.what();
        }
        const uint64_t expect = 48 * (uint64_t{1} << (log2_elems - 20));  // as above
        CHECK(what == "decomposes into " + std::to_string(expect) +
                          " transfers, more than the 33554432 a replay holds in memory (about "
                          "300 B each): use a larger collective.chunk or a smaller count");
    }
    // Saturated counts name no number.
    CHECK_THROWS_WITH(c::build_schedule(params(op_kind::allreduce, algo_kind::ring, 65536,
                                               uint64_t{1} << 62, 1, 1)),
                      Catch::StartsWith("decomposes into over 2^64 transfers"));
    // Every op's auto choice is counted too (a tree allreduce of 16 ranks, 16 KiB chunks).
    const c::coll_params tree =
        params(op_kind::allreduce, algo_kind::auto_, 16, uint64_t{1} << 19, 4, 16);
    CHECK(c::transfer_count(tree) == 2 * 15 * (uint64_t{1} << 15));  // 2^15 chunks of 16 B
    CHECK(c::transfer_count(tree) <= c::MAX_XFERS);
}
