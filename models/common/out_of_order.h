// Whether the fabric of a config may deliver the packets of one RC message out of order, so that
// the HCAs place packets ahead of the expected PSN instead of NAKing them
// (golden/rc_psn_window.h; docs/routing.md 'Adaptive routing', docs/roce.md 'ECMP modes'):
// InfiniBand with routing.mode adaptive (AR picks a port per packet), RoCE with
// routing.ecmp_mode flowlet or spray (a flow changes path). Both HCA models (cycle and TLM) and
// the report ask this one rule. SystemC-free.
#pragma once
#include "config/sim_config.h"

namespace ndr::common {

inline bool out_of_order_placement(const cfg::config& c) {
    if (c.fabric.technology == "roce") return c.routing.ecmp_mode != "flow";
    return c.routing.mode == "adaptive";
}

}  // namespace ndr::common
