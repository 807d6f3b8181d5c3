// One synthetic-traffic simulation: a cycle-level switch with one endpoint per port, run through
// warm-up, the measurement window and a drain phase. One call per process (SystemC elaborates
// once); load curves run each point in its own child process (point_runner.h).
#pragma once
#include <cstdint>

#include "common/pfc_port_stats.h"
#include "common/switch_stats.h"
#include "common/timing.h"
#include "config/sim_config.h"
#include "cycle/ib_switch.h"
#include "cycle/traffic_endpoints.h"
#include "traffic_outcome.h"

namespace ndr::tb {

traffic_outcome run_traffic(const cfg::config& c);

/// Fills in_flight (packets still alive: counted by the caller), dropped (created − delivered −
/// in_flight) and switch_buffered; with `check`, a nonzero dropped count is an invariant error.
void account_packets(traffic_outcome& out, uint64_t live, uint64_t in_switch, bool check);

}  // namespace ndr::tb
