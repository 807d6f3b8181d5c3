// The registry assembled from the rows of every section (keys/SECTION_keys.h), in listing order.
#include "config/config_schema.h"

#include "config/keys/key_builders.h"
#include "config/sim_config.h"

namespace ndr::cfg {
namespace {

/// Appends the rows of one section (`add` is that section's SECTION_rows, keys/SECTION_keys.h).
template <class S>
void rows(std::vector<config_key>& keys, S config::*section,
          void (*add)(detail::section_keys<S>&)) {
    detail::section_keys<S> s(keys, section);
    add(s);
}

/// Every section's rows, in the order `ndrsim config keys`, `config show` and reports list the
/// keys; a new section is one header in keys/ plus its member in `config` and one line here.
std::vector<config_key> build_schema() {
    std::vector<config_key> keys;
    rows<link_config>(keys, &config::link, detail::link_rows<detail::section_keys<link_config>>);
    rows<switch_config>(keys, &config::sw,
                        detail::switch_rows<detail::section_keys<switch_config>>);
    rows<endpoint_config>(keys, &config::endpoint,
                          detail::endpoint_rows<detail::section_keys<endpoint_config>>);
    rows<traffic_config>(keys, &config::traffic,
                         detail::traffic_rows<detail::section_keys<traffic_config>>);
    rows<sim_config>(keys, &config::sim, detail::sim_rows<detail::section_keys<sim_config>>);
    rows<fabric_config>(keys, &config::fabric,
                        detail::fabric_rows<detail::section_keys<fabric_config>>);
    rows<routing_config>(keys, &config::routing,
                         detail::routing_rows<detail::section_keys<routing_config>>);
    rows<node_config>(keys, &config::node, detail::node_rows<detail::section_keys<node_config>>);
    rows<hca_config>(keys, &config::hca, detail::hca_rows<detail::section_keys<hca_config>>);
    rows<fault_config>(keys, &config::fault,
                       detail::fault_rows<detail::section_keys<fault_config>>);
    rows<collective_config>(keys, &config::collective,
                            detail::collective_rows<detail::section_keys<collective_config>>);
    rows<host_config>(keys, &config::host, detail::host_rows<detail::section_keys<host_config>>);
    rows<nccl_config>(keys, &config::nccl, detail::nccl_rows<detail::section_keys<nccl_config>>);
    rows<sharp_config>(keys, &config::sharp,
                       detail::sharp_rows<detail::section_keys<sharp_config>>);
    rows<pfc_config>(keys, &config::pfc, detail::pfc_rows<detail::section_keys<pfc_config>>);
    rows<ecn_config>(keys, &config::ecn, detail::ecn_rows<detail::section_keys<ecn_config>>);
    rows<dcqcn_config>(keys, &config::dcqcn,
                       detail::dcqcn_rows<detail::section_keys<dcqcn_config>>);
    rows<cc_config>(keys, &config::cc, detail::cc_rows<detail::section_keys<cc_config>>);
    rows<report_config>(keys, &config::report,
                        detail::report_rows<detail::section_keys<report_config>>);
    rows<jobs_config>(keys, &config::jobs, detail::jobs_rows<detail::section_keys<jobs_config>>);
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
