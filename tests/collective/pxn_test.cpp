// PXN (models/collective/pxn.cpp): after the rewrite every transfer that crosses nodes leaves
// from a rank on the destination's rail, the relay got the data over an intra-node (NVLink)
// hop it waits for, the number of relayed transfers is the hand count of cross-node, cross-rail
// pairs, and the collective still computes its result (reference executor, race check).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "coll_test_util.h"
#include "collective/pxn.h"
#include "collective/schedule.h"
#include "collective/schedule_exec.h"

namespace c = ndr::coll;
namespace t = ndr::coll::test;
using c::algo_kind;
using c::op_kind;

namespace {

/// Ranks r -> node r / g, GPU r % g, each GPU on its own rail (one HCA per GPU).
std::vector<c::pxn_rank> nodes_of(uint32_t nodes, uint32_t g) {
    std::vector<c::pxn_rank> w;
    for (uint32_t r = 0; r < nodes * g; ++r) w.push_back(c::pxn_rank{r / g, r % g});
    return w;
}

/// A send of `bytes` from comm rank 0 to 1 (one transfer; `chunk` only matters to PXN's pieces).
c::schedule send(uint64_t bytes, uint64_t chunk = 1 << 20) {
    c::coll_params p;
    p.op = op_kind::send;
    p.algo = algo_kind::direct;
    p.nranks = 2;
    p.bytes = bytes;
    p.chunk_bytes = chunk;
    return c::build_schedule(p);
}

c::schedule alltoall(uint32_t n, uint64_t bytes, uint64_t chunk) {
    c::coll_params p;
    p.op = op_kind::alltoall;
    p.algo = algo_kind::pairwise;
    p.nranks = n;
    p.bytes = bytes;
    p.dtype_bytes = 4;
    p.chunk_bytes = chunk;
    return c::build_schedule(p);
}

/// Every inter-node transfer stays on one rail; every transfer from a relay follows an
/// intra-node hop into the range it sends, from a rank of the same node.
void check_rails(const c::schedule& s, const std::vector<c::pxn_rank>& w) {
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        const c::xfer& x = s.xfers[i];
        CAPTURE(i, x.src, x.dst);
        if (w[x.src].node == w[x.dst].node) continue;
        CHECK(w[x.src].rail == w[x.dst].rail);
        if (x.src_offset < s.params.bytes) continue;  // a rank's own data: not relayed
        REQUIRE(x.deps.size() == 1);
        const c::xfer& hop = s.xfers[x.deps[0]];
        CHECK(hop.dst == x.src);
        CHECK(w[hop.src].node == w[x.src].node);
        CHECK(hop.dst_offset == x.src_offset);
        CHECK(hop.bytes == x.bytes);
    }
}

}  // namespace

TEST_CASE("PXN alltoall on 2 nodes x 8 GPUs: inter-node traffic stays on the rail",
          "[collective][pxn]") {
    const std::vector<c::pxn_rank> w = nodes_of(2, 8);
    c::schedule s = alltoall(16, 16 * 64, 0);
    const size_t before = s.xfers.size();
    // Each rank sends to 8 ranks of the other node, 7 of them on another rail: 16 x 7 relayed.
    CHECK(c::apply_pxn(s, w) == 16 * 7);
    CHECK(s.xfers.size() == before + 16 * 7);
    CHECK(s.relay_ranks == 0);
    check_rails(s, w);
    // Staging: a relay forwards one 64 B block from each of its node's 7 other GPUs to the
    // remote GPU on its rail: 7 blocks after the 2S buffer.
    CHECK(s.buffer_bytes == 2 * 16 * 64 + 7 * 64);
    const t::buffers in = t::random_inputs(16, 2 * 16 * 64, 5);
    CHECK(t::check_result(s, in, c::execute(s, in, c::wrapping_sum(4))).empty());
}

TEST_CASE("PXN keeps alltoall correct and race-free, chunked, 2 nodes x 4 GPUs",
          "[collective][pxn]") {
    const std::vector<c::pxn_rank> w = nodes_of(2, 4);
    c::schedule s = alltoall(8, 8 * 40, 16);  // 40 B blocks in chunks of 16, 16, 8
    CHECK(c::apply_pxn(s, w) == 8 * 3 * 3);   // 3 cross-rail remote peers x 3 chunks
    check_rails(s, w);
    CHECK(c::find_races(s).empty());
    const t::buffers in = t::random_inputs(8, 2 * 8 * 40, 9);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
        const auto out = c::execute(s, in, c::wrapping_sum(4), {c::exec_order::random, seed});
        CHECK(t::check_result(s, in, out).empty());
    }
}

TEST_CASE("PXN relays a send through a GPU outside the pair", "[collective][pxn]") {
    c::schedule s = send(256);
    // Rank 0 on node 0 rail 1, rank 1 on node 1 rail 3; candidates: node 0 rail 2, rail 3.
    const std::vector<c::pxn_rank> w = {{0, 1}, {1, 3}, {0, 2}, {0, 3}};
    CHECK(c::apply_pxn(s, w) == 1);
    REQUIRE(s.xfers.size() == 2);
    CHECK(s.xfers[0].src == 0);
    CHECK(s.xfers[0].dst == 3);  // over NVLink to the rail-3 GPU
    CHECK(s.xfers[1].src == 3);
    CHECK(s.xfers[1].dst == 1);
    CHECK(s.xfers[1].deps == std::vector<uint32_t>{0});
    CHECK(s.relay_ranks == 2);
    const t::buffers in = t::random_inputs(2, 256, 3);
    CHECK(t::check_result(s, in, c::execute(s, in, c::wrapping_sum(4))).empty());
}

TEST_CASE("PXN cuts a relayed send into chunk-sized hop + send pairs", "[collective][pxn]") {
    c::schedule s = send(40, 16);  // pieces of 16 + 16 + 8
    REQUIRE(s.xfers.size() == 1);  // send is never chunked...
    const std::vector<c::pxn_rank> w = {{0, 0}, {1, 1}, {0, 1}};
    CHECK(c::apply_pxn(s, w) == 3);  // ...but its relay pipelines the two legs by chunks
    REQUIRE(s.xfers.size() == 6);
    const uint64_t len[3] = {16, 16, 8};
    for (uint32_t k = 0; k < 3; ++k) {
        const c::xfer& hop = s.xfers[2 * k];
        const c::xfer& send = s.xfers[2 * k + 1];
        CHECK(hop.src == 0);
        CHECK(hop.dst == 2);
        CHECK(hop.src_offset == 16 * k);
        CHECK(hop.bytes == len[k]);
        CHECK(hop.deps == (k == 0 ? std::vector<uint32_t>{} : std::vector<uint32_t>{2 * k - 2}));
        CHECK(send.src == 2);
        CHECK(send.dst == 1);
        CHECK(send.dst_offset == 16 * k);
        CHECK(send.src_offset == hop.dst_offset);
        CHECK(send.deps == std::vector<uint32_t>{2 * k});
    }
    CHECK(s.buffer_bytes == 40 + 40);
    const t::buffers in = t::random_inputs(2, 40, 4);
    CHECK(t::check_result(s, in, c::execute(s, in, c::wrapping_sum(4))).empty());
    CHECK(c::find_races(s).empty());
}

TEST_CASE("PXN leaves same-rail, intra-node and relay-less transfers alone", "[collective][pxn]") {
    for (const std::vector<c::pxn_rank>& w :
         {std::vector<c::pxn_rank>{{0, 2}, {1, 2}}, std::vector<c::pxn_rank>{{0, 1}, {0, 3}},
          std::vector<c::pxn_rank>{{0, 1}, {1, 3}, {1, 3}}}) {
        c::schedule s = send(64);
        CHECK(c::apply_pxn(s, w) == 0);
        CHECK(s.xfers.size() == 1);
        CHECK(s.buffer_bytes == 64);
    }
    c::schedule s = send(64);
    CHECK_THROWS_AS(c::apply_pxn(s, {{0, 0}}), std::invalid_argument);
}
