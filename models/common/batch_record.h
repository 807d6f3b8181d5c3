// Per-batch sums a synthetic-traffic sink keeps for output analysis (common/batch_means.h,
// docs/report.md "Confidence intervals"): the measurement window is cut into `batches` batches
// of `sub` sub-batches each; the sub-batch grid is extended back into the warm-up (whole
// batches only) for the MSER-5 warm-up check. SystemC-free.
#pragma once
#include <cstdint>
#include <vector>

namespace ndr::tb {

struct batch_record {
    static constexpr uint32_t batches = 20;  ///< batches of the window (t with 19 dof)
    static constexpr uint32_t sub = 5;       ///< sub-batches per batch (MSER-5 groups)
    uint64_t origin = 0;                     ///< first cycle of sub-batch 0 (at or after cycle 0)
    uint64_t len = 0;                        ///< sub-batch length, cycles (0: not set up yet)
    uint32_t pre = 0;  ///< sub-batches before the window start (a multiple of `sub`)
    /// By creation cycle, sub-batches [0, pre + batches * sub): latency sum and count of the
    /// delivered packets created in it (the window part: the tagged packets).
    std::vector<uint64_t> lat_sum;
    std::vector<uint64_t> lat_n;
    /// By delivery cycle, window sub-batches only: delivered beats, in total and per VL.
    std::vector<uint64_t> beats;
    std::vector<std::vector<uint64_t>> vl_beats;

    /// Lays out the grid for the window [win_start, win_end) and `vls` VLs.
    void setup(uint64_t win_start, uint64_t win_end, uint32_t vls);
    /// Window sub-batch of cycle t (t in the window); the last one takes the remainder.
    uint32_t window_index(uint64_t t, uint64_t win_start) const {
        const uint64_t i = (t - win_start) / len;
        return i < batches * sub ? static_cast<uint32_t>(i) : batches * sub - 1;
    }
};

}  // namespace ndr::tb
