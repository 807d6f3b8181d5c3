// The link layer of a switch, as both switch models build it (models/cycle/ib_switch,
// tlm/ib_switch_tlm): every port's input buffers (common::rx_buffer) of switch.buffer_per_vl per
// data VL, organised by switch.buffer_model (static, or shared: golden::vl_buffer_pool), the
// egress pipeline of switch.latency_split, and the port names of its invariant messages.
// SystemC-free.
#pragma once
#include "common/ib_port.h"
#include "common/rx_buffer.h"
#include "common/timing.h"
#include "config/sim_config.h"

namespace ndr::common {

inline ib_ports<rx_buffer> switch_ports(const cfg::config& c, const timing& tm) {
    ib_ports<rx_buffer> ports(c, tm, c.sw.ports, tm.buffer_blocks, SWITCH_PORT_NAMES);
    if (tm.sw_pool_blocks != 0) {
        ports.set_shared_pool(tm.sw_pool_blocks, tm.sw_reserved_blocks, c.sw.pool_alpha,
                              tm.buffer_blocks);
    }
    ports.set_egress_delay(tm.egress_cycles);
    return ports;
}

}  // namespace ndr::common
