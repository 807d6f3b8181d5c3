// One fabric plan, computed once from the config and instantiated by every level: the topology
// (golden/topology.h), its up/down forwarding tables, the cable latency of each tier, and every
// directed hop with its latency and the receiver's buffer (the sender's initial credit limit).
// The cycle-level fabric (fabric.h), the TLM fabric (fabric_tlm.h) and the synthetic-traffic
// runs (traffic_sim.h, traffic_tlm_sim.h) only turn hops into their own connections.
// SystemC-free.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/timing.h"
#include "config/sim_config.h"
#include "fabric_faults.h"
#include "golden/lft.h"
#include "golden/topology.h"

namespace ndr::tb {

/// One end of a hop: a host (an HCA, or a traffic endpoint) or a port of a switch.
struct plan_end {
    bool host = false;
    uint32_t node = 0;  ///< host index, or switch index
    uint16_t port = 0;  ///< switch port (0 for a host)
};

/// One direction of one cable.
struct plan_hop {
    plan_end from;
    plan_end to;
    uint32_t tier = 0;         ///< 0 host-leaf, 1 leaf-spine, 2 spine-core
    uint32_t link_cycles = 1;  ///< FEC + propagation, in core cycles
    uint32_t credits = 0;      ///< blocks per VL of `to`'s receive buffer (initial credit limit)
    std::string name;          ///< for reports: "host3->sw0.p3", "sw0.p3->host3", "sw0.p40->sw4.p0"
};

struct fabric_plan {
    common::timing tm;
    golden::topology topo;
    std::vector<golden::lft> lfts;  ///< per switch
    /// Per switch: bit p = port p is cabled to a switch one level higher (the up-ports; any of
    /// them reaches a common ancestor of every destination not below the switch). The AR group
    /// of routing.ar_group = tree and RoCE's ECMP group. Empty for plan_traffic_switch.
    std::vector<uint64_t> up_ports;
    /// Per switch, per port p: the AR group of a packet whose LFT port is p (routing.ar_group
    /// = tree: the ports with minimal hops to its destination): every up-port if p is one, else
    /// the ports cabled to the same lower switch as p (parallel down links); bit p alone for a
    /// host port. Empty for plan_traffic_switch.
    std::vector<std::vector<uint64_t>> ar_groups;
    uint32_t tier_cycles[3] = {1, 1, 1};
    /// Two per cable, in topo.links order: the direction a->b first (host -> switch for a host
    /// cable), then b->a.
    std::vector<plan_hop> hops;
    /// fault.link_down: the cables taken down and the rerouted LFTs (empty without faults).
    fault_plan faults;
    /// The shortest link latency of the fabric, in cycles.
    uint32_t shortest_link_cycles() const;
};

/// `ndrsim run`: `hosts` hosts on fabric.topology (single_switch, fat_tree or rail_fat_tree: hosts
/// / node.hcas nodes of node.hcas rails) of switch.ports-port switches. Throws cfg::config_error
/// (fabric.topology) if the topology cannot hold them.
fabric_plan plan_fabric(const cfg::config& c, uint32_t hosts);

/// `ndrsim traffic`: one switch of switch.ports ports, endpoint p on port p with LID p + 1, every
/// cable link.cable_length long.
fabric_plan plan_traffic_switch(const cfg::config& c);

}  // namespace ndr::tb
