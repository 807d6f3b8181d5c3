// Exact parsing and printing of unit-bearing config values. Decimal fractions are computed in
// integer arithmetic, so `1.28ns` is exactly 1280 ps and `4.096us` exactly 4'096'000 ps; a value
// that is not a whole number of the base unit (`1.2345ps`, `0.5B`) is rejected, never rounded.
//
// Units (case-sensitive; optional spaces between number and unit):
//   size    B, KiB, MiB, GiB (1024^n), KB, MB, GB (1000^n); a plain integer is bytes
//   time    ps, ns, us, ms, s; a unit is required
//   rate    bps, Kbps, Mbps, Gbps, Tbps (bits/s); KBps, MBps, GBps, TBps (bytes/s)
//   length  mm, cm, m, km
// Errors throw `config_error` carrying only a reason (no key): the caller adds key and source.
#pragma once
#include <string>
#include <string_view>

#include "config/units.h"

namespace ndr::cfg {

bytes_t parse_bytes(std::string_view text);
time_ps_t parse_time(std::string_view text);
rate_bps_t parse_rate(std::string_view text);
length_mm_t parse_length(std::string_view text);

/// Largest binary unit with at most 3 exact decimals (`32KiB`, `1.5KiB`), else a whole decimal
/// unit (`2KB`), else bytes (`4160B`).
std::string format_bytes(bytes_t v);
/// Largest unit with value >= 1 and at most 3 exact decimals: `300ns`, `4.096us`, `1.28ns`.
std::string format_time(time_ps_t v);
/// As format_time, in bits per second: `400Gbps`, `1.6Tbps`.
std::string format_rate(rate_bps_t v);
/// As format_time, in metric lengths: `3m`, `25cm`, `1.5km`.
std::string format_length(length_mm_t v);

}  // namespace ndr::cfg
