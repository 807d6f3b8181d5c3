// The `hca` section: the ConnectX-class HCA.
// Each parameter is one field here, with its default as the initialiser, and one row in
// hca_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// ConnectX-7-class HCA (docs/domain.md §8, §13).
struct hca_config {
    time_ps_t tx_latency{250'000};           ///< doorbell -> first packet ready (§13: ~250 ns)
    time_ps_t rx_latency{150'000};           ///< last packet in -> data placed (~150 ns, soft)
    time_ps_t ack_latency{100'000};          ///< data packet in -> its ACK/NAK ready (soft)
    time_ps_t cqe_latency{100'000};          ///< data placed / ACK in -> CQE visible (soft)
    rate_bps_t pcie_rate{504'000'000'000};   ///< payload DMA, PCIe Gen5 x16 ~63 GB/s (§13)
    time_ps_t message_interval{4'651};       ///< min time between WQEs: 1 / 215 M msg/s (§13)
    time_ps_t qp_message_interval{133'333};  ///< min time between WQEs of one QP: 7.5 M/s (soft)
    bytes_t mtu{4096};                       ///< path MTU, payload bytes per packet
    uint32_t ack_coalesce = 16;              ///< responder ACKs every N packets (and each last)
    time_ps_t ack_timeout{67'108'864'000};   ///< RC local ACK timeout 4.096 us x 2^14 (§13)
    uint32_t retry_count = 7;                ///< RC retries before the QP errors out (§13)
    uint32_t sl = 0;                         ///< service level of RDMA traffic
    uint32_t max_outstanding = 1024;         ///< unacknowledged packets per QP
};

namespace detail {

/// The rows of the `hca` section; `s` is a section_keys<hca_config> (config/keys/key_builders.h).
template <class Rows>
void hca_rows(Rows& s) {
    s.unit_key("hca.tx_latency", &hca_config::tx_latency, "any", nullptr,
               "doorbell to first packet ready (WQE fetch, DMA read start, packetise); "
               "docs/domain.md §13 'HCA small-message latency' (~250 ns TX, a choice)");
    s.unit_key("hca.rx_latency", &hca_config::rx_latency, "any", nullptr,
               "last packet received to its data placed in host memory (parse, QP lookup, "
               "payload DMA write); the receive completion follows hca.cqe_latency later; "
               "docs/domain.md §13 'HCA small-message latency' (150 + 100 ns = the ~250 ns RX "
               "pipeline, a soft split)");
    s.unit_key("hca.ack_latency", &hca_config::ack_latency, LATENCY_RANGE, latency,
               "receive processing before the responder's ACK or NAK is ready to send: a data "
               "packet's tail to its ACK/NAK joining the control queue (ICRC, QP lookup, PSN "
               "check); docs/domain.md §13 'HCA ACK and CQE latency' (100 ns, soft)");
    s.unit_key("hca.cqe_latency", &hca_config::cqe_latency, LATENCY_RANGE, latency,
               "completion (CQE) write: data placed to receive completion visible, and the ACK "
               "of a message's last packet received to send completion visible; "
               "docs/domain.md §13 'HCA ACK and CQE latency' (100 ns, soft)");
    s.unit_key(
        "hca.pcie_rate", &hca_config::pcie_rate, "> 0", positive,
        "payload DMA bandwidth; docs/domain.md §13 'HCA host interface' (PCIe Gen5 x16 ~63 GB/s)");
    s.unit_key("hca.message_interval", &hca_config::message_interval, "any", nullptr,
               "minimum time between two WQEs of one HCA (1 / message rate); docs/domain.md §13 "
               "'HCA message rate' (215 M msg/s)");
    s.unit_key("hca.qp_message_interval", &hca_config::qp_message_interval, LATENCY_RANGE, latency,
               "minimum time between two WQEs of one queue pair (1 / single-QP message rate); "
               "0 = only hca.message_interval; docs/domain.md §13 'HCA message rate' (perftest "
               "ib_write_bw, 8 B, one QP: 7.5 M msg/s, soft)");
    s.unit_key(
        "hca.mtu", &hca_config::mtu, "256..4096, power of two",
        [](uint64_t v) -> std::string {
            return (v >= 256 && v <= 4096 && (v & (v - 1)) == 0)
                       ? ""
                       : "must be 256/512/1024/2048/4096 B";
        },
        "path MTU: payload bytes per RDMA packet; docs/domain.md §1.2", true);
    s.uint_key("hca.ack_coalesce", &hca_config::ack_coalesce, 1, 4096,
               "the responder acknowledges every N packets and every packet with AckReq (the "
               "requester sets it on a message's last packet and on the packet that fills its "
               "`hca.max_outstanding` window)");
    s.unit_key(
        "hca.ack_timeout", &hca_config::ack_timeout, "> 0", positive,
        "RC local ACK timeout before go-back-N retransmission, measured from the "
        "(re)transmission of the oldest unacknowledged packet and restarted by every ACK "
        "that makes progress; docs/domain.md §13 'RC timers' (4.096 us x 2^14). Cross-checked "
        "against the fabric's ACK round trip (docs/configuration.md 'Cross-checks')");
    s.uint_key("hca.retry_count", &hca_config::retry_count, 0, 7,
               "RC retries of one packet before the run fails; docs/domain.md §13 'RC timers'");
    s.uint_key("hca.sl", &hca_config::sl, 0, 15,
               "service level of RDMA traffic (switch.sl2vl maps it to a VL)");
    s.uint_key("hca.max_outstanding", &hca_config::max_outstanding, 1, 1048576,
               "unacknowledged packets per queue pair (the send window); the packet that fills "
               "it asks for an ACK. Cross-checked against its ACK round trip "
               "(docs/configuration.md 'Cross-checks')");
}

}  // namespace detail
}  // namespace ndr::cfg
