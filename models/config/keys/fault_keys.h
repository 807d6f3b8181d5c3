// The `fault` section: fault injection.
// Each parameter is one field here, with its default as the initialiser, and one row in
// fault_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Fault injection.
struct fault_config {
    double icrc_error_rate = 0.0;  ///< probability a packet arrives at an HCA with a bad ICRC
};

namespace detail {

/// The rows of the `fault` section; `s` is a section_keys<fault_config>
/// (config/keys/key_builders.h).
template <class Rows>
void fault_rows(Rows& s) {
    s.real_key(
        "fault.icrc_error_rate", &fault_config::icrc_error_rate,
        real_bounds{0.0, true, 1.0, false, "0 <= x < 1"},
        "probability that a packet reaches an HCA with a bad ICRC (dropped; RC retransmits)");
}

}  // namespace detail
}  // namespace ndr::cfg
