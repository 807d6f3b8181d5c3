// random_derangement (models/common/traffic_pattern.h) and `ndrsim gen permutation`'s trace
// (models/trace/generators.h): every rank writes to exactly one other rank, none to itself,
// the same draw for the same seed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "common/traffic_pattern.h"
#include "trace/generators.h"

TEST_CASE("random_derangement: a permutation without fixed points - fixed by the seed",
          "[common][permutation]") {
    for (uint32_t n : {2U, 3U, 16U, 33U}) {
        for (uint64_t seed : {1ULL, 2ULL, 99ULL}) {
            const std::vector<uint32_t> d = ndr::tb::random_derangement(n, seed);
            REQUIRE(d.size() == n);
            std::vector<int> hits(n, 0);
            for (uint32_t i = 0; i < n; ++i) {
                CHECK(d[i] != i);
                REQUIRE(d[i] < n);
                ++hits[d[i]];
            }
            for (int h : hits) CHECK(h == 1);
            CHECK(ndr::tb::random_derangement(n, seed) == d);
        }
    }
    // n = 2 has one derangement: the swap.
    CHECK(ndr::tb::random_derangement(2, 5) == std::vector<uint32_t>{1, 0});
}

TEST_CASE("gen permutation: one rdma_write per rank to its destination", "[trace][permutation]") {
    const std::vector<uint32_t> dest{2, 0, 3, 1};
    const ndr::trace::trace t = ndr::trace::gen_permutation(dest, 16 << 20, "p");
    REQUIRE(t.records.size() == 4);
    for (uint32_t r = 0; r < 4; ++r) {
        CHECK(t.records[r].rank == r);
        CHECK(t.records[r].op == ndr::coll::op_kind::rdma_write);
        CHECK(t.records[r].root == dest[r]);
        CHECK(t.records[r].count == (16U << 20));
    }
    CHECK_THROWS_AS(ndr::trace::gen_permutation({0, 1}, 1, "fixed point"), std::invalid_argument);
    CHECK_THROWS_AS(ndr::trace::gen_permutation({1, 0}, 0, "empty"), std::invalid_argument);
}
