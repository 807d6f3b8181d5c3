// The shared input-buffer rule (models/golden/vl_buffer_pool.h) against hand-computed vectors:
// a port of `total` blocks, each VL reserving `reserved`, a busy VL's pool blocks s + d at most
// alpha x (unclaimed - d) and its window at most `window`, capacities moving only by grants at
// FC updates and by blocks read out.
#include <catch2/catch.hpp>

#include <cstdint>

#include "golden/vl_buffer_pool.h"

using ndr::golden::FC_MAX_OUTSTANDING;
using ndr::golden::vl_buffer_pool;

TEST_CASE(
    "vl_buffer_pool: a busy VL claims up to the dynamic threshold, an idle one its "
    "reservation",
    "[golden][buffer]") {
    // 2 VLs x 32 KiB, 8 KiB reserved, alpha 8, window 512 (the static share).
    const vl_buffer_pool pool{1024, 128, 8.0, 512};
    // Both at their reservation: claimed 256, 768 unclaimed. VL0 busy holding 300:
    // d = floor(8 x 768 / 9) = floor(682.7) = 682 -> 810 (window 510 <= 512).
    CHECK(pool.grant(256, 128, 300) == 810);
    // Holding only 65: the window limits, 65 + 512 = 577.
    CHECK(pool.grant(256, 128, 65) == 577);
    // VL1 idle: stays at its reservation, however much is unclaimed.
    CHECK(pool.grant(256, 128, 0) == 128);
    // VL1 busy beside VL0 at 577: unclaimed 319, d = floor(8 x 319 / 9) = 283 -> 411.
    CHECK(pool.grant(577 + 128, 128, 10) == 411);
    // VL0 again (holds 449 pool blocks, 36 unclaimed): 8 x 36 - 449 < 0, no more.
    CHECK(pool.grant(577 + 411, 577, 500) == 577);
    // After VL0 returned 65 blocks (capacity 512, idle): its claim stands, no growth.
    CHECK(pool.grant(512 + 411, 512, 0) == 512);
    // A VL below its reservation (blocks read out returned to the pool) claims it back.
    CHECK(pool.claim(40) == 128);
    CHECK(pool.grant(128 + 810, 40, 0) == 128);
}

TEST_CASE("vl_buffer_pool: one busy VL's limit is alpha / (1 + alpha) of the pool",
          "[golden][buffer]") {
    // The VL full, its window of 512 on top of what it holds: 128 -> 640 (window) -> 810
    // (claimed 768, 256 unclaimed, it holds 512 pool blocks: d = floor((2048 - 512) / 9) = 170),
    // then floor((8 x 86 - 682) / 9) = 0: 810 = 128 + floor(8 x 768 / 9).
    CHECK(vl_buffer_pool{1024, 128, 8.0, 512}.one_vl_capacity(2) == 810);
    // alpha 1: half the pool (384) on top of the reservation.
    CHECK(vl_buffer_pool{1024, 128, 1.0, 512}.one_vl_capacity(2) == 512);
    // Large alpha: nearly all of it, 128 + floor(64 x 768 / 65) = 128 + 756 = 884.
    CHECK(vl_buffer_pool{1024, 128, 64.0, 512}.one_vl_capacity(2) == 884);
    // 4 VLs of 512 blocks (2048), 128 reserved each: pool 1536, 128 + floor(8 x 1536 / 9) = 1493.
    CHECK(vl_buffer_pool{2048, 128, 8.0, 512}.one_vl_capacity(4) == 1493);
}

TEST_CASE("vl_buffer_pool: a promise stands, the FCCL window is at most 2048 blocks",
          "[golden][buffer]") {
    const vl_buffer_pool pool{8192, 128, 64.0, 4096};  // a big pool: the 12-bit window limits
    // Busy VL holding 100 blocks: at most 100 + 2048 however many are unclaimed.
    CHECK(pool.grant(256, 128, 100) == 100 + FC_MAX_OUTSTANDING);
    // Over-claimed (claimed > total): no new blocks, none taken back.
    const vl_buffer_pool small{512, 128, 8.0, 512};
    CHECK(small.grant(600, 300, 50) == 300);
    CHECK(small.grant(600, 300, 0) == 300);
}

TEST_CASE("vl_buffer_pool: total 0 is the static organisation", "[golden][buffer]") {
    CHECK_FALSE(vl_buffer_pool{}.enabled());
    CHECK(vl_buffer_pool{1024, 128, 8.0, 512}.enabled());
}
