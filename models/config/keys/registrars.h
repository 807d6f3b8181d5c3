// Internal to models/config: one registrar per YAML section (keys/SECTION_keys.cpp), each
// appending that section's rows to the registry. config_schema.cpp calls them in listing order.
#pragma once
#include <vector>

#include "config/config_key.h"

namespace ndr::cfg::detail {

void register_link_keys(std::vector<config_key>& keys);
void register_switch_keys(std::vector<config_key>& keys);
void register_endpoint_keys(std::vector<config_key>& keys);
void register_traffic_keys(std::vector<config_key>& keys);
void register_sim_keys(std::vector<config_key>& keys);
void register_fabric_keys(std::vector<config_key>& keys);
void register_hca_keys(std::vector<config_key>& keys);
void register_fault_keys(std::vector<config_key>& keys);
void register_collective_keys(std::vector<config_key>& keys);
void register_sharp_keys(std::vector<config_key>& keys);
void register_pfc_keys(std::vector<config_key>& keys);
void register_ecn_keys(std::vector<config_key>& keys);
void register_dcqcn_keys(std::vector<config_key>& keys);

}  // namespace ndr::cfg::detail
