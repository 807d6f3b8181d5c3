// NCCL's p2p alltoall (models/collective/p2p.cpp) against hand-derived schedules from NCCL's
// ncclP2pSchedule (src/init.cc): the peer order of a rank on two 8-GPU nodes and on 16
// single-GPU hosts (NCCL's own example of the quadratic group deltas for 16: 0, 1, 3, 6, 10,
// 15, 5, 12, 4, 13, 7, 2, 14, 11, 9, 8), the channel waits (batch b after batch b - P), every
// byte delivered once and the reference executor's result.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "coll_test_util.h"
#include "collective/schedule.h"
#include "collective/schedule_exec.h"

namespace c = ndr::coll;
namespace t = ndr::coll::test;

namespace {

c::coll_params p2p(uint32_t n, uint64_t bytes, uint32_t slots,
                   std::vector<std::vector<uint32_t>> nodes = {}) {
    c::coll_params p;
    p.op = c::op_kind::alltoall;
    p.algo = c::algo_kind::p2p;
    p.nranks = n;
    p.bytes = bytes;
    p.dtype_bytes = 4;
    p.chunk_bytes = 0;
    p.p2p_channels = slots;
    p.node_groups = std::move(nodes);
    return p;
}

/// Rank r's destinations in schedule order (the builder appends rank by rank, peer by peer).
std::vector<uint32_t> peers_of(const c::schedule& s, uint32_t r) {
    std::vector<uint32_t> d;
    for (const c::xfer& x : s.xfers) {
        if (x.src == r) d.push_back(x.dst);
    }
    return d;
}

}  // namespace

TEST_CASE("p2p alltoall: two 8-GPU nodes, own node first, every peer in flight", "[collective]") {
    std::vector<std::vector<uint32_t>> nodes{{0, 1, 2, 3, 4, 5, 6, 7},
                                             {8, 9, 10, 11, 12, 13, 14, 15}};
    const c::schedule s = c::build_schedule(p2p(16, 16 * 16 * 64, 32, nodes));
    REQUIRE(s.xfers.size() == 16 * 15);
    // Group delta 0 (own node, local deltas 1..7 from the rank's offset), then group delta 1.
    CHECK(peers_of(s, 0) ==
          std::vector<uint32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
    CHECK(peers_of(s, 3) ==
          std::vector<uint32_t>{4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10});
    CHECK(peers_of(s, 9) ==
          std::vector<uint32_t>{10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0});
    for (const c::xfer& x : s.xfers) CHECK(x.deps.empty());  // 2 batches <= 32 channels
    CHECK(c::find_races(s).empty());
    const t::buffers in = t::random_inputs(16, s.buffer_bytes, 16);
    CHECK(t::check_result(s, in, c::execute(s, in, c::wrapping_sum(4))).empty());
}

TEST_CASE(
    "p2p alltoall: 16 single-GPU hosts follow NCCL's quadratic deltas; batches wait on "
    "their channel",
    "[collective]") {
    const std::vector<uint32_t> deltas{1, 3, 6, 10, 15, 5, 12, 4, 13, 7, 2, 14, 11, 9, 8};
    const c::schedule s = c::build_schedule(p2p(16, 16 * 16 * 64, 4));
    for (uint32_t r = 0; r < 16; ++r) {
        std::vector<uint32_t> want;
        for (const uint32_t d : deltas) want.push_back((r + d) % 16);
        CHECK(peers_of(s, r) == want);
    }
    // One peer per batch (groups of one rank); batch b (b = 1.. in `deltas`, batch 0 is the own
    // block) waits for batch b - 4 on its channel: rank r's transfer k (batch k + 1) waits for
    // its transfer k - 4; batches 1..4 wait for nothing (batch 0 sends nothing).
    for (uint32_t r = 0; r < 16; ++r) {
        std::vector<uint32_t> mine;
        for (uint32_t i = 0; i < s.xfers.size(); ++i) {
            if (s.xfers[i].src == r) mine.push_back(i);
        }
        REQUIRE(mine.size() == 15);
        for (size_t k = 0; k < mine.size(); ++k) {
            CAPTURE(r, k);
            const std::vector<uint32_t>& d = s.xfers[mine[k]].deps;
            if (k <= 3) {  // batches 1..4: batch 4 waits for batch 0, the own block only
                CHECK(d.empty());
            } else {
                CHECK(d == std::vector<uint32_t>{mine[k - 4]});
            }
        }
    }
    CHECK(c::find_races(s).empty());
    const t::buffers in = t::random_inputs(16, s.buffer_bytes, 16);
    CHECK(t::check_result(s, in, c::execute(s, in, c::wrapping_sum(4))).empty());
}

TEST_CASE("p2p alltoall: chunks of one peer are all in flight, the channel waits for the last",
          "[collective]") {
    c::coll_params p = p2p(4, 4 * 4 * 1024, 1);  // 4 KiB per peer, 1 KiB chunks, one channel
    p.chunk_bytes = 1024;
    const c::schedule s = c::build_schedule(p);
    REQUIRE(s.xfers.size() == 4 * 3 * 4);
    // Rank 0: deltas for 4 groups 0, 1, 3, 2 -> peers 1, 3, 2; four chunks each.
    CHECK(peers_of(s, 0) == std::vector<uint32_t>{1, 1, 1, 1, 3, 3, 3, 3, 2, 2, 2, 2});
    // Transfers 0..3 (peer 1) wait for nothing; 4..7 (peer 3) for chunk 3; 8..11 for chunk 7.
    for (uint32_t i = 0; i < 4; ++i) CHECK(s.xfers[i].deps.empty());
    for (uint32_t i = 4; i < 8; ++i) CHECK(s.xfers[i].deps == std::vector<uint32_t>{3});
    for (uint32_t i = 8; i < 12; ++i) CHECK(s.xfers[i].deps == std::vector<uint32_t>{7});
    CHECK(c::transfer_count(p) == s.xfers.size());
    CHECK(c::find_races(s).empty());
    const t::buffers in = t::random_inputs(4, s.buffer_bytes, 4);
    CHECK(t::check_result(s, in, c::execute(s, in, c::wrapping_sum(4))).empty());
}
