#include "fabric_counts.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "config/config_error.h"

namespace ndr::tb {

golden::topology build_fabric_topology(const cfg::config& c, uint32_t hosts) {
    const uint32_t radix = c.sw.ports;
    try {
        if (c.fabric.topology == "rail_fat_tree") {
            // Rail k of every node (node.hcas rails; host n * rails + k is HCA k of node n).
            const uint32_t rails = c.node.hcas != 0 ? c.node.hcas : c.node.gpus;
            if (hosts % rails != 0) {
                throw std::invalid_argument(
                    fmt::format("{} hosts are not whole nodes of {} HCAs", hosts, rails));
            }
            return golden::build_rail_fat_tree(hosts / rails, rails, radix, c.fabric.levels);
        }
        return c.fabric.topology == "fat_tree"
                   ? golden::build_fat_tree(hosts, radix, c.fabric.levels)
                   : golden::build_single_switch(hosts, radix);
    } catch (const std::invalid_argument& e) {
        throw cfg::config_error(
            cfg::config_source::merged(), "fabric.topology",
            fmt::format("cannot build {} for {} hosts with {}-port switches: {}", c.fabric.topology,
                        hosts, radix, e.what()));
    }
}

fabric_counts count_fabric(const cfg::config& c, const golden::topology& topo, uint32_t nodes) {
    fabric_counts f;
    f.topology = topo.name;
    f.hosts = topo.hosts;
    f.switches = static_cast<uint32_t>(topo.switches.size());
    f.gpus_per_node = c.node.gpus;
    f.hcas_per_node = c.node.hcas != 0 ? c.node.hcas : c.node.gpus;
    f.nodes = nodes != 0 ? nodes : topo.hosts / std::max<uint32_t>(1, f.hcas_per_node);
    f.gpus = uint64_t{f.nodes} * f.gpus_per_node;
    f.rails = c.fabric.topology == "rail_fat_tree" ? f.hcas_per_node : 1;
    uint32_t per_level[3] = {0, 0, 0};
    for (const golden::topo_switch& s : topo.switches) ++per_level[std::min<uint32_t>(s.level, 2)];
    f.leaves = per_level[0];
    f.spines = per_level[1];
    f.cores = per_level[2];
    f.levels = topo.levels;
    return f;
}

}  // namespace ndr::tb
