// The derived shape of a fabric: nodes, GPUs, HCAs, rails, switches per level. One function
// computes it, for report.json's `fabric` object (run_report.h) and for `ndrsim config show`
// (cli_config.cpp), so that both always say the same numbers. SystemC-free.
#pragma once
#include <cstdint>
#include <string>

#include "config/sim_config.h"
#include "golden/topology.h"

namespace ndr::tb {

struct fabric_counts {
    std::string topology;   ///< the topology's description, e.g. "fat_tree(16 hosts, ...)"
    uint32_t hosts = 0;     ///< fabric hosts = HCAs
    uint32_t switches = 0;  ///< all levels
    uint32_t nodes = 0;     ///< nodes the ranks occupy (config show: hosts / hcas_per_node)
    uint32_t gpus_per_node = 1;
    uint64_t gpus = 0;  ///< nodes x gpus_per_node
    uint32_t hcas_per_node = 1;
    uint32_t rails = 1;   ///< rail_fat_tree: hcas_per_node; else 1
    uint32_t leaves = 0;  ///< switches at level 0 (a single switch is one leaf)
    uint32_t spines = 0;  ///< level 1 (spines of 2 levels, aggregations of 3)
    uint32_t cores = 0;   ///< level 2 (3 levels only)
    uint32_t levels = 0;  ///< switch levels built (= link tiers: 0 host links .. levels-1)
};

/// The topology fabric.topology builds for `hosts` hosts (single_switch, fat_tree, or
/// rail_fat_tree of hosts / rails nodes, rails = node.hcas or node.gpus) of switch.ports-port
/// switches. Throws cfg::config_error (fabric.topology) if it cannot hold them.
golden::topology build_fabric_topology(const cfg::config& c, uint32_t hosts);

/// The counts of `topo` built from `c` (node.gpus, node.hcas, fabric.topology). `nodes`: the
/// nodes the ranks occupy (a replay's node layout); 0 = every node of the fabric, hosts /
/// HCAs per node.
fabric_counts count_fabric(const cfg::config& c, const golden::topology& topo, uint32_t nodes);

}  // namespace ndr::tb
