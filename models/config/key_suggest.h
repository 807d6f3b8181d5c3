// "Did you mean ...?" for unknown configuration keys.
#pragma once
#include <string>
#include <string_view>

namespace ndr::cfg {

/// The registry key or section name closest to `unknown` (case-insensitive edit distance,
/// also matching a bare field name such as `ports` to `switch.ports`), or "" if nothing is
/// close enough to be a likely typo.
std::string suggest_key(std::string_view unknown);

/// The reason for an unknown key: `unknown key, did you mean switch.ports?` or
/// `unknown key (see docs/configuration.md or 'ndrsim config keys')`.
std::string unknown_key_reason(std::string_view unknown);

}  // namespace ndr::cfg
