// The `pfc` section: priority flow control, fabric.technology = roce (docs/roce.md).
// Each parameter is one field here, with its default as the initialiser, and one row in
// pfc_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Priority flow control (IEEE 802.1Qbb), fabric.technology = roce (docs/roce.md).
struct pfc_config {
    bool enabled = true;               ///< false: no PAUSE (an overflow is then an error)
    time_ps_t reaction_time{500'000};  ///< PAUSE received -> sender stops (MAC/PHY), *soft*
    bytes_t xon_gap{8 * 1024};         ///< XON = XOFF - xon_gap (hysteresis), *choice*
};

namespace detail {

/// The rows of the `pfc` section; `s` is a section_keys<pfc_config> (config/keys/key_builders.h).
template <class Rows>
void pfc_rows(Rows& s) {
    s.bool_key("pfc.enabled", &pfc_config::enabled,
               "roce: per-priority PAUSE (IEEE 802.1Qbb) keeps the fabric lossless; false = no "
               "PAUSE (a buffer overflow is then reported as an error)");
    s.unit_key("pfc.reaction_time", &pfc_config::reaction_time, "any", nullptr,
               "roce: PAUSE received to sender stopped (MAC/PHY response); enters the headroom "
               "(docs/roce.md), a choice");
    s.unit_key("pfc.xon_gap", &pfc_config::xon_gap, "any", nullptr,
               "roce: XON threshold = XOFF - xon_gap (hysteresis between PAUSE and resume)");
}

}  // namespace detail
}  // namespace ndr::cfg
