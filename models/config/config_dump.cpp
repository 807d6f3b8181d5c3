#include "config/config_dump.h"

#include <algorithm>

#include <fmt/format.h>

#include "config/config_schema.h"

namespace ndr::cfg {
namespace {

/// A YAML double-quoted scalar.
std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\';
        out += ch;
    }
    return out + "\"";
}

std::string yaml_value(const config_key& k, const config& c) {
    const std::string v = k.format(c);
    return k.kind == value_kind::text ? quoted(v) : v;
}

std::string kind_and_range(const config_key& k) {
    std::string s(kind_name(k.kind));
    if (!k.unit.empty()) s += " [" + k.unit + "]";
    return s + ", " + k.range;
}

}  // namespace

std::string to_yaml(const config& c) {
    const std::vector<config_key>& keys = config_schema();
    size_t width = 0;
    for (const config_key& k : keys) {
        const size_t field_len = k.key.size() - k.key.find('.') - 1;
        width = std::max(width, field_len + 2 + yaml_value(k, c).size());
    }
    std::string out =
        "# ndrsim configuration (defaults: a Quantum-2-class NDR switch, docs/domain.md §13).\n"
        "# Units: sizes B KiB MiB GiB KB MB GB; times ps ns us ms s; rates bps..Tbps, GBps;\n"
        "# lengths mm cm m km. See docs/configuration.md.\n";
    std::string section;
    for (const config_key& k : keys) {
        const size_t dot = k.key.find('.');
        const std::string sec = k.key.substr(0, dot);
        if (sec != section) {
            section = sec;
            out += section + ":\n";
        }
        const std::string entry = k.key.substr(dot + 1) + ": " + yaml_value(k, c);
        const std::string range = k.range == "any" ? "" : " [range: " + k.range + "]";
        out += fmt::format("  {:<{}}  # {}{}\n", entry, width, k.help, range);
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> flatten(const config& c) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const config_key& k : config_schema()) out.emplace_back(k.key, k.format(c));
    return out;
}

std::string describe_keys() {
    const config defaults;
    const std::vector<config_key>& keys = config_schema();
    size_t key_w = 0;
    size_t def_w = 0;
    size_t range_w = 0;
    for (const config_key& k : keys) {
        key_w = std::max(key_w, k.key.size());
        def_w = std::max(def_w, yaml_value(k, defaults).size());
        range_w = std::max(range_w, kind_and_range(k).size());
    }
    std::string out = fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "KEY", key_w, "DEFAULT", def_w,
                                  "KIND, RANGE", range_w, "MEANING (SOURCE OF DEFAULT)");
    for (const config_key& k : keys) {
        out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", k.key, key_w, yaml_value(k, defaults),
                           def_w, kind_and_range(k), range_w, k.help);
    }
    return out;
}

}  // namespace ndr::cfg
