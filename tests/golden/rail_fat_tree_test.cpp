// Rail-optimized fat trees (golden build_rail_fat_tree, rules in models/golden/topology.h;
// docs/domain.md §14.1): HCA k of every node on a leaf of rail k, spines join the rails.
// Expectations are counted by hand from the wiring rule, not read from the builder.
#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <stdexcept>

#include "golden/lft.h"
#include "golden/topology.h"
#include "golden/updown_routing.h"

using namespace ndr::golden;

TEST_CASE("rail fat tree: 4 nodes x 8 rails, radix 64, 2 levels", "[golden][topology]") {
    const topology t = build_rail_fat_tree(4, 8, 64, 2);
    t.validate();
    // h = 32 nodes per rail leaf: one group, so one leaf per rail (8 leaves); spines = the
    // smallest divisor of 32 that is >= ceil(8 / 2) = 4, each leaf with 32 / 4 = 8 links to each.
    CHECK(t.hosts == 32);
    CHECK(t.rails == 8);
    CHECK(t.switches_at_level(0) == 8);
    CHECK(t.switches_at_level(1) == 4);
    CHECK(t.levels == 2);
    for (uint32_t n = 0; n < 4; ++n) {
        for (uint32_t k = 0; k < 8; ++k) {
            CAPTURE(n, k);
            CHECK(t.host_attach[n * 8 + k].node == k);  // leaf of rail k
            CHECK(t.host_attach[n * 8 + k].port == n);  // port n % 32
        }
    }
    const std::vector<lft> lfts = compute_updown_lfts(t);
    CHECK(is_deadlock_free(t, lfts));
    // Same rail, any two nodes: one switch (the rail's leaf). Other rail: leaf, spine, leaf.
    for (uint32_t k = 0; k < 8; ++k) {
        for (uint32_t i = 0; i < 4; ++i) {
            const uint32_t j = (i + 1) % 4;
            CAPTURE(k, i, j);
            const auto same = route(t, lfts, i * 8 + k, j * 8 + k);
            REQUIRE(same.size() == 1);
            CHECK(same[0].sw == k);
            const auto cross = route(t, lfts, i * 8 + k, j * 8 + (k + 1) % 8);
            REQUIRE(cross.size() == 3);
            CHECK(t.switches[cross[1].sw].level == 1);
        }
    }
}

TEST_CASE("rail fat tree: groups of nodes, 2 and 3 levels", "[golden][topology]") {
    // radix 8: h = 4 nodes per rail leaf. 10 nodes x 2 rails: groups ceil(10/4) = 3, leaves 6
    // (group j, rail r = leaf 2j + r); node 9 is on leaves 4 and 5 at port 1.
    const topology t2 = build_rail_fat_tree(10, 2, 8, 2);
    t2.validate();
    CHECK(t2.switches_at_level(0) == 6);
    CHECK(t2.switches_at_level(1) == 4);  // smallest divisor of 4 >= 3
    CHECK(t2.host_attach[9 * 2 + 0].node == 4);
    CHECK(t2.host_attach[9 * 2 + 1].node == 5);
    CHECK(t2.host_attach[9 * 2 + 1].port == 1);
    CHECK(is_deadlock_free(t2, compute_updown_lfts(t2)));
    // 3 levels, radix 8: 16 nodes x 2 rails -> 4 groups, 8 leaves, pods of 4 leaves = 2 pods,
    // 4 aggregation switches per pod, cores = 4 groups of smallest divisor of 4 >= 1 = 1.
    const topology t3 = build_rail_fat_tree(16, 2, 8, 3);
    t3.validate();
    CHECK(t3.levels == 3);
    CHECK(t3.switches_at_level(0) == 8);
    CHECK(t3.switches_at_level(1) == 8);
    CHECK(t3.switches_at_level(2) == 4);
    const std::vector<lft> l3 = compute_updown_lfts(t3);
    CHECK(is_deadlock_free(t3, l3));
    // Same rail, same group: one leaf; same rail, other pod: leaf, aggr, core, aggr, leaf.
    CHECK(route(t3, l3, 0 * 2 + 1, 3 * 2 + 1).size() == 1);
    CHECK(route(t3, l3, 0 * 2 + 1, 15 * 2 + 1).size() == 5);
}

TEST_CASE("rail fat tree: refusals", "[golden][topology]") {
    CHECK_THROWS_AS(build_rail_fat_tree(0, 8, 64, 2), std::invalid_argument);
    CHECK_THROWS_AS(build_rail_fat_tree(4, 0, 64, 2), std::invalid_argument);
    CHECK_THROWS_AS(build_rail_fat_tree(4, 8, 63, 2), std::invalid_argument);
    CHECK_THROWS_AS(build_rail_fat_tree(4, 8, 64, 1), std::invalid_argument);
    // 2 levels hold at most radix leaves: radix 8 (h = 4), 17 nodes = 5 groups x 2 rails = 10.
    CHECK_THROWS_WITH(build_rail_fat_tree(17, 2, 8, 2), Catch::Contains("rail leaves"));
    // 128 nodes x 8 rails on radix 64: 4 groups x 8 = 32 leaves, fits 2 levels.
    CHECK_NOTHROW(build_rail_fat_tree(128, 8, 64, 2));
}
