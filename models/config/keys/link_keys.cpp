// The `link` section: one physical link (both directions). One row per key, in listing order; the
// defaults are the initialisers of `link_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_link_keys(std::vector<config_key>& keys) {
    section_keys<link_config> s(keys, &config::link);
    s.unit_key(
        "link.rate", &link_config::rate, "> 0", positive,
        "data rate per link direction; docs/domain.md §13 'Port data rate' (4x NDR 400 Gb/s, §5)");
    s.unit_key("link.fec_latency", &link_config::fec_latency, LATENCY_RANGE, latency,
               "FEC + PHY latency per link; docs/domain.md §13 'FEC + PHY per link' (RS(544,514) "
               "100 ns; low-latency FEC 50 ns; DAC without FEC 0)");
    s.unit_key("link.cable_length", &link_config::cable_length, CABLE_RANGE, cable,
               "cable length of every link; docs/domain.md §13 'Cable' (2-3 m DAC in rack; 30-100 "
               "m optics between tiers)");
    s.unit_key(
        "link.propagation_per_m", &link_config::propagation_per_m, LATENCY_RANGE, latency,
        "signal propagation time per metre of cable; docs/domain.md §13 'Cable' (5 ns/m, §5)");
    s.unit_key("link.fc_processing", &link_config::fc_processing, LATENCY_RANGE, latency,
               "time to generate or consume an FC packet, at each end; docs/domain.md §13 'FC "
               "packet processing' (2-4 cycles, ~5 ns)");
    s.unit_key("link.fc_refresh_period", &link_config::fc_refresh_period, "> 0", positive,
               "forced per-VL flow-control refresh period; docs/domain.md §13 'FC update policy' "
               "(4.096 us, §2.3)");
    s.unit_key(
        "link.fc_min_interval", &link_config::fc_min_interval, LATENCY_RANGE, latency,
        "at most one FC packet per port and VL per this interval (FC packets cost wire time; a "
        "change inside it goes out when it expires); 10 ns is a choice, 0 = every cycle");
}

}  // namespace ndr::cfg::detail
