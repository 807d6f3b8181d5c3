// What every synthetic source offers, shared by the cycle-level and TLM endpoints: the payload
// and SL mixes, the wire size of each payload, and the Bernoulli packet rate per cycle that
// makes the offered load (fraction of line rate) come out right. Validated at construction.
#pragma once
#include <cstdint>
#include <vector>

#include "common/timing.h"
#include "common/traffic_pattern.h"
#include "config/sim_config.h"
#include "golden/sl2vl.h"

namespace ndr::tb {

struct traffic_mix {
    traffic_mix(const cfg::config& c, const common::timing& tm);
    weighted_choice sizes;          ///< payload bytes
    weighted_choice sls;            ///< service levels
    std::vector<uint32_t> wire_of;  ///< wire bytes per size choice (RC SEND ONLY)
    golden::sl2vl_table sl2vl;
    double rate = 0.0;       ///< packets per cycle per source
    double inv_log_q = 0.0;  ///< 1 / ln(1 - rate), for geometric gaps
};

}  // namespace ndr::tb
