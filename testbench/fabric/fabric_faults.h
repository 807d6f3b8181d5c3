// fault.link_down on the fabric plan: each LINK@TIME resolved to a switch-to-switch cable of
// the plan, and the subnet manager's rerouted LFTs fault.reroute_delay after it
// (golden/fault_routing.h). Computed once in plan_fabric; the cycle-level fabric applies them
// (fabric.cpp); the TLM level rejects fault.link_down (sim_level.cpp). SystemC-free.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/sim_config.h"
#include "golden/lft.h"
#include "golden/topology.h"

namespace ndr::tb {

struct plan_hop;

/// One cable taken down.
struct plan_fault {
    std::string link;            ///< the name given in fault.link_down (one direction)
    uint64_t down_ps = 0;        ///< simulated time it goes down
    uint64_t reroute_ps = 0;     ///< down_ps + fault.reroute_delay
    uint64_t down_cycle = 0;     ///< first cycle whose header arrivals on it are lost
    uint64_t reroute_cycle = 0;  ///< cycle the rerouted LFTs are in place
    golden::topo_port_ref a;     ///< one end (the named link's sender)
    golden::topo_port_ref b;     ///< the other end
};

/// The LFTs of every switch from `cycle` on, and under routing.mode adaptive the AR groups per
/// switch and destination (golden::reroute_ar_groups; empty when static).
struct plan_reroute {
    uint64_t cycle = 0;
    std::vector<golden::lft> lfts;
    /// IB adaptive routing: per switch, per destination host, the AR group
    /// (golden::reroute_ar_groups); empty when static or RoCE.
    std::vector<std::vector<uint64_t>> ar_groups;
    /// RoCE: per switch, per destination host, the up ports that still lead to it
    /// (golden::reroute_ecmp); empty on InfiniBand.
    std::vector<std::vector<uint64_t>> ecmp;
};

struct fault_plan {
    std::vector<plan_fault> faults;      ///< in fault.link_down order
    std::vector<plan_reroute> reroutes;  ///< one per fault, in time order
};

/// Resolves c.fault.link_down against the plan's hops and computes the reroutes: the one at
/// fault i's reroute time avoids every cable down by then. Throws cfg::config_error
/// (fault.link_down) for a malformed entry, a link not in the fabric, a host cable (no other
/// path to the host), a cable named twice, or a destination the surviving cables cannot reach.
fault_plan plan_faults(const cfg::config& c, const golden::topology& topo,
                       const std::vector<golden::lft>& lfts, const std::vector<plan_hop>& hops,
                       uint64_t cycle_ps);

}  // namespace ndr::tb
