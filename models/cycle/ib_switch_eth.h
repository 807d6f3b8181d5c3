// RoCE state of one ib_switch (fabric.technology = roce): PFC, ECN, ECMP, egress queue
// accounting. Private to ib_switch*.cpp (ib_switch.h only forward-declares it).
#pragma once
#include <cstdint>
#include <vector>

#include "common/occupancy_stat.h"
#include "config/sim_config.h"
#include "cycle/ecn_marker.h"
#include "cycle/pfc.h"
#include "golden/ecmp_selector.h"

namespace ndr::cycle {

/// The ECMP choice of a RoCE switch (golden/ecmp_selector.h) and its reroutes.
struct eth_ecmp {
    golden::ecmp_mode mode = golden::ecmp_mode::flow;  ///< routing.ecmp_mode
    uint64_t gap_cycles = 0;                           ///< routing.flowlet_gap
    golden::ecmp_selector sel{golden::ecmp_mode::flow, 0, 0};
    uint64_t flowlets_at_window = 0;  ///< sel.new_flowlets() when the window opened
    /// fault.link_down: per destination host, the up ports that still lead to it (set by the
    /// reroute; empty before: every up port leads everywhere).
    std::vector<uint64_t> dst_up;
    std::vector<std::vector<uint64_t>> reroutes;  ///< the sets EV_ECMP_REROUTE installs
    /// routing.ecmp_down parallel: per port p, the ports cabled to p's peer switch (empty: lft).
    std::vector<uint64_t> down_groups;
};

struct eth_state {
    bool pfc_enabled = true;
    pfc_ports pfc;
    ecn_marker ecn;
    uint64_t up_ports = 0;
    uint32_t ecmp_seed = 0;
    std::vector<uint64_t> egress_bytes;  ///< per output: bytes queued (VOQs) for it
    std::vector<common::occupancy_stat> egress_occ;
    uint64_t ecn_marked = 0;
    cfg::ecn_config ecn_cfg;
    uint64_t sim_seed = 1;
    eth_ecmp ecmp;  ///< routing.ecmp_mode and the rerouted ECMP sets
};

}  // namespace ndr::cycle
