// The registry assembled from the section registrars (keys/*_keys.cpp), in listing order.
#include "config/config_schema.h"

#include "config/keys/registrars.h"

namespace ndr::cfg {
namespace {

/// The section registrars in the order `ndrsim config keys`, `config show` and reports list
/// the keys; a new section is one registrar file plus one entry here.
constexpr void (*const REGISTRARS[])(std::vector<config_key>&) = {
    detail::register_link_keys,    detail::register_switch_keys, detail::register_endpoint_keys,
    detail::register_traffic_keys, detail::register_sim_keys,    detail::register_fabric_keys,
    detail::register_hca_keys,     detail::register_fault_keys,  detail::register_collective_keys,
    detail::register_sharp_keys,   detail::register_pfc_keys,    detail::register_ecn_keys,
    detail::register_dcqcn_keys,
};

std::vector<config_key> build_schema() {
    std::vector<config_key> keys;
    for (auto add : REGISTRARS) add(keys);
    return keys;
}

/// The distinct `section` prefixes of the keys, in order of first appearance.
std::vector<std::string> build_sections() {
    std::vector<std::string> out;
    for (const config_key& k : config_schema()) {
        std::string sec = k.key.substr(0, k.key.find('.'));
        if (out.empty() || out.back() != sec) out.push_back(std::move(sec));
    }
    return out;
}

}  // namespace

const std::vector<config_key>& config_schema() {
    static const std::vector<config_key> keys = build_schema();
    return keys;
}

const config_key* find_config_key(std::string_view key) {
    for (const config_key& k : config_schema()) {
        if (k.key == key) return &k;
    }
    return nullptr;
}

const std::vector<std::string>& config_sections() {
    static const std::vector<std::string> sections = build_sections();
    return sections;
}

}  // namespace ndr::cfg
