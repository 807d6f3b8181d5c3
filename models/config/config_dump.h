// Printing a configuration: as commented YAML (`ndrsim config show`; loads back to the same
// config), as flat key/value pairs (JSON reports), and the key reference (`ndrsim config keys`).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "config/sim_config.h"

namespace ndr::cfg {

/// Nested YAML of every key in schema order, values in their nicest exact unit, each line
/// followed by `# help [range: ...]`. load_config() of this text gives back `c` exactly.
std::string to_yaml(const config& c);

/// (key, formatted value) for every key, in schema order, e.g. ("switch.mtu", "4KiB").
std::vector<std::pair<std::string, std::string>> flatten(const config& c);

/// One line per key: key, default, kind and range, help.
std::string describe_keys();

}  // namespace ndr::cfg
