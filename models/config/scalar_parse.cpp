#include "config/scalar_parse.h"

#include <charconv>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "config/config_error.h"

namespace ndr::cfg {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

}  // namespace

uint64_t parse_uint(std::string_view raw, uint64_t max) {
    const std::string_view text = trim(raw);
    const std::string quoted = "'" + std::string(text) + "'";
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos)
        throw config_error("expected a whole number like 8, got " + quoted);
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || v > max)
        throw config_error(quoted + " is too large (at most " + std::to_string(max) + ")");
    return v;
}

double parse_real(std::string_view raw) {
    const std::string_view text = trim(raw);
    const std::string quoted = "'" + std::string(text) + "'";
    double v = 0.0;
    // from_chars accepts no leading '+' and no hex without the `hex` format: plain decimals only.
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v))
        throw config_error("expected a number like 0.5, got " + quoted);
    return v;
}

bool parse_bool(std::string_view raw) {
    const std::string_view text = trim(raw);
    if (text == "true") return true;
    if (text == "false") return false;
    throw config_error("expected true or false, got '" + std::string(text) + "'");
}

std::string format_real(double v) {
    return fmt::format("{}", v);
}

}  // namespace ndr::cfg
