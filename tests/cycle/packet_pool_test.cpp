// The packet pool and its queues (models/cycle/packet.h): no simulation, hand-checked cases.
#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/invariant_error.h"
#include "cycle/packet.h"

using ndr::cycle::NO_PACKET;
using ndr::cycle::packet_pool;
using ndr::cycle::packet_queue;

TEST_CASE("packet pool: every record is one whole cache line", "[cycle][packet]") {
    packet_pool pool;
    std::vector<uint32_t> ids;
    for (int i = 0; i < 100; ++i) ids.push_back(pool.alloc());
    for (uint32_t idx : ids) {
        const auto addr = reinterpret_cast<std::uintptr_t>(&pool[idx]);
        CHECK(addr % 64 == 0);
    }
    // A freed record is handed out again, cleared.
    pool[ids[7]].flow_seq = 99;
    pool.free(ids[7]);
    const uint32_t again = pool.alloc();
    CHECK(again == ids[7]);
    CHECK(pool[again].flow_seq == 0);
    CHECK(pool.live() == 100);
}

TEST_CASE("packet pool: freeing twice is an invariant error", "[cycle][packet]") {
    packet_pool pool;
    const uint32_t a = pool.alloc();
    pool.free(a);
    CHECK_THROWS_AS(pool.free(a), ndr::common::invariant_error);
}

TEST_CASE("packet sizes: up to 65535 bytes, larger rejected", "[cycle][packet]") {
    CHECK(ndr::cycle::packet_bytes(0) == 0);
    CHECK(ndr::cycle::packet_bytes(4096 + 26) == 4122);
    CHECK(ndr::cycle::packet_bytes(65535) == 65535);
    CHECK_THROWS_AS(ndr::cycle::packet_bytes(65536), std::length_error);
}

TEST_CASE("packet queue: FIFO through the links, sizes as of push", "[cycle][packet]") {
    packet_pool pool;
    packet_queue q;
    CHECK(q.empty());
    std::vector<uint32_t> ids;
    for (uint16_t k = 1; k <= 5; ++k) {
        const uint32_t idx = pool.alloc();
        pool[idx].blocks = k;
        pool[idx].beats = static_cast<uint16_t>(2 * k);
        q.push(pool, idx);
        ids.push_back(idx);
    }
    // Interleave a second queue: the links of one do not disturb the other.
    packet_queue r;
    const uint32_t other = pool.alloc();
    r.push(pool, other);
    for (std::size_t k = 0; k < ids.size(); ++k) {
        REQUIRE_FALSE(q.empty());
        CHECK(q.head == ids[k]);
        CHECK(pool.link(q.head).blocks == k + 1);
        CHECK(pool.link(q.head).beats == 2 * (k + 1));
        CHECK(q.pop(pool) == ids[k]);
        CHECK(pool.link(ids[k]).next == NO_PACKET);
    }
    CHECK(q.empty());
    CHECK(q.tail == NO_PACKET);
    CHECK(r.pop(pool) == other);
    CHECK(r.empty());
}
