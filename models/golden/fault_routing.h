// The subnet manager's reroute around dead cables (fault.link_down, docs/routing.md 'Link
// faults'), on the up/down LFTs of updown_routing.h. SystemC-free.
//
// reroute_lfts(t, lfts, dead) keeps every LFT entry that still leads to its destination and
// replaces the others, per destination d (DLID d + 1), over the topology without the dead cables:
//  * down_ok(s): d is reachable from switch s going down only (d's leaf; a switch with a live
//    down cable to a down_ok switch). reach(s): down_ok(s), or a live up cable to a reach switch.
//  * A down_ok switch keeps its entry if it is a live down port to a down_ok switch (or d's host
//    port), else takes candidate d mod n of those ports in port order (the d-mod-k rule).
//  * Any other switch with reach(s) keeps its entry if it is a live up port to a reach switch,
//    else takes candidate d mod n of those.
//  * A switch without reach(s) keeps its old entry: no source routes through it any more, and
//    a packet already on its way there follows the old table into the dead cable (lost, as
//    on the real fabric; RC retransmits it).
// Paths stay up* then down*, so the rerouted tables are deadlock-free on one VL as before.
#pragma once
#include <cstdint>
#include <vector>

#include "golden/lft.h"
#include "golden/topology.h"

namespace ndr::golden {

/// The topology with the cables that have an end in `ends` removed (peers set to none, links
/// dropped). Throws std::invalid_argument if an end is not a cabled switch port.
topology without_cables(const topology& t, const std::vector<topo_port_ref>& ends);

/// LFTs after the reroute around the cables with an end in `dead` (rules in the file comment).
/// `lfts` are the tables before (one per switch). Throws std::invalid_argument as
/// without_cables, or if lfts.size() != t.switches.size().
std::vector<lft> reroute_lfts(const topology& t, const std::vector<lft>& lfts,
                              const std::vector<topo_port_ref>& dead);

/// The AR groups after the same reroute (ar_updn's TREE groups on the live fabric: every port
/// with a minimal up*/down* path to the destination): per switch, per destination host d
/// (index d, DLID d + 1), the mask of the ports the rules above call good for d (ports < 64);
/// 0 where the switch is d's leaf or no longer reaches d. Throws as without_cables.
std::vector<std::vector<uint64_t>> reroute_ar_groups(const topology& t,
                                                     const std::vector<topo_port_ref>& dead);

/// RoCE's ECMP sets after the same reroute (the routing protocol withdraws the routes over
/// the dead cables): per switch, per destination host d, the up ports of the live fabric
/// (up_port_mask on without_cables, multipath_groups.h) that the rules above call good for d;
/// with `down` (routing.ecmp_down parallel) also, where the switch routes d down, its good down
/// ports (the live cables to the lower switch towards d); else 0 there, and 0 where the switch
/// no longer reaches d (it keeps its LFT entry). Throws as without_cables.
std::vector<std::vector<uint64_t>> reroute_ecmp(const topology& t,
                                                const std::vector<topo_port_ref>& dead,
                                                bool down = false);

}  // namespace ndr::golden
