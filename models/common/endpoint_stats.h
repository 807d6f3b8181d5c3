// What the synthetic-traffic endpoints measured, at every level (models/cycle/traffic_endpoints.h,
// tlm/traffic_endpoints_tlm.h, the RTL harness). SystemC-free.
#pragma once
#include <cstdint>
#include <vector>

#include "common/batch_record.h"

namespace ndr::tb {

/// What the endpoints measured. Window = [warm-up end, warm-up end + measure).
struct endpoint_stats {
    uint64_t created = 0;         ///< packets created, whole run
    uint64_t delivered = 0;       ///< packets delivered, whole run
    uint64_t window_created = 0;  ///< created inside the window (tagged)
    uint64_t window_created_beats = 0;
    uint64_t tagged_delivered = 0;               ///< tagged packets delivered so far
    uint64_t window_delivered = 0;               ///< packets whose tail arrived inside the window
    std::vector<uint64_t> port_delivered_beats;  ///< per destination, inside the window
    std::vector<uint64_t> port_offered_beats;    ///< per source, created inside the window
    std::vector<uint64_t> vl_delivered_beats;    ///< per VL of the last link, inside the window
    std::vector<uint64_t> vl_delivered_bytes;    ///< wire bytes, per VL, inside the window
    std::vector<uint64_t> credit_stall_cycles;   ///< per VL: source idle for lack of credits
    std::vector<uint64_t> latency_hist;  ///< [cycles]: tagged packets, creation -> tail delivered
    std::vector<std::vector<uint64_t>> vl_latency_hist;  ///< the same per VL of the last link
    uint64_t max_source_queue = 0;                       ///< packets, max over endpoints
    batch_record batch;  ///< per-batch sums for confidence intervals (set up on first delivery)
};

}  // namespace ndr::tb
