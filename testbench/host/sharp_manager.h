// SHARP aggregation manager: one reduction tree per communicator over the fabric (one
// aggregation node per participating switch), built from the topology the way the SHARP AM
// does it for a fat tree: the members' leaf switches, then at each level up one common parent
// chosen by the communicator id, up to a single root. Enforces the resource limits
// (sharp.max_trees per subnet, sharp.osts / sharp.osts_per_tree trees per node) and the
// streaming-aggregation limits (sharp.sat_per_port, sharp.sat_per_switch): a SAT collective
// holds one SAT slot on every switch and switch port of its tree while it runs.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/sharp_an.h"
#include "config/sim_config.h"
#include "fabric.h"

namespace ndr::tb {

struct sharp_tree {
    uint32_t id = 0;
    uint32_t levels = 1;  ///< switch levels in the tree
    uint32_t root_switch = 0;
    std::vector<uint32_t> switches;  ///< every switch in the tree
    /// Reduction structure for the golden reference: per switch, its children in reduction
    /// order, each a host (is_host) or a switch.
    struct child {
        bool is_host = false;
        uint32_t node = 0;
    };
    std::map<uint32_t, std::vector<child>> children;
    /// Every (switch, port) the tree uses: children and parent of each of its nodes.
    std::vector<std::pair<uint32_t, uint16_t>> ports;
    std::string describe() const;
};

class sharp_manager {
public:
    sharp_manager(const cfg::config& c, fabric& f);
    /// Enables the aggregation node of switch `sw` (osts, ost_bytes, ALU cycles, payload
    /// store, SHARP VL) and returns it: how the manager reaches the nodes of any model level.
    using enable_fn = std::function<common::sharp_an&(
        uint32_t sw, uint32_t osts, uint32_t ost_bytes, uint32_t alu_cycles,
        common::sharp_payloads* payloads, uint8_t vl)>;
    /// The same manager over any fabric (the TLM fabric uses this one).
    sharp_manager(const cfg::config& c, const golden::topology& topo, uint64_t cycle_ps,
                  const enable_fn& enable);
    /// The tree of communicator `comm` over `hosts` (built on first use). nullopt with `why`
    /// when the resources do not allow one (the caller falls back to a host algorithm).
    const sharp_tree* tree_for(uint32_t comm, const std::vector<uint32_t>& hosts, std::string& why);
    common::sharp_payloads& payloads() { return payloads_; }
    /// The switches run SHARP (aggregation nodes enabled): not on RoCE, nor without a weighted
    /// SHARP data VL.
    bool enabled() const { return !nodes_.empty() && nodes_[0] != nullptr; }
    /// The reduction the tree's ALUs apply from now on (set when a collective starts on it).
    void set_reduction(uint32_t tree, golden::red_op op, golden::red_type type);
    const std::vector<sharp_tree>& trees() const { return trees_; }
    /// Takes the streaming-aggregation slots of `tree` (one per switch and per port of it) for
    /// a SAT collective, or returns false with `why` when a switch or port has none free.
    bool sat_acquire(uint32_t tree, std::string& why);
    /// Gives back the slots sat_acquire took.
    void sat_release(uint32_t tree);

private:
    const cfg::config& cfg_;
    const golden::topology& topo_;
    common::sharp_payloads payloads_;
    std::vector<common::sharp_an*> nodes_;  ///< per switch (nullptr: SHARP off)
    std::vector<sharp_tree> trees_;
    std::map<uint32_t, uint32_t> tree_of_comm_;
    std::vector<uint32_t> trees_on_switch_;
    std::vector<uint32_t> sat_on_switch_;  ///< active SAT collectives per switch
    std::map<std::pair<uint32_t, uint16_t>, uint32_t> sat_on_port_;  ///< ... per switch port
    uint32_t trees_per_node_;
};

}  // namespace ndr::tb
