// The `ecn` section: ECN marking at the switch egress, fabric.technology = roce. One row per key,
// in listing order; the defaults are the initialisers of `ecn_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_ecn_keys(std::vector<config_key>& keys) {
    section_keys<ecn_config> s(keys, &config::ecn);
    s.bool_key("ecn.enabled", &ecn_config::enabled,
               "roce: the switch marks ECN CE on egress queue depth (RED-like)");
    s.unit_key("ecn.kmin", &ecn_config::kmin, "any", nullptr,
               "roce: egress queue depth below which nothing is marked (NVIDIA Onyx/Cumulus RoCE "
               "default 150 KB; DCQCN paper 5 KB at 40G)");
    s.unit_key(
        "ecn.kmax", &ecn_config::kmax, "> 0", positive,
        "roce: depth above which every packet is marked; between kmin and kmax the probability "
        "rises linearly to ecn.pmax (NVIDIA RoCE default 1500 KB; paper 200 KB)");
    s.real_key("ecn.pmax", &ecn_config::pmax, real_bounds{0.0, true, 1.0, true, "0 <= x <= 1"},
               "roce: marking probability at kmax (soft: 1, linear to 100 %; DCQCN paper 1 %)");
}

}  // namespace ndr::cfg::detail
