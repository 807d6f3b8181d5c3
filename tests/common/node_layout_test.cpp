// Where ranks run (common::node_layout, docs/architecture.md "Node model").
#include <catch2/catch.hpp>

#include <array>
#include <stdexcept>
#include <vector>

#include "common/node_layout.h"

using ndr::common::node_layout;

TEST_CASE("node layout: one GPU per node is one rank per host", "[common][node]") {
    const node_layout l(1, 0, 5, {});
    CHECK_FALSE(l.multi_gpu());
    CHECK(l.nodes() == 5);
    CHECK(l.hosts() == 5);
    for (uint32_t r = 0; r < 5; ++r) CHECK(l.host_of_rank(r) == r);
}

TEST_CASE("node layout: default placement r -> (r / G, r % G), HCA per GPU", "[common][node]") {
    const node_layout l(8, 0, 20, {});
    CHECK(l.multi_gpu());
    CHECK(l.hcas() == 8);
    CHECK(l.nodes() == 3);  // ranks 16..19 on node 2
    CHECK(l.hosts() == 24);
    CHECK(l.of_rank(13).node == 1);
    CHECK(l.of_rank(13).gpu == 5);
    CHECK(l.host_of_rank(13) == 1 * 8 + 5);
    CHECK(l.same_node(8, 15));
    CHECK_FALSE(l.same_node(7, 8));
    // 4 HCAs for 8 GPUs: GPUs 2g and 2g+1 share HCA g.
    const node_layout h(8, 4, 16, {});
    CHECK(h.hosts() == 8);
    CHECK(h.host_of_rank(9) == 4 + 0);
    CHECK(h.host_of_rank(15) == 4 + 3);
}

TEST_CASE("node layout: explicit placement and its refusals", "[common][node]") {
    const std::vector<std::array<uint32_t, 2>> p = {{3, 1}, {0, 0}, {3, 0}};
    const node_layout l(2, 0, 3, p);
    CHECK(l.nodes() == 4);
    CHECK(l.host_of_rank(0) == 3 * 2 + 1);
    CHECK(l.same_node(0, 2));
    CHECK_THROWS_WITH(node_layout(2, 0, 2, p), Catch::Contains("placement: 3 entries for 2"));
    CHECK_THROWS_WITH(node_layout(2, 0, 2, {{0, 2}, {0, 0}}),
                      Catch::Contains("placement[0]: gpu 2 out of range"));
    CHECK_THROWS_WITH(node_layout(2, 0, 2, {{1, 1}, {1, 1}}),
                      Catch::Contains("already holds rank 0"));
}
