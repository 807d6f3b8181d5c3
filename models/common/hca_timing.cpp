#include "common/hca_timing.h"

namespace ndr::common {

hca_timing derive_hca_timing(const cfg::config& c, const timing& tm) {
    hca_timing h;
    h.tx_cycles = ps_to_cycles(c.hca.tx_latency.ps, tm.cycle_ps, 1);
    h.ack_cycles = ps_to_cycles(c.hca.ack_latency.ps, tm.cycle_ps, 0);
    h.recv_complete_cycles =
        ps_to_cycles(c.hca.rx_latency.ps + c.hca.cqe_latency.ps, tm.cycle_ps, 1);
    h.send_complete_cycles = ps_to_cycles(c.hca.cqe_latency.ps, tm.cycle_ps, 0);
    h.message_interval_ps = c.hca.message_interval.ps;
    h.qp_message_interval_ps = c.hca.qp_message_interval.ps;
    h.cycle_ps = tm.cycle_ps;
    return h;
}

}  // namespace ndr::common
