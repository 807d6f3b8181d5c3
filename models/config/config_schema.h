// The single registry of every configuration key: `section.field` (the C++ member `sw` is the
// YAML section `switch`), kind, unit, range and help, one row per key in the header of its
// section (config/keys/SECTION_keys.h). The loader, `ndrsim config show/keys`, JSON reports
// and docs/configuration.md all follow this list and its order.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "config/config_key.h"

namespace ndr::cfg {

/// Every key, in section order (link, switch, endpoint, traffic, sim, fabric, node, hca, fault,
/// collective, sharp, pfc, ecn, dcqcn, cc) then row order.
const std::vector<config_key>& config_schema();

/// The entry for a dotted key, or nullptr if there is none.
const config_key* find_config_key(std::string_view key);

/// The YAML section names in that order (the keys' prefixes).
const std::vector<std::string>& config_sections();

}  // namespace ndr::cfg
