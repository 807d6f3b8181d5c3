// The multipath port sets of a switch, from the topology alone (docs/routing.md 'Adaptive
// routing', docs/roce.md 'ECMP'). SystemC-free. The fabric plan builds them at start and the
// subnet manager's reroute after a link fault builds them again on the topology without the dead
// cables (golden::without_cables), so both use these rules.
//  * up_port_mask: the ports cabled to a switch of a higher level (bit p = port p; ports >= 64
//    are not represented). RoCE's ECMP spreads over them; AR's up group is this set.
//  * ar_port_groups: per port p, the AR group the LFT port p stands for: every up port if p is
//    an up port (any of them leads towards every destination on an up/down fabric); else every
//    port cabled to the same peer switch as p (parallel down cables); else p alone (a host
//    port, or an unconnected one).
#pragma once
#include <cstdint>
#include <vector>

#include "golden/topology.h"

namespace ndr::golden {

/// Up ports of switch `sw` of `t`. Throws std::out_of_range if `sw` is not a switch of `t`.
uint64_t up_port_mask(const topology& t, uint32_t sw);

/// AR group of every port of switch `sw` (one mask per port, rules in the file comment).
/// Throws std::out_of_range if `sw` is not a switch of `t`.
std::vector<uint64_t> ar_port_groups(const topology& t, uint32_t sw);

}  // namespace ndr::golden
