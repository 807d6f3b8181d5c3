// One synthetic-traffic simulation at TLM-2.0 level (`ndrsim traffic --level tlm`): the TLM
// switch (tlm/ib_switch_tlm.h), one TLM link per direction per port (tlm/link_tlm.h) and the
// TLM endpoints, run through warm-up, window and drain exactly like run_traffic (traffic_sim.h),
// and reported through the same traffic_outcome, so traffic_point_json works unchanged.
// One call per process (SystemC elaborates once).
#pragma once
#include <cstdint>
#include <functional>

#include "config/sim_config.h"
#include "ib_extension.h"
#include "traffic_sim.h"

namespace ndr::tb {

/// Optional observers and test hooks (all may be empty).
struct tlm_run_hooks {
    /// A packet starts on endpoint `port`'s link into switch input `port` (cycle, port, packet).
    std::function<void(uint64_t, uint16_t, const tlmm::ib_extension&)> on_inject;
    /// A packet starts on switch output `port`'s link (cycle, port, packet).
    std::function<void(uint64_t, uint16_t, const tlmm::ib_extension&)> on_egress;
    /// Fault injection: the switch drops the packet with this id (~0 = none).
    uint64_t drop_packet_id = ~uint64_t{0};
};

traffic_outcome run_traffic_tlm(const cfg::config& c, const tlm_run_hooks& hooks = {});

}  // namespace ndr::tb
