// Parsing of the unit-less config values: whole numbers, real numbers, booleans. Errors throw
// `config_error` carrying only a reason; the caller adds key and source.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace ndr::cfg {

/// Decimal digits only (`64`, `100000`); no sign, fraction or exponent. At most `max`.
uint64_t parse_uint(std::string_view text, uint64_t max = UINT64_MAX);
/// A finite decimal number: `1.25`, `0.5`, `1`, `2e-1`.
double parse_real(std::string_view text);
/// `true` or `false`.
bool parse_bool(std::string_view text);

/// Shortest text that parses back to the same double (`1.25`, `0.2`, `1`).
std::string format_real(double v);

}  // namespace ndr::cfg
