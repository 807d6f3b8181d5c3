// The `endpoint` section: the endpoint (HCA port) as the switch testbench sees it. One row per key,
// in listing order; the defaults are the initialisers of `endpoint_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_endpoint_keys(std::vector<config_key>& keys) {
    section_keys<endpoint_config> s(keys, &config::endpoint);
    s.unit_key("endpoint.rx_buffer_per_vl", &endpoint_config::rx_buffer_per_vl, CREDIT_RANGE,
               credit_buffer,
               "endpoint receive buffer per VL; docs/domain.md §13 'Input buffer per port per VL' "
               "(32 KiB, as the switch)");
    s.unit_key("endpoint.rx_processing", &endpoint_config::rx_processing, "any", nullptr,
               "delay from a packet's tail arriving at the endpoint to its credits being freed; 0 "
               "= drains at line rate (model choice)");
}

}  // namespace ndr::cfg::detail
