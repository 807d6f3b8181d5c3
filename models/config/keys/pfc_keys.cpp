// The `pfc` section: priority flow control, fabric.technology = roce (docs/roce.md). One row per
// key, in listing order; the defaults are the initialisers of `pfc_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_pfc_keys(std::vector<config_key>& keys) {
    section_keys<pfc_config> s(keys, &config::pfc);
    s.bool_key("pfc.enabled", &pfc_config::enabled,
               "roce: per-priority PAUSE (IEEE 802.1Qbb) keeps the fabric lossless; false = no "
               "PAUSE (a buffer overflow is then reported as an error)");
    s.unit_key("pfc.reaction_time", &pfc_config::reaction_time, "any", nullptr,
               "roce: PAUSE received to sender stopped (MAC/PHY response); enters the headroom "
               "(docs/roce.md), a choice");
    s.unit_key("pfc.xon_gap", &pfc_config::xon_gap, "any", nullptr,
               "roce: XON threshold = XOFF - xon_gap (hysteresis between PAUSE and resume)");
}

}  // namespace ndr::cfg::detail
