#include "golden/ib_cc_table.h"

#include <fmt/format.h>

#include <stdexcept>

namespace ndr::golden {

namespace {

/// Parses a decimal number of at most `max`; false on anything else.
bool parse_num(std::string_view s, uint32_t max, uint32_t& out) {
    if (s.empty() || s.size() > 6) return false;
    uint32_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<uint32_t>(c - '0');
    }
    if (v > max) return false;
    out = v;
    return true;
}

std::string parse_into(std::string_view text, std::vector<cct_entry>* out) {
    if (text.empty()) {
        if (out) *out = cct_default();
        return {};
    }
    std::vector<cct_entry> t;
    std::size_t pos = 0;
    while (true) {
        const std::size_t comma = text.find(',', pos);
        const std::string_view item = text.substr(
            pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        const std::size_t colon = item.find(':');
        uint32_t shift = 0;
        uint32_t mult = 0;
        if (colon == std::string_view::npos || !parse_num(item.substr(0, colon), 3, shift) ||
            !parse_num(item.substr(colon + 1), 16383, mult)) {
            return fmt::format(
                "entry {} '{}': expected shift:multiplier (shift 0..3, multiplier "
                "0..16383)",
                t.size(), item);
        }
        t.push_back(cct_entry{static_cast<uint8_t>(shift), static_cast<uint16_t>(mult)});
        if (comma == std::string_view::npos) break;
        pos = comma + 1;
    }
    if (out) *out = std::move(t);
    return {};
}

}  // namespace

std::vector<cct_entry> cct_default(uint32_t entries) {
    std::vector<cct_entry> t(entries);
    for (uint32_t i = 0; i < entries; ++i) t[i] = cct_entry{0, static_cast<uint16_t>(i)};
    return t;
}

std::string cct_check(std::string_view text) {
    return parse_into(text, nullptr);
}

std::vector<cct_entry> cct_parse(std::string_view text) {
    std::vector<cct_entry> t;
    const std::string err = parse_into(text, &t);
    if (!err.empty()) throw std::invalid_argument(err);
    return t;
}

std::vector<uint64_t> cct_delays_ps(const std::vector<cct_entry>& table, uint64_t unit_ps) {
    std::vector<uint64_t> d(table.size());
    for (std::size_t i = 0; i < table.size(); ++i) {
        d[i] = (uint64_t{table[i].multiplier} << table[i].shift) * unit_ps;
    }
    return d;
}

}  // namespace ndr::golden
