// Statistics of one switch over the measurement window: one struct for the cycle-level switch
// (models/cycle/ib_switch.h) and the TLM switch (tlm/ib_switch_tlm.h), so reports read both the
// same way. The TLM switch models InfiniBand only and leaves the RoCE fields empty. SystemC-free.
#pragma once
#include <cstdint>
#include <vector>

#include "common/pfc_port_stats.h"

namespace ndr::common {

struct switch_stats {
    struct vl_buffer {
        uint32_t max_blocks = 0;   ///< max over ports
        double mean_blocks = 0.0;  ///< mean over ports and time
    };
    std::vector<vl_buffer> buffer;              ///< per data VL (input buffers)
    std::vector<uint64_t> credit_stall_cycles;  ///< per VL, summed over output ports
    std::vector<uint64_t> out_blocks;           ///< per output port, blocks started on the link
    std::vector<uint64_t> out_busy_cycles;      ///< per output port
    uint64_t xbar_transfers = 0;
    uint64_t fc_packets = 0;
    uint64_t sl2vl_drops = 0;  ///< packets dropped: SL2VL mapped their SL to VL15 (whole run)
    /// routing.mode = adaptive: packets sent to a port of their AR group other than their LFT
    /// port (whole run; common::ar_router)
    uint64_t ar_moved = 0;
    /// cc.enabled: data packets this switch marked FECN (whole run; golden/ib_cc_marker.h)
    uint64_t fecn_marked = 0;
    // fabric.technology = roce only (empty / zero otherwise); docs/roce.md.
    std::vector<pfc_port_stats> pfc;         ///< [port * vls + priority]
    std::vector<uint64_t> egress_max_bytes;  ///< per output: max bytes queued for it
    std::vector<double> egress_mean_bytes;   ///< per output: time-weighted mean
    uint64_t ecn_marked = 0;                 ///< packets marked CE
    /// routing.ecmp_mode = flowlet: flowlets started after a flow's first (golden/ecmp_selector.h)
    uint64_t ecmp_new_flowlets = 0;
};

}  // namespace ndr::common
