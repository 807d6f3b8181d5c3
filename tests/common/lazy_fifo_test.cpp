// common::lazy_fifo against std::deque as the reference FIFO: the same random pushes and pops
// give the same fronts and sizes, across the compactions of its consumed prefix.
#include "common/lazy_fifo.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <deque>
#include <random>

TEST_CASE("lazy_fifo behaves as a FIFO (std::deque reference) through compactions", "[common]") {
    ndr::common::lazy_fifo<uint32_t> f;
    std::deque<uint32_t> ref;
    CHECK(f.empty());
    std::mt19937 rng(7);
    uint32_t next = 0;
    for (int step = 0; step < 200000; ++step) {
        // Phases that grow to a few hundred entries, then drain: every compaction path runs.
        const bool grow = (step / 1000) % 2 == 0;
        if (ref.empty() || (rng() % 4 != 0) == grow) {
            f.push_back(next);
            ref.push_back(next++);
        } else {
            REQUIRE(f.front() == ref.front());
            f.pop_front();
            ref.pop_front();
        }
        REQUIRE(f.size() == ref.size());
        REQUIRE(f.empty() == ref.empty());
        if (!ref.empty()) REQUIRE(f.front() == ref.front());
    }
}

TEST_CASE("lazy_fifo indexes from its front", "[common]") {
    ndr::common::lazy_fifo<uint32_t> f;
    for (uint32_t v = 10; v < 50; ++v) f.push_back(v);  // 10 .. 49
    for (int i = 0; i < 35; ++i) f.pop_front();         // compacted at 32 consumed: 45 .. 49
    REQUIRE(f.size() == 5);
    CHECK(f[0] == 45);
    CHECK(f[4] == 49);
    f[1] = 7;
    CHECK(f[1] == 7);
    f.pop_front();
    CHECK(f[0] == 7);
    CHECK(f.front() == 7);
}
