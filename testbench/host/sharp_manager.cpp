#include "sharp_manager.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "common/timing.h"
#include "golden/vl_arb.h"

namespace ndr::tb {

std::string sharp_tree::describe() const {
    return fmt::format("tree {}: {} level(s), {} switch(es), root sw{}", id, levels,
                       switches.size(), root_switch);
}

sharp_manager::sharp_manager(const cfg::config& c, fabric& f)
    : sharp_manager(c, f.topology(), f.timing().cycle_ps,
                    [&f](uint32_t sw, uint32_t osts, uint32_t ost_bytes, uint32_t alu,
                         common::sharp_payloads* p, uint8_t vl) -> common::sharp_an& {
                        return f.switches()[sw]->enable_sharp(osts, ost_bytes, alu, p, vl);
                    }) {}

namespace {
/// SHARP results compete for the output link through VL arbitration on sharp.vl, so that VL
/// needs an entry of nonzero weight (common::ib_ports::set_local_source).
bool sharp_vl_weighted(const cfg::config& c) {
    const golden::vl_arb_table t =
        golden::vl_arb_table::parse(c.sw.vl_arb_high, c.sw.vl_arb_low,
                                    static_cast<uint8_t>(c.sw.vl_arb_limit_of_high), c.sw.vls);
    const auto has = [&](const std::vector<golden::vl_arb_entry>& es) {
        return std::any_of(es.begin(), es.end(), [&](const golden::vl_arb_entry& e) {
            return e.vl == c.sharp.vl && e.weight > 0;
        });
    };
    return has(t.high) || has(t.low);
}
}  // namespace

sharp_manager::sharp_manager(const cfg::config& c, const golden::topology& topo, uint64_t cycle_ps,
                             const enable_fn& enable)
    : cfg_(c),
      topo_(topo),
      nodes_(topo.switches.size(), nullptr),
      trees_on_switch_(topo.switches.size(), 0),
      sat_on_switch_(topo.switches.size(), 0) {
    trees_per_node_ = std::max<uint32_t>(1, c.sharp.osts / c.sharp.osts_per_tree);
    if (c.sharp.vl >= c.sw.vls) return;         // no SHARP VL: every sharp collective falls back
    if (!sharp_vl_weighted(c)) return;          // SHARP results could never win VL arbitration
    if (c.fabric.technology == "roce") return;  // Ethernet switches: no aggregation nodes
    const uint32_t alu = common::ps_to_cycles(c.sharp.alu_latency.ps, cycle_ps, 0);
    // ALU throughput in bytes per datapath cycle (docs/architecture.md "SHARP aggregation node").
    const double alu_bpc = static_cast<double>(c.sharp.alu_bandwidth.bps) / 8.0 *
                           static_cast<double>(cycle_ps) * 1e-12;
    for (uint32_t s = 0; s < nodes_.size(); ++s) {
        nodes_[s] = &enable(s, c.sharp.osts, static_cast<uint32_t>(c.sharp.ost_bytes.count), alu,
                            &payloads_, static_cast<uint8_t>(c.sharp.vl));
        nodes_[s]->set_alu_bytes_per_cycle(alu_bpc);
    }
}

void sharp_manager::set_reduction(uint32_t tree, golden::red_op op, golden::red_type type) {
    for (uint32_t s : trees_[tree].switches) nodes_[s]->set_reduction(tree, op, type);
}

const sharp_tree* sharp_manager::tree_for(uint32_t comm, const std::vector<uint32_t>& hosts,
                                          std::string& why) {
    if (cfg_.fabric.technology == "roce") {
        why = "fabric.technology roce: Ethernet switches have no SHARP aggregation";
        return nullptr;
    }
    if (cfg_.sharp.vl >= cfg_.sw.vls) {
        why =
            fmt::format("sharp.vl {} is not a data VL (switch.vls {})", cfg_.sharp.vl, cfg_.sw.vls);
        return nullptr;
    }
    if (!sharp_vl_weighted(cfg_)) {
        why = fmt::format(
            "sharp.vl {} has no entry of nonzero weight in switch.vl_arb_high / "
            "switch.vl_arb_low (SHARP results leave through VL arbitration)",
            cfg_.sharp.vl);
        return nullptr;
    }
    const auto found = tree_of_comm_.find(comm);
    if (found != tree_of_comm_.end()) return &trees_[found->second];
    if (trees_.size() >= cfg_.sharp.max_trees) {
        why = fmt::format("all {} SHARP trees of the subnet are in use (sharp.max_trees)",
                          cfg_.sharp.max_trees);
        return nullptr;
    }
    const golden::topology& topo = topo_;
    sharp_tree tree;
    tree.id = static_cast<uint32_t>(trees_.size());
    // Leaves and their host children, in port order.
    std::map<uint32_t, std::vector<std::pair<uint16_t, uint32_t>>>
        leaf_hosts;  // leaf -> (port, host)
    for (uint32_t h : hosts) {
        const golden::topo_port_ref& at = topo.host_attach[h];
        leaf_hosts[at.node].push_back({at.port, h});
    }
    std::map<uint32_t, common::sharp_tree_node> nodes;
    std::set<uint32_t> level_nodes;
    for (auto& [leaf, list] : leaf_hosts) {
        std::sort(list.begin(), list.end());
        common::sharp_tree_node n;
        n.tree = tree.id;
        n.level = 0;
        for (const auto& [port, host] : list) {
            n.child_ports.push_back(port);
            n.port_of_host[host] = port;
            tree.children[leaf].push_back(sharp_tree::child{true, host});
        }
        nodes[leaf] = std::move(n);
        level_nodes.insert(leaf);
    }
    uint32_t level = 0;
    while (level_nodes.size() > 1) {
        // Each node picks the up-neighbour at position comm mod (its up-neighbours): in a
        // fat tree this lands every pod on the same plane, so the next level shares parents.
        std::map<uint32_t, std::vector<uint32_t>> parent_children;
        for (uint32_t s : level_nodes) {
            std::vector<uint32_t> ups;
            for (const golden::topo_peer& pe : topo.switches[s].peers) {
                if (pe.kind == golden::topo_peer_kind::sw && topo.switches[pe.node].level > level &&
                    std::find(ups.begin(), ups.end(), pe.node) == ups.end()) {
                    ups.push_back(pe.node);
                }
            }
            if (ups.empty()) {
                why = fmt::format("switch {} has no uplink towards a common SHARP root", s);
                return nullptr;
            }
            std::sort(ups.begin(), ups.end());
            parent_children[ups[comm % ups.size()]].push_back(s);
        }
        std::set<uint32_t> next;
        for (auto& [parent, kids] : parent_children) {
            common::sharp_tree_node pn;
            pn.tree = tree.id;
            pn.level = level + 1;
            for (uint32_t kid : kids) {
                // First cable between kid and parent.
                const auto& peers = topo.switches[kid].peers;
                for (uint16_t p = 0; p < peers.size(); ++p) {
                    if (peers[p].kind == golden::topo_peer_kind::sw && peers[p].node == parent) {
                        nodes[kid].parent_port = p;
                        pn.child_ports.push_back(peers[p].port);
                        for (const auto& [host, port] : nodes[kid].port_of_host) {
                            (void)port;
                            pn.port_of_host[host] = peers[p].port;
                        }
                        break;
                    }
                }
                tree.children[parent].push_back(sharp_tree::child{false, kid});
            }
            nodes[parent] = std::move(pn);
            next.insert(parent);
        }
        level_nodes = next;
        ++level;
    }
    // Resources: every switch of the tree must have OSTs for one more tree.
    for (const auto& [s, n] : nodes) {
        (void)n;
        if (trees_on_switch_[s] + 1 > trees_per_node_) {
            why = fmt::format(
                "switch {} already holds {} SHARP trees; sharp.osts {} / sharp.osts_per_tree {} "
                "allows {}",
                s, trees_on_switch_[s], cfg_.sharp.osts, cfg_.sharp.osts_per_tree, trees_per_node_);
            return nullptr;
        }
    }
    for (auto& [s, n] : nodes) {
        ++trees_on_switch_[s];
        for (uint16_t p : n.child_ports) tree.ports.emplace_back(s, p);
        if (n.parent_port >= 0) tree.ports.emplace_back(s, static_cast<uint16_t>(n.parent_port));
        tree.switches.push_back(s);
        nodes_[s]->add_tree(std::move(n));
    }
    tree.levels = level + 1;
    tree.root_switch = *level_nodes.begin();
    tree_of_comm_[comm] = tree.id;
    trees_.push_back(std::move(tree));
    return &trees_.back();
}

bool sharp_manager::sat_acquire(uint32_t tree, std::string& why) {
    const sharp_tree& tr = trees_.at(tree);
    for (uint32_t s : tr.switches) {
        if (sat_on_switch_[s] >= cfg_.sharp.sat_per_switch) {
            why = fmt::format("switch {} runs {} streaming aggregations (sharp.sat_per_switch {})",
                              s, sat_on_switch_[s], cfg_.sharp.sat_per_switch);
            return false;
        }
    }
    for (const auto& sp : tr.ports) {
        const auto it = sat_on_port_.find(sp);
        if (it != sat_on_port_.end() && it->second >= cfg_.sharp.sat_per_port) {
            why = fmt::format(
                "switch {} port {} carries {} streaming aggregations "
                "(sharp.sat_per_port {})",
                sp.first, sp.second, it->second, cfg_.sharp.sat_per_port);
            return false;
        }
    }
    for (uint32_t s : tr.switches) ++sat_on_switch_[s];
    for (const auto& sp : tr.ports) ++sat_on_port_[sp];
    return true;
}

void sharp_manager::sat_release(uint32_t tree) {
    const sharp_tree& tr = trees_.at(tree);
    for (uint32_t s : tr.switches) --sat_on_switch_[s];
    for (const auto& sp : tr.ports) --sat_on_port_[sp];
}

}  // namespace ndr::tb
