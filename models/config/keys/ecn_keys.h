// The `ecn` section: ECN marking at the switch egress, fabric.technology = roce.
// Each parameter is one field here, with its default as the initialiser, and one row in
// ecn_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// ECN marking at the switch egress (RED-like), fabric.technology = roce.
struct ecn_config {
    bool enabled = true;
    bytes_t kmin{150 * 1024};   ///< no marking below (NVIDIA Onyx/Cumulus RoCE default 150 KB)
    bytes_t kmax{1500 * 1024};  ///< mark every packet above (same default: 1500 KB)
    double pmax = 1.0;          ///< marking probability at Kmax (*soft*: not in the sources)
};

namespace detail {

/// The rows of the `ecn` section; `s` is a section_keys<ecn_config> (config/keys/key_builders.h).
template <class Rows>
void ecn_rows(Rows& s) {
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

}  // namespace detail
}  // namespace ndr::cfg
