// One synthetic-traffic simulation: a cycle-level switch with one endpoint per port, run through
// warm-up, the measurement window and a drain phase. One call per process (SystemC elaborates
// once); load curves run each point in its own child process (point_runner.h).
#pragma once
#include <cstdint>

#include "common/pfc_port_stats.h"
#include "common/switch_stats.h"
#include "common/timing.h"
#include "config/sim_config.h"
#include "traffic_endpoints.h"

namespace ndr::tb {

struct traffic_outcome {
    common::timing tm;
    common::switch_stats sw;
    endpoint_stats ep;
    std::vector<common::pfc_port_stats> ep_pfc;  ///< RoCE: per (endpoint, priority), whole run
    uint64_t cycles = 0;                        ///< simulated cycles, whole run
    uint64_t window_cycles = 0;
    uint64_t in_flight = 0;        ///< packets alive in the model at the end (counted)
    uint64_t dropped = 0;          ///< created - delivered - in_flight (0 in a lossless run)
    uint64_t switch_buffered = 0;  ///< of which in switch input buffers
    double wall_s = 0.0;
};

traffic_outcome run_traffic(const cfg::config& c);

/// Fills in_flight (packets still alive: counted by the caller), dropped (created − delivered −
/// in_flight) and switch_buffered; with `check`, a nonzero dropped count is an invariant error.
void account_packets(traffic_outcome& out, uint64_t live, uint64_t in_switch, bool check);

}  // namespace ndr::tb
