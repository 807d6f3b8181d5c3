// Fuzz target: the configuration parser (models/config, docs/configuration.md): a YAML config
// document and `--set key=value` overrides. The input is a config file whose lines starting with
// `--set ` are taken out as overrides (the rest of the line, in order); the other lines are the
// YAML text. Each override is first applied alone to the defaults (apply_set), then the YAML text
// and all overrides are loaded together from memory (load_config_layered, the loader behind
// load_config). Expected: success, or config_error with one line (`fuzz.yaml:LINE: KEY: REASON`,
// `--set KEY: REASON` or `KEY: REASON`). An accepted value must print back losslessly: the key's
// text form sets the same value, and `ndrsim config show`'s YAML loads back to the same config.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config/config_dump.h"
#include "config/config_error.h"
#include "config/config_loader.h"
#include "config/config_schema.h"
#include "config/sim_config.h"
#include "fuzz_check.h"

namespace {

const std::string path = "fuzz.yaml";
constexpr std::string_view set_prefix = "--set ";

struct input {
    std::string yaml;
    std::vector<std::string> sets;
};

input split(std::string_view data) {
    input in;
    while (!data.empty()) {
        const std::size_t nl = data.find('\n');
        const std::string_view line = data.substr(0, nl);
        if (line.substr(0, set_prefix.size()) == set_prefix) {
            in.sets.emplace_back(line.substr(set_prefix.size()));
            in.yaml += '\n';  // keeps the YAML's line numbers those of the input
        } else {
            in.yaml.append(line.data(), line.size());
            if (nl != std::string_view::npos) in.yaml += '\n';
        }
        if (nl == std::string_view::npos) break;
        data.remove_prefix(nl + 1);
    }
    return in;
}

std::string_view trimmed(std::string_view s) {
    const std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

/// One override on the defaults; if accepted, its key's printed value must set the same value.
void one_set(const std::string& set) {
    ndr::cfg::config c;
    try {
        ndr::cfg::apply_set(c, set);
    } catch (const ndr::cfg::config_error& e) {
        ndr::fuzz::check_message(e.what(), {"--set"});
        return;
    }
    const std::string_view key = trimmed(std::string_view(set).substr(0, set.find('=')));
    const ndr::cfg::config_key* k = ndr::cfg::find_config_key(key);
    if (k == nullptr) ndr::fuzz::finding(fmt::format("'{}' accepted: no such key", set));
    const std::string text = k->format(c);
    ndr::cfg::config again;
    try {
        ndr::cfg::set_value(again, k->key, text, ndr::cfg::config_source::flag());
    } catch (const ndr::cfg::config_error& e) {
        ndr::fuzz::finding(fmt::format("'{}' accepted, but its printed value '{}' is not: {}", set,
                                       text, e.what()));
    }
    if (ndr::cfg::flatten(again) != ndr::cfg::flatten(c)) {
        ndr::fuzz::finding(
            fmt::format("'{}' accepted, but its printed value '{}' sets another value", set, text));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const input in = split(std::string_view(reinterpret_cast<const char*>(data), size));
    for (const std::string& s : in.sets) one_set(s);
    ndr::cfg::config c;
    try {
        c = ndr::cfg::load_config_layered(path, in.yaml, "", in.sets);
    } catch (const ndr::cfg::config_error& e) {
        // Validation errors of keys no source set start with the key: any start is allowed.
        ndr::fuzz::check_message(e.what(), {""});
        return 0;
    }
    const std::string shown = ndr::cfg::to_yaml(c);
    try {
        const ndr::cfg::config back = ndr::cfg::load_config_layered("shown.yaml", shown, "", {});
        if (ndr::cfg::flatten(back) != ndr::cfg::flatten(c))
            ndr::fuzz::finding("the config's YAML (config show) loads back different");
    } catch (const ndr::cfg::config_error& e) {
        ndr::fuzz::finding(std::string("the config's YAML (config show) does not load back: ") +
                           e.what());
    }
    return 0;
}
