// What a synthetic-traffic sink does with each delivered packet, for the cycle-level and TLM
// endpoints alike: the lossless checks (right destination; per (source, SL) flow sequence: no
// drop, duplicate or reorder) and the statistics of endpoint_stats.
#pragma once
#include <cstdint>
#include <vector>

#include "traffic_endpoints.h"

namespace ndr::tb {

/// The fields of a delivered packet that the sink looks at.
struct delivered {
    uint64_t id = 0;
    uint64_t created = 0;
    uint32_t flow_seq = 0;
    uint32_t wire_bytes = 0;
    uint16_t beats = 0;
    uint16_t src = 0;
    uint16_t dst = 0;
    uint8_t sl = 0;
    uint8_t vl = 0;
    bool tagged = false;
};

/// Checks (when `check`) and records the delivery of `p` at endpoint `e` in cycle `t`.
/// recv_seq is indexed [(e * ports + src) * 16 + sl]; throws cycle::invariant_error.
void record_delivery(endpoint_stats& stats, std::vector<uint32_t>& recv_seq, uint32_t ports,
                     bool check, cycle_t win_start, cycle_t win_end, cycle_t t, uint16_t e,
                     const delivered& p);

}  // namespace ndr::tb
