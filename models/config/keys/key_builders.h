// Internal to models/config: the builders that turn the rows of each section (keys/SECTION_keys.h)
// into keys. A row names the dotted key, the `config` field it sets, the range and
// the help; the kind and the base unit follow from the field's type, the default is the field's
// initialiser in keys/SECTION_keys.h, and `source` is read from the docs/… citation in the help.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "config/config_error.h"
#include "config/config_key.h"
#include "config/keys/key_checks.h"
#include "config/scalar_parse.h"
#include "config/unit_parse.h"

namespace ndr::cfg::detail {

/// Accessor for `config.section.field`: the pointer-to-member pair of one key.
template <class S, class T>
struct field_ref {
    S config::*section;
    T S::*field;
    T& operator()(config& c) const { return (c.*section).*field; }
    const T& operator()(const config& c) const { return (c.*section).*field; }
};

/// A key with its descriptive fields set (and `source` taken from the help text).
config_key base(std::string key, value_kind kind, std::string unit, std::string range,
                std::string help);

/// The first `docs/NAME.md` citation in `help`, with its `§N` or `§N.M` if one follows:
/// `docs/domain.md §13`; "" if the help cites no page.
std::string cited_source(std::string_view help);

/// Completes a key: wraps the value check so that the reason also names the offending value.
void attach_check(config_key& k, std::function<std::string(const config&)> raw_check);

// Unit-bearing types: parse, print, raw integer, kind and unit per type.
void parse_into(std::string_view t, bytes_t& v);
void parse_into(std::string_view t, time_ps_t& v);
void parse_into(std::string_view t, rate_bps_t& v);
void parse_into(std::string_view t, length_mm_t& v);
std::string format_of(bytes_t v);
std::string format_of(time_ps_t v);
std::string format_of(rate_bps_t v);
std::string format_of(length_mm_t v);
inline uint64_t raw(bytes_t v) {
    return v.count;
}
inline uint64_t raw(time_ps_t v) {
    return v.ps;
}
inline uint64_t raw(rate_bps_t v) {
    return v.bps;
}
inline uint64_t raw(length_mm_t v) {
    return v.mm;
}
inline std::pair<value_kind, const char*> kind_of(bytes_t) {
    return {value_kind::bytes, "B"};
}
inline std::pair<value_kind, const char*> kind_of(time_ps_t) {
    return {value_kind::time, "ps"};
}
inline std::pair<value_kind, const char*> kind_of(rate_bps_t) {
    return {value_kind::rate, "bps"};
}
inline std::pair<value_kind, const char*> kind_of(length_mm_t) {
    return {value_kind::length, "mm"};
}

/// The rows of one `config` section: `section_keys<switch_config> s(keys, &config::sw);` then
/// one call per key, in the order `ndrsim config keys` lists them.
template <class S>
class section_keys {
public:
    section_keys(std::vector<config_key>& keys, S config::*section)
        : keys_(keys), section_(section) {}

    /// A whole number in lo..hi; the range prints as `lo..hi`, `>= lo` or `any` (when hi is the
    /// type's maximum) unless `range_text` is given (a bound that depends on another key).
    template <class T>
    void uint_key(std::string key, T S::*field, uint64_t lo, uint64_t hi, std::string help,
                  std::string range_text = "") {
        const field_ref<S, T> f{section_, field};
        const uint64_t type_max = std::numeric_limits<T>::max();
        std::string range = !range_text.empty() ? std::move(range_text)
                            : hi >= type_max    ? (lo == 0 ? "any" : fmt::format(">= {}", lo))
                                                : fmt::format("{}..{}", lo, hi);
        config_key k =
            base(std::move(key), value_kind::uint, "", std::move(range), std::move(help));
        k.parse = [f](config& c, std::string_view t) {
            f(c) = static_cast<T>(parse_uint(t, std::numeric_limits<T>::max()));
        };
        k.format = [f](const config& c) { return std::to_string(f(c)); };
        attach_check(k, [f, lo, hi](const config& c) -> std::string {
            const uint64_t v = f(c);
            if (v < lo || v > hi) return fmt::format("must be in {}..{}", lo, hi);
            return {};
        });
        keys_.push_back(std::move(k));
    }

    /// A decimal number within `b`.
    void real_key(std::string key, double S::*field, real_bounds b, std::string help) {
        const field_ref<S, double> f{section_, field};
        config_key k = base(std::move(key), value_kind::real, "", b.text, std::move(help));
        k.parse = [f](config& c, std::string_view t) { f(c) = parse_real(t); };
        k.format = [f](const config& c) { return format_real(f(c)); };
        attach_check(k, [f, b](const config& c) -> std::string {
            const double v = f(c);
            const bool lo_ok = b.lo_inclusive ? v >= b.lo : v > b.lo;
            const bool hi_ok = b.hi_inclusive ? v <= b.hi : v < b.hi;
            if (!(lo_ok && hi_ok)) return "must be " + b.text;
            return {};
        });
        keys_.push_back(std::move(k));
    }

    /// `true` | `false`.
    void bool_key(std::string key, bool S::*field, std::string help) {
        const field_ref<S, bool> f{section_, field};
        config_key k = base(std::move(key), value_kind::boolean, "", "true|false", std::move(help));
        k.parse = [f](config& c, std::string_view t) { f(c) = parse_bool(t); };
        k.format = [f](const config& c) -> std::string { return f(c) ? "true" : "false"; };
        k.check = [](const config&) { return std::string(); };
        keys_.push_back(std::move(k));
    }

    /// One of `choices`; the range prints as `a|b|c`.
    void choice_key(std::string key, std::string S::*field, std::vector<std::string> choices,
                    std::string help) {
        const field_ref<S, std::string> f{section_, field};
        const std::string joined = fmt::format("{}", fmt::join(choices, "|"));
        config_key k = base(std::move(key), value_kind::choice, "", joined, std::move(help));
        k.choices = choices;
        k.parse = [f, choices](config& c, std::string_view t) {
            for (const std::string& ch : choices) {
                if (ch == t) {
                    f(c) = ch;
                    return;
                }
            }
            throw config_error(
                fmt::format("expected one of {}, got '{}'", fmt::join(choices, ", "), t));
        };
        k.format = [f](const config& c) { return f(c); };
        attach_check(k, [f, choices, joined](const config& c) -> std::string {
            for (const std::string& ch : choices) {
                if (ch == f(c)) return {};
            }
            return "must be one of " + joined;
        });
        keys_.push_back(std::move(k));
    }

    /// A free string whose syntax is checked by `syntax` ("" = valid); nullptr = checked only
    /// by validate() because it depends on other fields.
    void text_key(std::string key, std::string S::*field, std::string range,
                  checker<const std::string&> syntax, std::string help) {
        const field_ref<S, std::string> f{section_, field};
        config_key k =
            base(std::move(key), value_kind::text, "", std::move(range), std::move(help));
        k.parse = [f](config& c, std::string_view t) { f(c) = std::string(t); };
        k.format = [f](const config& c) { return f(c); };
        k.check = [f, syntax](const config& c) -> std::string {
            return syntax ? syntax(f(c)) : std::string();
        };
        keys_.push_back(std::move(k));
    }

    /// A repeatable key: a list of items, written `a,b` or set once per item (`--set K=a --set
    /// K=b` appends; an empty value clears the list). `item` checks one item's syntax ("" =
    /// valid). Prints as the items joined by `,`.
    void list_key(std::string key, std::vector<std::string> S::*field, std::string range,
                  checker<const std::string&> item, std::string help) {
        const field_ref<S, std::vector<std::string>> f{section_, field};
        config_key k =
            base(std::move(key), value_kind::text, "", std::move(range), std::move(help));
        k.parse = [f, item](config& c, std::string_view t) {
            std::vector<std::string>& v = f(c);
            if (t.find_first_not_of(" \t") == std::string_view::npos) {
                v.clear();
                return;
            }
            for (std::size_t b = 0;;) {
                const std::size_t e = t.find(',', b);
                const std::string_view one = t.substr(b, e == std::string_view::npos ? e : e - b);
                const std::size_t l = one.find_first_not_of(" \t");
                if (l == std::string_view::npos) throw config_error("empty list item");
                std::string s(one.substr(l, one.find_last_not_of(" \t") - l + 1));
                if (const std::string why = item(s); !why.empty()) throw config_error(why);
                v.push_back(std::move(s));
                if (e == std::string_view::npos) break;
                b = e + 1;
            }
        };
        k.format = [f](const config& c) { return fmt::format("{}", fmt::join(f(c), ",")); };
        k.check = [](const config&) { return std::string(); };
        keys_.push_back(std::move(k));
    }

    /// A size, time, rate or length; `check` gets the value in the base unit (nullptr = any).
    /// `in_base_unit` prints the value as an integer in the base unit (`4096B` rather than
    /// `4KiB`, for sizes that IB documents in bytes such as the MTU).
    template <class T>
    void unit_key(std::string key, T S::*field, std::string range, checker<uint64_t> check,
                  std::string help, bool in_base_unit = false) {
        const field_ref<S, T> f{section_, field};
        const auto [kind, unit] = kind_of(T{});
        config_key k = base(std::move(key), kind, unit, std::move(range), std::move(help));
        k.parse = [f](config& c, std::string_view t) { parse_into(t, f(c)); };
        k.format = [f, in_base_unit, u = k.unit](const config& c) {
            return in_base_unit ? std::to_string(raw(f(c))) + u : format_of(f(c));
        };
        attach_check(k, [f, check](const config& c) -> std::string {
            return check ? check(raw(f(c))) : std::string();
        });
        keys_.push_back(std::move(k));
    }

private:
    std::vector<config_key>& keys_;
    S config::*section_;
};

}  // namespace ndr::cfg::detail
