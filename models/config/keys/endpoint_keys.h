// The `endpoint` section: the endpoint (HCA port) as the switch testbench sees it.
// Each parameter is one field here, with its default as the initialiser, and one row in
// endpoint_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Endpoint (HCA port) as seen by the switch testbench.
struct endpoint_config {
    bytes_t rx_buffer_per_vl{32 * 1024};  ///< receive buffer per VL at the endpoint
    time_ps_t rx_processing{0};           ///< delay from tail arrival to freeing credits
};

namespace detail {

/// The rows of the `endpoint` section; `s` is a section_keys<endpoint_config>
/// (config/keys/key_builders.h).
template <class Rows>
void endpoint_rows(Rows& s) {
    s.unit_key("endpoint.rx_buffer_per_vl", &endpoint_config::rx_buffer_per_vl, CREDIT_RANGE,
               credit_buffer,
               "endpoint receive buffer per VL; docs/domain.md §13 'Input buffer per port per VL' "
               "(32 KiB, as the switch)");
    s.unit_key("endpoint.rx_processing", &endpoint_config::rx_processing, "any", nullptr,
               "delay from a packet's tail arriving at the endpoint to its credits being freed; 0 "
               "= drains at line rate (model choice)");
}

}  // namespace detail
}  // namespace ndr::cfg
