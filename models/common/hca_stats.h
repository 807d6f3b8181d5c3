// Statistics of the HCAs of a fabric (all hosts), kept by the cycle-level hca_array
// (models/cycle/hca.h) and the TLM hca_tlm (tlm/hca_tlm.h) alike; fields a level does not model
// stay zero (the TLM HCA has no NAK, retransmission, ICRC faults or RoCE). SystemC-free.
#pragma once
#include <cstdint>
#include <vector>

namespace ndr::common {

struct hca_stats {
    uint64_t messages_posted = 0;
    uint64_t messages_delivered = 0;
    uint64_t data_packets_sent = 0;  ///< first transmissions
    uint64_t retransmitted_packets = 0;
    uint64_t timeouts = 0;
    uint64_t naks_sent = 0;
    uint64_t acks_sent = 0;
    uint64_t icrc_drops = 0;          ///< packets dropped for a bad ICRC
    uint64_t out_of_order_drops = 0;  ///< packets dropped by the PSN check
    /// routing.mode = adaptive: packets that arrived ahead of the expected PSN and were placed
    /// out of order (golden/rc_psn_window.h)
    uint64_t out_of_order_placed = 0;
    uint64_t payload_bytes_delivered = 0;
    std::vector<uint64_t> tx_beats;             ///< per host: beats sent on its link (cumulative)
    std::vector<uint64_t> rx_beats;             ///< per host: beats received (cumulative)
    std::vector<uint64_t> credit_stall_cycles;  ///< per host: idle link, data waiting, no credit
    // fabric.technology = roce (docs/roce.md)
    uint64_t ecn_marked_received = 0;  ///< data packets that arrived with ECN CE
    uint64_t cnps_sent = 0;            ///< DCQCN notification point
    uint64_t cnps_received = 0;        ///< DCQCN reaction point
    // cc.enabled, fabric.technology = ib (docs/congestion.md)
    uint64_t fecn_received = 0;  ///< data packets that arrived with FECN set
    uint64_t becn_sent = 0;      ///< CNPs with BECN returned to the sources
    uint64_t becn_received = 0;  ///< BECNs applied at the sources
    std::vector<uint32_t> ccti_max;     ///< per host: largest CCTI any of its QPs reached
    std::vector<uint64_t> ccti_sum;     ///< per host: CCTI summed over its data packets sent
    std::vector<uint64_t> ccti_packets;  ///< per host: data packets sent with CC on
};

}  // namespace ndr::common
