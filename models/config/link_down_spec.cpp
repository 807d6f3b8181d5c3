#include "config/link_down_spec.h"

#include "config/config_error.h"
#include "config/unit_parse.h"

namespace ndr::cfg {

namespace {

std::string_view trimmed(std::string_view s) {
    const std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

link_down_spec parse_link_down(std::string_view text) {
    const std::string_view t = trimmed(text);
    const std::size_t at = t.rfind('@');
    if (at == std::string_view::npos) {
        throw config_error("expected LINK@TIME such as sw0.p4->sw4.p0@50us, got '" +
                           std::string(t) + "'");
    }
    link_down_spec s;
    s.link = std::string(trimmed(t.substr(0, at)));
    if (s.link.empty() || s.link.find("->") == std::string::npos) {
        throw config_error(
            "expected a link named as in report.json links[] (sw0.p4->sw4.p0) "
            "before '@', got '" +
            s.link + "'");
    }
    try {
        s.at = parse_time(trimmed(t.substr(at + 1)));
    } catch (const config_error& e) {
        throw config_error("time of '" + s.link + "': " + e.reason);
    }
    return s;
}

std::vector<link_down_spec> parse_link_downs(const std::vector<std::string>& entries) {
    std::vector<link_down_spec> out;
    out.reserve(entries.size());
    for (const std::string& e : entries) out.push_back(parse_link_down(e));
    return out;
}

}  // namespace ndr::cfg
