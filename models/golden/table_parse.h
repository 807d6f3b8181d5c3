// Small text helpers shared by the golden table parsers (SL2VL, VL arbitration).
#pragma once
#include <string_view>

namespace ndr::golden {

/// s without leading and trailing white space.
std::string_view trim(std::string_view s);
/// Decimal digits only (at most 3), value <= max_value; false otherwise (out unchanged).
bool parse_small_uint(std::string_view s, unsigned max_value, unsigned& out);

}  // namespace ndr::golden
