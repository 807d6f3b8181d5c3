// burst_shape (tlm/burst_shape.h): totals, credit charge and leave times of a burst against
// hand-computed values. SystemC-free; no simulation.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "burst_shape.h"

using ndr::tlmm::burst_shape;

namespace {
// A 4 KiB RDMA WRITE middle packet: 4096 B payload, 4122 B on the wire = 65 beats of 64 B and
// 65 credit blocks; its payload DMA takes `dma` cycles.
burst_shape::kind full(uint32_t n, uint32_t dma) {
    return {4096, 4122, 65, 65, dma, n};
}
}  // namespace

TEST_CASE("burst_shape: 15 full packets and a 100 B tail at line rate", "[tlm][burst]") {
    burst_shape s;
    s.add(full(1, 10));
    s.add(full(14, 10));
    s.add({100, 126, 2, 2, 1, 1});
    CHECK(s.packets() == 16);
    CHECK(s.max_blocks() == 65);
    CHECK(s.max_beats() == 65);
    CHECK(s.payload_bytes() == 15 * 4096 + 100);
    CHECK(s.wire_bytes() == 15 * 4122 + 126);
    CHECK(s.last_dma() == 1);
    // Back to back: 15 x 65 beats, then the 2-beat tail.
    const burst_shape::timing w = s.leave(1000, nullptr);
    CHECK(w.end == 1000 + 15 * 65 + 2);
    CHECK(w.last_start == 1000 + 15 * 65);
    // Charge: half of what a 512-block buffer has left after one packet, (512 - 65) / 2 = 223,
    // below the burst's 977 blocks.
    CHECK(s.charge(512) == 223);
    // A buffer so large that the whole burst fits in half of it: the burst's own blocks.
    CHECK(s.charge(4096) == 15 * 65 + 2);
}

TEST_CASE("burst_shape: payload DMA slower than the wire spaces the packets", "[tlm][burst]") {
    burst_shape s;
    s.add(full(3, 100));
    // Packet j starts when the wire is free and packet j-1's DMA (100 cycles) is done:
    // starts 0, 100, 200; the last ends at 265.
    const burst_shape::timing w = s.leave(0, nullptr);
    CHECK(w.last_start == 200);
    CHECK(w.end == 265);
}

TEST_CASE("burst_shape: one packet is charged its own blocks", "[tlm][burst]") {
    burst_shape s;
    s.add({256, 282, 5, 5, 1, 1});
    CHECK(s.charge(512) == 5);
    const burst_shape::timing w = s.leave(7, nullptr);
    CHECK(w.last_start == 7);
    CHECK(w.end == 12);
}

TEST_CASE("burst_shape: empty kinds and a fourth kind are errors", "[tlm][burst]") {
    burst_shape s;
    CHECK_THROWS_AS(s.add(full(0, 1)), std::logic_error);
    s.add(full(1, 1));
    s.add(full(1, 1));
    s.add(full(1, 1));
    CHECK_THROWS_AS(s.add(full(1, 1)), std::logic_error);
}
