// The weighted-mix syntax of `traffic.size` and `traffic.sl`: `N` or `N@w,M@w,...`.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

namespace ndr::cfg {

struct weighted_value {
    uint64_t value = 0;   ///< e.g. payload bytes or an SL
    double weight = 1.0;  ///< relative weight, > 0; an item without `@w` has weight 1
};

/// Parses `N` or `N@w,M@w,...` (whitespace around items ignored). Every value must be in
/// lo..hi, every weight a finite number > 0. Throws `config_error` with a reason only.
std::vector<weighted_value> parse_weighted_list(std::string_view text, uint64_t lo, uint64_t hi);

}  // namespace ndr::cfg
