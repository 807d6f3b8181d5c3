// ConnectX-class HCAs at TLM-2.0 level (AT, base protocol, per-packet events): the TLM
// counterpart of models/cycle/hca.h for `ndrsim run --level tlm`. One TLM device for all hosts;
// per host four sockets, as traffic_endpoints_tlm (see link_tlm.h for the phases): `tx` data
// out, `fc_in` FCCL for the tx VLs, `rx` data in (accepted at the header, consumed at the
// tail: BEGIN_RESP), `fc_out` FCCL of the receive buffer.
//
// Same config keys, golden calls and rounding as the cycle HCA: post -> WQE processing
// (hca.tx_latency, one WQE per hca.message_interval per HCA, exact over many as the cycle HCA:
// common/interval_pacer.h) -> segmentation at hca.mtu with
// the RC opcodes of golden/opcode.h (wire sizes from golden::wire_bytes) -> ACK/NAK first, then
// SHARP, then the QPs round robin one packet per turn, at most hca.max_outstanding
// unacknowledged packets per QP, payload DMA at hca.pcie_rate -> credits (golden
// credit_sender) into the link. Receive: per packet at its tail; ACK every hca.ack_coalesce
// packets and on each packet with AckReq (a message's last, the one that fills the window:
// golden/rc_ack.h, as the cycle HCA), ready to send hca.ack_latency after the tail; data placed
// hca.rx_latency after the last packet and the receive completion visible hca.cqe_latency
// later; the send completion hca.cqe_latency after the last ACK arrives (common/hca_timing.h). RDMA
// READ: request packet, acknowledged like data; the responder streams the response on its own QP
// hca.tx_latency later (the cycle model's simplification).
//
// RC reduced to what a lossless fabric needs (abstracted, documented in fidelity_tlm.md):
// no ICRC fault injection (fault.icrc_error_rate must be 0), so no NAK, no go-back-N, no ACK
// timer and no retry count: a packet out of PSN order is an invariant error. PSNs are 32-bit
// per-QP sequence numbers (not masked to 24 bits). No forced FC refresh / FCTBS check.
//
// Bursts (sim.tlm_burst > 0, docs/fidelity_tlm.md): while one QP has the port to itself (no
// other QP active, no SHARP packet waiting), one transaction carries up to sim.tlm_burst /
// hca.mtu consecutive packets of one message, limited by the send window; its wire span is what
// the packets would take one by one (serialisation and payload DMA), its credit charge the
// blocks of its largest packet. The receiver handles the packets at the burst's tail and emits
// the ACKs the packets would have triggered as one express transaction (ib_extension::express)
// that leaves at the next packet boundary of the burst on the wire, as an ACK slips in between
// packets at the cycle level.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "burst_shape.h"
#include "common/hca_host.h"
#include "common/hca_iface.h"
#include "common/hca_stats.h"
#include "common/hca_tables.h"
#include "common/hca_timing.h"
#include "common/ib_cc_setup.h"
#include "common/ib_port.h"
#include "common/lazy_fifo.h"
#include "common/packet_kind.h"
#include "common/qp_table.h"
#include "common/timing.h"
#include "config/sim_config.h"
#include "credit_pacer.h"
#include "golden/credit_fc.h"
#include "golden/rc_ack.h"
#include "golden/rc_psn_window.h"
#include "golden/vl_arb.h"
#include "ib_extension.h"
#include "nb_sockets.h"
#include "payload_pool.h"
#include "timed_device.h"

namespace ndr::tlmm {

class hca_tlm : public timed_device, public common::hca_iface {
public:
    using target_socket = nb_target_socket<hca_tlm>;
    using initiator_socket = nb_initiator_socket<hca_tlm>;
    std::vector<std::unique_ptr<initiator_socket>> tx;
    std::vector<std::unique_ptr<target_socket>> fc_in;
    std::vector<std::unique_ptr<target_socket>> rx;
    std::vector<std::unique_ptr<initiator_socket>> fc_out;

    hca_tlm(sc_core::sc_module_name name, const cfg::config& c, const common::timing& tm,
            uint32_t hosts, run_status& status);
    hca_tlm(const hca_tlm&) = delete;
    hca_tlm& operator=(const hca_tlm&) = delete;
    /// Sockets newest first (socket_teardown.h).
    ~hca_tlm() override;

    /// Host h's port is cabled to a partner (its leaf switch) whose receive buffer holds
    /// peer_buffer_blocks per VL: the initial credits of every tx VL. Same call as
    /// cycle::hca_array::connect, without the cycle-level peer.
    void connect(uint32_t h, uint32_t peer_buffer_blocks);
    /// The credit loop of host h's link (credit_pacer.h), for bursts; after connect.
    void set_credit_loop(uint32_t h, const credit_loop& loop);
    void set_host(common::hca_host* host) { host_ = host; }

    void post(common::cycle_t now, common::verb v, uint32_t src, uint32_t dst, uint64_t bytes,
              uint64_t tag) override;
    void sharp_send(common::cycle_t now, uint32_t h, const common::sharp_contribution& c) override;
    /// sim.tlm_sharp_burst; 0 while IB CC is on (its delays space packets one by one).
    uint64_t sharp_burst_bytes() const override { return cc_on_ ? 0 : sharp_burst_; }
    void set_timer(common::cycle_t at, uint64_t token) override;
    uint32_t hosts() const override { return hosts_; }
    /// Cycle host `h`'s link is free (as cycle::hca_array::tx_free).
    const uint64_t& tx_free(uint32_t h) const { return ports_[h].tx_free; }
    const common::hca_stats& stats() const { return stats_; }

protected:
    void on_timer(uint64_t now, const timer& t) override;
    void evaluate(uint64_t now) override;

private:
    enum : uint8_t {
        T_MSG_READY = 1,
        T_TXFREE,
        T_TAIL,
        T_PLACED,
        T_TIMER,
        T_FC_FLUSH,
        T_RXFREE,
        T_SHARP_READY,
        T_SHARP_PLACED,
        T_SHARP_FIRST,  ///< a SHARP result burst's first packet placed (hca_host::on_sharp_first)
        T_CTRL,
        T_CTRL_READY,  ///< the oldest pending ACK entry of host `port` is ready (ack_latency)
        T_SEND_DONE,   ///< message `a`'s send completion (cqe_latency after its last ACK)
        T_RATE_WAKE,   ///< cc.enabled: a QP of host `port` delayed by its CCT entry may send
        T_ARRIVE = DELIVERY,
        T_FC_ARRIVE
    };

    struct message {
        common::verb v = common::verb::rdma_write;
        uint32_t src = 0;
        uint32_t dst = 0;
        uint64_t bytes = 0;
        uint64_t tag = 0;
        uint32_t packets = 0;
        uint32_t qp = 0;
        uint32_t first_psn = 0;
        uint32_t arrived = 0;  ///< packets placed at dst (any order)
        bool read_response = false;
        bool delivered = false;
        bool acked = false;
    };
    /// Sender state src -> dst and receiver state for data from dst (one RC QP per pair).
    struct queue_pair {
        uint32_t src = 0;
        uint32_t dst = 0;
        common::lazy_fifo<uint32_t> messages;  ///< not yet fully transmitted, in order
        uint32_t next_index = 0;
        uint32_t next_psn = 0;                    ///< next PSN to send
        uint32_t acked_psn = 0;                   ///< every PSN below is acknowledged
        common::lazy_fifo<uint32_t> unfinished;   ///< fully sent, awaiting their last ACK
        golden::rc_psn_window psns{0xFFFFFFFFU};  ///< receiver (PSNs unwrapped at TLM)
        golden::rc_ack_coalescer acks;            ///< receiver: ACK coalescing
        bool active = false;
        golden::cc_ccti cc;  ///< sender, cc.enabled: CCT index and pacing (as cycle::hca_array)
    };
    struct control_packet {
        uint32_t qp = 0;  ///< the data sender's QP
        uint32_t psn = 0;
        uint32_t count = 1;             ///< ACKs it stands for (bursts: every ACK of one burst)
        uint8_t kind = common::PK_ACK;  ///< PK_ACK, or PK_CNP (cc.enabled: a BECN)
    };
    /// One host's port beyond its link layer (link_: credits, VL arbiter, FC, stalls).
    struct host_port {
        uint64_t tx_free = 0;
        uint64_t dma_free = 0;
        common::wqe_pacer wqe;  ///< hca.message_interval, hca.qp_message_interval
        bool txfree_pending = false;
        bool tx_dirty = false;
        bool ctrl_pending = false;     ///< a T_CTRL (next packet boundary of a burst) is scheduled
        uint64_t burst_start = 0;      ///< first beat of the transaction on the wire
        uint32_t burst_pkt_beats = 1;  ///< beats of one of its packets
        std::deque<uint32_t> active;
        std::deque<control_packet> control;
        std::deque<control_packet> pending;  ///< ACKs in receive processing (ack_latency)
        std::deque<tlm::tlm_generic_payload*> sharp;
        credit_pacer pace;  ///< data VL, bursts only
    };

    tlm::tlm_sync_enum tx_bw(int h, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& d);
    tlm::tlm_sync_enum fc_in_fw(int h, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                sc_core::sc_time& d);
    tlm::tlm_sync_enum rx_fw(int h, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& d);
    tlm::tlm_sync_enum fc_out_bw(int h, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                 sc_core::sc_time& d);

    void accept(uint64_t t, uint32_t h, tlm::tlm_generic_payload& gp);
    void apply_fc(uint32_t h, uint8_t vl, uint32_t fccl);
    uint32_t alloc_message();
    void retire_if_done(uint32_t m);
    void activate(uint32_t qp);
    void mark_tx(uint32_t h);
    void try_send(uint64_t t, uint32_t h);
    bool send_control(uint64_t t, uint32_t h);
    bool send_sharp(uint64_t t, uint32_t h);
    bool send_data(uint64_t t, uint32_t h);
    /// The count packets of message msg from packet index on, as one burst.
    burst_shape shape_burst(const message& msg, uint32_t index, uint32_t count) const;
    void send_express(uint64_t t, uint32_t h);
    tlm::tlm_generic_payload& control_packet_of(uint64_t t, uint32_t h);
    void transmit(uint64_t t, uint32_t h, tlm::tlm_generic_payload& gp);
    tlm::tlm_generic_payload& new_packet(uint64_t t, uint32_t src, uint32_t dst, uint8_t vl,
                                         uint32_t payload, uint32_t wire);
    void on_tail(uint64_t t, uint32_t h, tlm::tlm_generic_payload& gp);
    void receive_data(uint64_t t, uint32_t h, const ib_extension& p);
    void receive_ack(uint64_t t, uint32_t qp, uint32_t psn);
    void send_done(uint64_t t, uint32_t m);
    uint32_t packet_payload(const message& m, uint32_t index) const;
    uint8_t data_opcode(const message& m, uint32_t index) const;

    common::timing tm_;
    uint32_t hosts_;
    uint32_t vls_;
    uint8_t sl_;
    uint8_t vl_;
    uint8_t sharp_vl_;
    uint32_t mtu_;
    common::hca_timing ht_;
    uint32_t tx_cycles_;
    double pcie_bytes_per_cycle_;
    uint32_t ack_coalesce_;
    bool ooo_;  ///< routing.mode = adaptive: out-of-order placement (as cycle::hca_array)
    uint32_t max_outstanding_;
    uint32_t burst_max_;  ///< packets per transaction at most (sim.tlm_burst / hca.mtu, >= 1)
    /// The same while other queue pairs wait for the port (sim.tlm_burst_shared, <= burst_max_).
    uint32_t shared_max_;
    /// SHARP chunks sent by a member and whose result has not reached it yet (any HCA). While
    /// there are any, no bursts: a burst holds a switch output for its whole span, and SHARP
    /// results compete for the output packet by packet through VL arbitration.
    uint64_t sharp_in_flight_ = 0;
    uint32_t burst_buffer_;
    uint64_t sharp_burst_;  ///< sim.tlm_sharp_burst (bytes)  ///< smallest receive buffer (switch
                            ///< or HCA), blocks
    common::hca_host* host_ = nullptr;

    std::vector<host_port> ports_;
    std::vector<message> msgs_;
    std::vector<uint32_t> free_msgs_;
    /// Queue pairs never move once created (a host callback may open one while the caller
    /// holds another); a received packet finds its receiver QP through qp_table::reverse.
    common::qp_table<queue_pair> qps_;
    std::vector<uint64_t> timers_;
    std::vector<uint32_t> free_timers_;
    std::vector<uint32_t> tx_dirty_;
    /// The link layer of every host's port (common/ib_port.h), as in cycle::hca_array.
    common::ib_ports<> link_;
    payload_pool pool_;
    payload_pool fc_pool_;
    uint64_t next_packet_id_ = 0;
    common::hca_stats stats_;
    bool cc_on_ = false;        ///< cc.enabled on InfiniBand (common::cc_active)
    golden::cc_ca_params ccp_;  ///< CCTI rule and CCT delays
};

}  // namespace ndr::tlmm
