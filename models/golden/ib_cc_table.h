// The CongestionControlTable of an InfiniBand CA (IBTA Annex A10): entry i holds a 2-bit shift
// and a 14-bit multiplier; the injection-rate delay (IRD) it selects is multiplier x 2^shift
// units (cc.ird_unit). OpenSM's cc_cct option writes the table as `shift:multiplier,...`; the
// default table here is linear, entry i = 0:i for i = 0..127 (docs/congestion.md).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ndr::golden {

struct cct_entry {
    uint8_t shift = 0;        ///< 0..3
    uint16_t multiplier = 0;  ///< 0..16383
};

/// Entries of the default table.
constexpr uint32_t CCT_DEFAULT_ENTRIES = 128;

/// The linear default table: entry i = shift 0, multiplier i, for i < `entries`.
std::vector<cct_entry> cct_default(uint32_t entries = CCT_DEFAULT_ENTRIES);
/// "" when `text` is a valid table (empty: the default), else what is wrong with it.
std::string cct_check(std::string_view text);
/// The table `text` describes (empty: cct_default()); throws std::invalid_argument.
std::vector<cct_entry> cct_parse(std::string_view text);
/// Delay of every entry, in picoseconds: multiplier x 2^shift x `unit_ps`.
std::vector<uint64_t> cct_delays_ps(const std::vector<cct_entry>& table, uint64_t unit_ps);

}  // namespace ndr::golden
