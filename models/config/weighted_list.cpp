#include "config/weighted_list.h"

#include <string>

#include "config/config_error.h"
#include "config/scalar_parse.h"

namespace ndr::cfg {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

}  // namespace

std::vector<weighted_value> parse_weighted_list(std::string_view text, uint64_t lo, uint64_t hi) {
    const std::string syntax =
        "expected `N` or `N@weight,M@weight,...`, got '" + std::string(trim(text)) + "'";
    std::vector<weighted_value> items;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        const std::string_view item = trim(text.substr(
            start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (item.empty()) throw config_error(syntax);
        weighted_value wv;
        const size_t at = item.find('@');
        try {
            wv.value = parse_uint(item.substr(0, at));
            if (at != std::string_view::npos) wv.weight = parse_real(item.substr(at + 1));
        } catch (const config_error&) {
            throw config_error(syntax);
        }
        if (wv.value < lo || wv.value > hi)
            throw config_error("value " + std::to_string(wv.value) + " in '" +
                               std::string(trim(text)) + "' is outside " + std::to_string(lo) +
                               ".." + std::to_string(hi));
        if (!(wv.weight > 0.0))
            throw config_error("weight in '" + std::string(item) + "' must be > 0");
        items.push_back(wv);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return items;
}

}  // namespace ndr::cfg
