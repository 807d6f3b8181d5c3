// The `link` section: one physical link (both directions).
// Each parameter is one field here, with its default as the initialiser, and one row in
// link_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// One physical link (both directions are identical).
struct link_config {
    rate_bps_t rate{400'000'000'000ULL};     ///< data rate per direction, 4x NDR (§5)
    time_ps_t fec_latency{100'000};          ///< FEC + PHY per link, RS(544,514) (§13)
    length_mm_t cable_length{3'000};         ///< cable length (§13: 2-3 m DAC in rack)
    time_ps_t propagation_per_m{5'000};      ///< signal propagation per metre of cable (§5)
    time_ps_t fc_processing{5'000};          ///< FC packet generate+consume, both ends (§13)
    time_ps_t fc_refresh_period{4'096'000};  ///< forced per-VL FC refresh (§2.3)
    time_ps_t fc_min_interval{10'000};       ///< at most one FC packet per VL per this (*choice*)
};

namespace detail {

/// The rows of the `link` section; `s` is a section_keys<link_config> (config/keys/key_builders.h).
template <class Rows>
void link_rows(Rows& s) {
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

}  // namespace detail
}  // namespace ndr::cfg
