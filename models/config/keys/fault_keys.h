// The `fault` section: fault injection.
// Each parameter is one field here, with its default as the initialiser, and one row in
// fault_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Fault injection.
struct fault_config {
    double icrc_error_rate = 0.0;  ///< probability a packet arrives at an HCA with a bad ICRC
    /// `LINK@TIME` entries: the cable LINK (a links[] name, either direction) goes down at TIME.
    std::vector<std::string> link_down;
    /// Link down -> the subnet manager's new LFTs in every switch: 2 ms (*soft*, docs/domain.md
    /// §4 'Link faults': SHIELD-class recovery; an SM heavy sweep of a large fabric takes 10-20 s).
    time_ps_t reroute_delay{2'000'000'000};
};

namespace detail {

/// One `fault.link_down` item's syntax ("" = valid); config/link_down_spec.h.
std::string link_down_syntax(const std::string& item);

/// The rows of the `fault` section; `s` is a section_keys<fault_config>
/// (config/keys/key_builders.h).
template <class Rows>
void fault_rows(Rows& s) {
    s.real_key(
        "fault.icrc_error_rate", &fault_config::icrc_error_rate,
        real_bounds{0.0, true, 1.0, false, "0 <= x < 1"},
        "probability that a packet reaches an HCA with a bad ICRC (dropped; RC retransmits)");
    s.list_key("fault.link_down", &fault_config::link_down, "LINK@TIME[,LINK@TIME...]",
               link_down_syntax,
               "repeatable: the switch-to-switch cable LINK (named by either direction as in "
               "report.json links[], e.g. sw0.p4->sw4.p0) goes down at TIME (e.g. 50us): packets "
               "whose header reaches either end from then on are lost, RC retransmits them, and "
               "fault.reroute_delay later every switch gets LFTs (RoCE: and ECMP sets) that "
               "avoid it (cycle level only; docs/routing.md 'Link faults')");
    s.unit_key(
        "fault.reroute_delay", &fault_config::reroute_delay, "0..60s",
        [](uint64_t ps) {
            return std::string(ps > 60'000'000'000'000 ? "must be at most 60s" : "");
        },
        "time from a fault.link_down until the subnet manager's rerouted LFTs are in "
        "every switch; soft: docs/domain.md §4 'Link faults' (SHIELD-class ms recovery; "
        "an OpenSM heavy sweep of a large fabric takes seconds)");
}

}  // namespace detail
}  // namespace ndr::cfg
