// The `fault` section: fault injection. One row per key, in listing order; the
// defaults are the initialisers of `fault_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_fault_keys(std::vector<config_key>& keys) {
    section_keys<fault_config> s(keys, &config::fault);
    s.real_key(
        "fault.icrc_error_rate", &fault_config::icrc_error_rate,
        real_bounds{0.0, true, 1.0, false, "0 <= x < 1"},
        "probability that a packet reaches an HCA with a bad ICRC (dropped; RC retransmits)");
}

}  // namespace ndr::cfg::detail
