#include "config/unit_parse.h"

#include <array>
#include <cstdint>
#include <limits>
#include <numeric>

#include "config/config_error.h"

namespace ndr::cfg {
namespace {

struct unit_def {
    std::string_view name;
    uint64_t factor;      ///< base units per one of this unit
    int format_decimals;  ///< decimals allowed when printing; -1 = never printed
};

struct quantity {
    std::string_view what;       ///< "size"
    std::string_view example;    ///< "32KiB"
    std::string_view base_name;  ///< "bytes" (for precision errors)
    std::string_view base_unit;  ///< "B"
    std::string_view unit_list;  ///< for error messages
    std::string_view zero;       ///< how 0 prints
    bool plain_allowed;          ///< a bare number is in the base unit
    const unit_def* units;       ///< in printing preference order
    size_t unit_count;
};

constexpr uint64_t KI = 1024;
constexpr std::array<unit_def, 7> SIZE_UNITS{{
    {"GiB", KI* KI* KI, 3},
    {"MiB", KI* KI, 3},
    {"KiB", KI, 3},
    {"GB", 1'000'000'000, 0},
    {"MB", 1'000'000, 0},
    {"KB", 1'000, 0},
    {"B", 1, 0},
}};
constexpr std::array<unit_def, 5> TIME_UNITS{{
    {"s", 1'000'000'000'000, 3},
    {"ms", 1'000'000'000, 3},
    {"us", 1'000'000, 3},
    {"ns", 1'000, 3},
    {"ps", 1, 0},
}};
constexpr std::array<unit_def, 9> RATE_UNITS{{
    {"Tbps", 1'000'000'000'000, 3},
    {"Gbps", 1'000'000'000, 3},
    {"Mbps", 1'000'000, 3},
    {"Kbps", 1'000, 3},
    {"bps", 1, 0},
    {"TBps", 8'000'000'000'000, -1},
    {"GBps", 8'000'000'000, -1},
    {"MBps", 8'000'000, -1},
    {"KBps", 8'000, -1},
}};
constexpr std::array<unit_def, 4> LENGTH_UNITS{{
    {"km", 1'000'000, 3},
    {"m", 1'000, 3},
    {"cm", 10, 1},
    {"mm", 1, 0},
}};

const quantity SIZE{"size",
                    "32KiB",
                    "bytes",
                    "B",
                    "B, KiB, MiB, GiB, KB, MB, GB; plain number = B",
                    "0B",
                    true,
                    SIZE_UNITS.data(),
                    SIZE_UNITS.size()};
const quantity TIME{"time", "300ns",           "picoseconds",    "ps", "ps, ns, us, ms, s", "0ns",
                    false,  TIME_UNITS.data(), TIME_UNITS.size()};
const quantity RATE{"rate",
                    "400Gbps",
                    "bits per second",
                    "bps",
                    "bps, Kbps, Mbps, Gbps, Tbps, KBps, MBps, GBps, TBps",
                    "0bps",
                    false,
                    RATE_UNITS.data(),
                    RATE_UNITS.size()};
const quantity LENGTH{"length",           "3m", "millimetres", "mm",
                      "mm, cm, m, km",    "0m", false,         LENGTH_UNITS.data(),
                      LENGTH_UNITS.size()};

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_space(char c) {
    return c == ' ' || c == '\t';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

[[noreturn]] void fail_syntax(const quantity& q, std::string_view text) {
    throw config_error("expected a " + std::string(q.what) + " like " + std::string(q.example) +
                       ", got '" + std::string(text) + "' (units: " + std::string(q.unit_list) +
                       ")");
}

[[noreturn]] void fail_too_large(const quantity& q, std::string_view text) {
    throw config_error("'" + std::string(text) + "' is too large for a " + std::string(q.what) +
                       " (at most 2^64-1 " + std::string(q.base_name) + ")");
}

/// Decimal digits to an integer; false on overflow.
bool digits_to_u64(std::string_view digits, uint64_t& out) {
    out = 0;
    for (char c : digits) {
        const auto d = static_cast<uint64_t>(c - '0');
        if (__builtin_mul_overflow(out, uint64_t{10}, &out)) return false;
        if (__builtin_add_overflow(out, d, &out)) return false;
    }
    return true;
}

uint64_t pow10(size_t n) {
    uint64_t p = 1;
    for (size_t i = 0; i < n; ++i) p *= 10;
    return p;
}

uint64_t parse_quantity(const quantity& q, std::string_view raw) {
    const std::string_view text = trim(raw);
    if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
        if (text.front() == '-')
            throw config_error("a " + std::string(q.what) + " cannot be negative, got '" +
                               std::string(text) + "'");
        fail_syntax(q, text);
    }
    size_t pos = 0;
    while (pos < text.size() && is_digit(text[pos])) ++pos;
    const std::string_view int_digits = text.substr(0, pos);
    std::string_view frac_digits;
    if (pos < text.size() && text[pos] == '.') {
        const size_t start = ++pos;
        while (pos < text.size() && is_digit(text[pos])) ++pos;
        frac_digits = text.substr(start, pos - start);
        if (frac_digits.empty()) fail_syntax(q, text);
    }
    if (int_digits.empty()) fail_syntax(q, text);
    const std::string_view unit = trim(text.substr(pos));

    uint64_t factor = 1;
    if (unit.empty()) {
        if (!q.plain_allowed)
            throw config_error("a " + std::string(q.what) + " needs a unit, e.g. " +
                               std::string(q.example) + ", got '" + std::string(text) +
                               "' (units: " + std::string(q.unit_list) + ")");
    } else {
        bool found = false;
        for (size_t i = 0; i < q.unit_count; ++i) {
            if (q.units[i].name == unit) {
                factor = q.units[i].factor;
                found = true;
                break;
            }
        }
        if (!found) fail_syntax(q, text);
    }

    // value = (int . frac) * factor, exactly: num / 10^k * factor.
    while (!frac_digits.empty() && frac_digits.back() == '0') frac_digits.remove_suffix(1);
    const size_t k = frac_digits.size();
    const std::string precision_reason =
        "'" + std::string(text) + "' is not a whole number of " + std::string(q.base_name) +
        " (the resolution of a " + std::string(q.what) + " is 1 " + std::string(q.base_unit) + ")";
    // Fraction digits beyond 18 cannot be exact for any factor used here (all <= 8e12).
    if (k > 18) throw config_error(precision_reason);
    uint64_t int_part = 0;
    uint64_t frac_part = 0;
    if (!digits_to_u64(int_digits, int_part) || !digits_to_u64(frac_digits, frac_part))
        fail_too_large(q, text);
    const uint64_t scale = pow10(k);
    uint64_t num = 0;
    if (__builtin_mul_overflow(int_part, scale, &num) ||
        __builtin_add_overflow(num, frac_part, &num))
        fail_too_large(q, text);
    const uint64_t g = std::gcd(factor, scale);
    const uint64_t den = scale / g;
    if (num % den != 0) throw config_error(precision_reason);
    uint64_t result = 0;
    if (__builtin_mul_overflow(num / den, factor / g, &result)) fail_too_large(q, text);
    return result;
}

std::string format_quantity(const quantity& q, uint64_t v) {
    if (v == 0) return std::string(q.zero);
    for (size_t i = 0; i < q.unit_count; ++i) {
        const unit_def& u = q.units[i];
        if (u.format_decimals < 0 || v < u.factor) continue;
        const uint64_t whole = v / u.factor;
        const uint64_t rem = v % u.factor;
        const uint64_t scale = pow10(static_cast<size_t>(u.format_decimals));
        // rem < factor <= 1e12 and scale <= 1000: no overflow.
        if ((rem * scale) % u.factor != 0) continue;
        std::string out = std::to_string(whole);
        if (rem != 0) {
            std::string frac = std::to_string(rem * scale / u.factor);
            frac.insert(0, static_cast<size_t>(u.format_decimals) - frac.size(), '0');
            while (!frac.empty() && frac.back() == '0') frac.pop_back();
            out += "." + frac;
        }
        return out + std::string(u.name);
    }
    // Unreachable: every quantity has a printable unit of factor 1.
    return std::to_string(v) + std::string(q.base_unit);
}

}  // namespace

bytes_t parse_bytes(std::string_view text) {
    return bytes_t{parse_quantity(SIZE, text)};
}
time_ps_t parse_time(std::string_view text) {
    return time_ps_t{parse_quantity(TIME, text)};
}
rate_bps_t parse_rate(std::string_view text) {
    return rate_bps_t{parse_quantity(RATE, text)};
}
length_mm_t parse_length(std::string_view text) {
    return length_mm_t{parse_quantity(LENGTH, text)};
}

std::string format_bytes(bytes_t v) {
    return format_quantity(SIZE, v.count);
}
std::string format_time(time_ps_t v) {
    return format_quantity(TIME, v.ps);
}
std::string format_rate(rate_bps_t v) {
    return format_quantity(RATE, v.bps);
}
std::string format_length(length_mm_t v) {
    return format_quantity(LENGTH, v.mm);
}

}  // namespace ndr::cfg
