// Confidence intervals and the warm-up check of one synthetic-traffic point (docs/report.md
// "Confidence intervals and the warm-up check"): batch means of the measurement window and
// MSER-5 on the latency batch means from the warm-up on (common/batch_means.h).
#pragma once
#include <nlohmann/json.hpp>

#include "common/endpoint_stats.h"

namespace ndr::tb {

/// Half-widths of the 95 % batch-means intervals and the warm-up verdict.
struct traffic_ci {
    nlohmann::json latency_mean_ci95;  ///< ns, null with fewer than 2 batches with samples
    nlohmann::json accepted_load_ci95;
    std::vector<nlohmann::json> vl_share_ci95;
    unsigned latency_batches = 0;  ///< window batches with latency samples
    uint64_t batch_cycles = 0;     ///< length of one batch (the last takes the remainder)
    nlohmann::json warmup_check;   ///< {verdict, ...}: docs/report.md
};

/// From the batch sums of `ep` for a window of `window_cycles` cycles starting at
/// `warmup_cycles`, `ports` endpoints, `cycle_ns` per cycle.
traffic_ci traffic_intervals(const endpoint_stats& ep, uint64_t warmup_cycles,
                             uint64_t window_cycles, uint32_t ports, double cycle_ns);

}  // namespace ndr::tb
