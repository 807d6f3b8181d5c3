// The `fabric` section: the fabric of `ndrsim run`.
// Each parameter is one field here, with its default as the initialiser, and one row in
// fabric_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// The fabric of `ndrsim run`: hosts (one HCA each) and switches.
struct fabric_config {
    std::string technology = "ib";            ///< `ib` (InfiniBand, credits, LFT) | `roce`
                                              ///< (RoCEv2 Ethernet: PFC, ECN, DCQCN, ECMP)
    std::string topology = "single_switch";   ///< `single_switch` | `fat_tree` | `rail_fat_tree`
    uint32_t hosts = 0;                       ///< 0 = as many as the trace has ranks
    uint32_t levels = 2;                      ///< fat_tree: 2 or 3 (radix = switch.ports)
    length_mm_t tier1_cable_length{30'000};   ///< leaf-spine cables (§13 'Cable': 30-100 m optics)
    length_mm_t tier2_cable_length{100'000};  ///< spine-core cables
};

namespace detail {

/// The rows of the `fabric` section; `s` is a section_keys<fabric_config>
/// (config/keys/key_builders.h).
template <class Rows>
void fabric_rows(Rows& s) {
    s.choice_key(
        "fabric.technology", &fabric_config::technology, {"ib", "roce"},
        "ib: InfiniBand (credit flow control, LFT routing, SHARP); roce: RoCEv2 over Ethernet "
        "(Ethernet/IPv4/UDP framing, PFC, ECN + DCQCN, ECMP, no SHARP); docs/roce.md");
    s.choice_key("fabric.topology", &fabric_config::topology,
                 {"single_switch", "fat_tree", "rail_fat_tree"},
                 "single_switch: every host on one switch; fat_tree: folded Clos of "
                 "switch.ports-radix switches with up/down (d-mod-k) routing; rail_fat_tree: the "
                 "same Clos, rail-optimized: HCA k of every node on the leaves of rail k "
                 "(node.hcas rails), spines join the rails; docs/domain.md §14");
    s.uint_key("fabric.hosts", &fabric_config::hosts, 0, 65535,
               "hosts (one HCA each); 0 = as many as the trace has ranks");
    s.uint_key("fabric.levels", &fabric_config::levels, 2, 3,
               "fat_tree and rail_fat_tree levels (2: up to ports^2/2 hosts, 3: up to ports^3/4)");
    s.unit_key(
        "fabric.tier1_cable_length", &fabric_config::tier1_cable_length, CABLE_RANGE, cable,
        "leaf-spine cable length; docs/domain.md §13 'Cable' (30-100 m optics between tiers)");
    s.unit_key("fabric.tier2_cable_length", &fabric_config::tier2_cable_length, CABLE_RANGE, cable,
               "spine-core cable length (3-level fat tree); docs/domain.md §13 'Cable'");
}

}  // namespace detail
}  // namespace ndr::cfg
