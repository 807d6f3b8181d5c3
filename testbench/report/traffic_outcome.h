// What one synthetic-traffic point produced, at any level (traffic_sim.h, traffic_tlm_sim.h,
// traffic_rtl_sim.h): the input of report.json and the stdout table (traffic_report.h).
#pragma once
#include <cstdint>
#include <vector>

#include "common/pfc_port_stats.h"
#include "common/switch_stats.h"
#include "common/timing.h"
#include "cycle/traffic_endpoints.h"

namespace ndr::tb {

struct traffic_outcome {
    common::timing tm;
    common::switch_stats sw;
    endpoint_stats ep;
    std::vector<common::pfc_port_stats> ep_pfc;  ///< RoCE: per (endpoint, priority), whole run
    uint64_t cycles = 0;                         ///< simulated cycles, whole run
    uint64_t window_cycles = 0;
    uint64_t in_flight = 0;        ///< packets alive in the model at the end (counted)
    uint64_t dropped = 0;          ///< created - delivered - in_flight (0 in a lossless run)
    uint64_t switch_buffered = 0;  ///< of which in switch input buffers
    double wall_s = 0.0;
};

}  // namespace ndr::tb
