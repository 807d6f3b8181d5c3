// The NVLink/NVSwitch fluid model (common::nvlink_fabric, rules in its header): max-min fair
// sharing of each GPU's egress and ingress. B = 100 bytes per cycle; finishes are hand-derived.
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/nvlink_fabric.h"

using ndr::common::nvlink_fabric;

namespace {
/// Runs node 0 to completion; returns (tag, cycle) in finish order.
std::vector<std::pair<uint64_t, uint64_t>> drain(nvlink_fabric& f) {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    for (uint64_t t = f.next_finish(0); t != nvlink_fabric::NEVER; t = f.next_finish(0)) {
        for (uint64_t tag : f.advance(t, 0)) out.emplace_back(tag, t);
    }
    return out;
}
}  // namespace

TEST_CASE("nvlink: one flow runs at B", "[common][node]") {
    nvlink_fabric f(1, 8, 100.0);
    f.start(10, 0, 0, 1, 1000, 7);
    const auto d = drain(f);
    REQUIRE(d.size() == 1);
    CHECK(d[0] == std::make_pair(uint64_t{7}, uint64_t{20}));  // 1000 B / 100 B per cycle
}

TEST_CASE("nvlink: a GPU's egress is shared by its transfers, freed bandwidth is reused",
          "[common][node]") {
    // 0->1 of 1000 B and 0->2 of 2000 B: both at B/2 until the first ends at 1000/50 = 20;
    // the second then has 1000 B left at B: ends at 30.
    nvlink_fabric f(1, 4, 100.0);
    f.start(0, 0, 0, 1, 1000, 1);
    f.start(0, 0, 0, 2, 2000, 2);
    const auto d = drain(f);
    REQUIRE(d.size() == 2);
    CHECK(d[0] == std::make_pair(uint64_t{1}, uint64_t{20}));
    CHECK(d[1] == std::make_pair(uint64_t{2}, uint64_t{30}));
    CHECK(f.stats()[0].tx_bytes == 3000);
    CHECK(f.stats()[2].rx_bytes == 2000);
}

TEST_CASE("nvlink: max-min fair across egress and ingress", "[common][node]") {
    // a: 0->1, b: 0->2, c: 3->2. Egress 0 (a, b) and ingress 2 (b, c) both offer B/2 per flow,
    // the smallest share, so all three get B/2 (a and c have no tighter resource): 500 B each
    // ends at 500 / 50 = 10.
    nvlink_fabric f(1, 4, 100.0);
    f.start(0, 0, 0, 1, 500, 1);
    f.start(0, 0, 0, 2, 500, 2);
    f.start(0, 0, 3, 2, 500, 3);
    const auto d = drain(f);
    REQUIRE(d.size() == 3);
    for (const auto& e : d) CHECK(e.second == 10);
    // A flow alone on its source but sharing a destination with two others: B/3 each.
    nvlink_fabric g(1, 4, 90.0);
    for (uint32_t s = 1; s < 4; ++s) g.start(0, 0, s, 0, 900, s);
    for (const auto& e : drain(g)) CHECK(e.second == 30);  // 900 / 30
}

TEST_CASE("nvlink: an NVLS member is one flow through its egress and ingress at once",
          "[common][node]") {
    // 8 members of 4096 B each at B = 64 B/cycle: each alone on its GPU -> 4096 / 64 = 64.
    nvlink_fabric f(2, 8, 64.0);
    for (uint32_t g = 0; g < 8; ++g) f.start(5, 1, g, g, 4096, g);
    CHECK(f.next_finish(0) == nvlink_fabric::NEVER);
    CHECK(f.next_finish(1) == 5 + 64);
    CHECK(f.advance(5 + 64, 1).size() == 8);
    CHECK(f.stats()[8 + 3].tx_bytes == 4096);
    CHECK(f.stats()[8 + 3].rx_bytes == 4096);
}

TEST_CASE("nvlink: a capped flow runs at its cap and leaves the rest to the others",
          "[common][node]") {
    // B = 100 B/cycle. An NVLS-like member 0->0 capped at 0.85 B = 85 B/cycle: 850 B alone end
    // at 10. With a plain flow 0->1 beside it on egress 0: the fair share would be 50 each, below
    // the cap, so both get 50 (the cap does not bind); 500 B each end at 10.
    nvlink_fabric f(1, 4, 100.0);
    f.start(0, 0, 0, 0, 850, 1, 0.85);
    auto d = drain(f);
    REQUIRE(d.size() == 1);
    CHECK(d[0].second == 10);
    nvlink_fabric g(1, 4, 100.0);
    g.start(0, 0, 0, 0, 500, 1, 0.85);
    g.start(0, 0, 0, 1, 500, 2);
    for (const auto& e : drain(g)) CHECK(e.second == 10);
    // Capped at 0.25 (25 B/cycle) beside a plain flow: the cap binds, the plain flow gets the
    // other 75. 250 B capped -> 10 cycles; 750 B plain -> 10 cycles.
    nvlink_fabric h(1, 4, 100.0);
    h.start(0, 0, 0, 0, 250, 1, 0.25);
    h.start(0, 0, 0, 1, 750, 2);
    for (const auto& e : drain(h)) CHECK(e.second == 10);
    CHECK_THROWS_AS(h.start(20, 0, 0, 1, 10, 3, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(h.start(20, 0, 0, 1, 10, 3, 1.5), std::invalid_argument);
}
