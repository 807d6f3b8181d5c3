// Deterministic up/down (d-mod-k) routing for fat trees, route tracing, and a channel-
// dependency deadlock check (docs/domain.md §4: one LFT egress port per DLID). SystemC-free.
//
// compute_updown_lfts(t) fills one lft per switch (index = switch id), DLIDs 0..t.hosts; DLID 0
// stays LFT_NO_ROUTE. For destination host d (DLID d + 1), with h = radix / 2:
//  * Up ports of a switch = ports cabled to a switch one level higher, in port order.
//  * Up rule (d-mod-k): a switch at level l that does not have d below it sends d to
//    up port number (d / h^l) mod (#up ports). Leaves therefore pick uplink d mod h and
//    aggregation switches pick uplink (d / h) mod h.
//  * Down rule: start at d's leaf and climb with the up rule until a switch has no up ports;
//    this chain is d's unique "root path". Every switch on it sends d down the port through
//    which the chain arrived (d's leaf: d's host port). Since every source climbs with the
//    same rule and the builders wire uplink u of every leaf (aggregation switch) to the same
//    spine (core) index, all traffic to d meets the root path and descends it: each
//    destination has one spine (core) and each down link of a full tree carries exactly one
//    destination. A switch off the root path that has d below it (reached only if the
//    caller injects there) sends d down candidate (d mod #candidates), candidates being its
//    down ports leading towards d's leaf, in port order.
//  * A switch with no up ports and d not below it has no route (LFT_NO_ROUTE).
// Packets never turn upward after going down, so the routing is deadlock-free on one VL.
#pragma once
#include <cstdint>
#include <vector>

#include "golden/lft.h"
#include "golden/topology.h"

namespace ndr::golden {

/// Up/down d-mod-k LFTs, one per switch. Requires hosts on level-0 switches only and every
/// switch-switch cable between adjacent levels; throws std::invalid_argument otherwise (and if
/// t.validate() fails).
std::vector<lft> compute_updown_lfts(const topology& t);

/// One switch traversed by a packet: ingress port and the LFT's egress port.
struct route_hop {
    uint32_t sw = 0;
    uint16_t in_port = 0;
    uint16_t out_port = 0;
};

/// Follows the LFTs from src_host to dst_host. Returns the switches traversed in order (empty
/// if src_host == dst_host: the HCA loops the packet back). Throws std::invalid_argument for a
/// host index >= t.hosts or lfts.size() != t.switches.size(), and std::runtime_error if the
/// packet meets LFT_NO_ROUTE, an unconnected port, a port >= radix, the wrong host, or visits
/// more than t.switches.size() switches (a routing loop).
std::vector<route_hop> route(const topology& t, const std::vector<lft>& lfts, uint32_t src_host,
                             uint32_t dst_host);

/// Dally & Seitz check: builds the channel dependency graph over all ordered host pairs (a
/// channel is a directed cable: host->switch injection or switch output port; edge c1 -> c2
/// when a route uses c2 right after c1) and returns true iff it is acyclic. Destination-based
/// routing makes this O(hosts * (hosts + switches)): routes to one destination are merged as
/// soon as they reach a switch already visited for it. A packet that meets LFT_NO_ROUTE or an
/// unconnected port ends there and adds no further edge (reachability is route()'s concern).
/// Throws std::invalid_argument if lfts.size() != t.switches.size() or t.validate() fails.
bool is_deadlock_free(const topology& t, const std::vector<lft>& lfts);

}  // namespace ndr::golden
