// The `fabric` section: the fabric of `ndrsim run`. One row per key, in listing order; the
// defaults are the initialisers of `fabric_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_fabric_keys(std::vector<config_key>& keys) {
    section_keys<fabric_config> s(keys, &config::fabric);
    s.choice_key(
        "fabric.technology", &fabric_config::technology, {"ib", "roce"},
        "ib: InfiniBand (credit flow control, LFT routing, SHARP); roce: RoCEv2 over Ethernet "
        "(Ethernet/IPv4/UDP framing, PFC, ECN + DCQCN, ECMP, no SHARP); docs/roce.md");
    s.choice_key("fabric.topology", &fabric_config::topology, {"single_switch", "fat_tree"},
                 "single_switch: every host on one switch; fat_tree: folded Clos of "
                 "switch.ports-radix switches with up/down (d-mod-k) routing");
    s.uint_key("fabric.hosts", &fabric_config::hosts, 0, 65535,
               "hosts (one HCA each); 0 = as many as the trace has ranks");
    s.uint_key("fabric.levels", &fabric_config::levels, 2, 3,
               "fat_tree levels (2: up to ports^2/2 hosts, 3: up to ports^3/4)");
    s.unit_key(
        "fabric.tier1_cable_length", &fabric_config::tier1_cable_length, CABLE_RANGE, cable,
        "leaf-spine cable length; docs/domain.md §13 'Cable' (30-100 m optics between tiers)");
    s.unit_key("fabric.tier2_cable_length", &fabric_config::tier2_cable_length, CABLE_RANGE, cable,
               "spine-core cable length (3-level fat tree); docs/domain.md §13 'Cable'");
}

}  // namespace ndr::cfg::detail
