// The HCA's latencies in whole cycles, derived once from the `hca` section for both HCA levels
// (cycle::hca_array, tlmm::hca_tlm), so they round identically. docs/architecture.md ("HCA
// model", "Timing model and rounding").
#pragma once
#include <cstdint>

#include "common/timing.h"
#include "common/wqe_pacer.h"
#include "config/sim_config.h"

namespace ndr::common {

struct hca_timing {
    /// post -> the message joins its QP (hca.tx_latency, at least 1 cycle).
    uint32_t tx_cycles = 1;
    /// a data packet's tail -> its ACK/NAK is ready to send (hca.ack_latency, may be 0).
    uint32_t ack_cycles = 0;
    /// a message's last packet's tail -> receive completion visible: data placed
    /// (hca.rx_latency) and then the CQE written (hca.cqe_latency), summed in picoseconds and
    /// rounded up once (at least 1 cycle). Also a SHARP result's tail -> on_sharp_result.
    uint32_t recv_complete_cycles = 1;
    /// the ACK covering a message's last PSN arrives -> send completion visible
    /// (hca.cqe_latency, may be 0).
    uint32_t send_complete_cycles = 0;
    /// hca.message_interval and hca.qp_message_interval in ps, and the cycle they are paced on.
    uint64_t message_interval_ps = 0;
    uint64_t qp_message_interval_ps = 0;
    uint64_t cycle_ps = 1;

    /// A WQE pacer for one HCA: at most one WQE per hca.message_interval and one per QP per
    /// hca.qp_message_interval, exact over many.
    common::wqe_pacer wqe_pacer() const {
        return common::wqe_pacer(message_interval_ps, qp_message_interval_ps, cycle_ps);
    }
};

hca_timing derive_hca_timing(const cfg::config& c, const timing& tm);

}  // namespace ndr::common
