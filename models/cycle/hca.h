// Cycle-level model of ConnectX-class HCAs (docs/domain.md §8): all hosts' HCAs in one engine
// (one SystemC process), each with one IB port.
//
// Send path: post (doorbell) -> WQE fetch, payload DMA read start, packetise: hca.tx_latency,
// at most one WQE per hca.message_interval (exact over many: common/interval_pacer.h) ->
// segmentation at hca.mtu with RC opcodes
// (FIRST/MIDDLE/LAST/ONLY, RETH on the first, ImmDt on the last) -> per-QP round-robin
// scheduling, payload DMA at hca.pcie_rate -> credits (golden credit_sender) and the VL
// arbiter into the link.
// Receive path: per packet at its tail: ICRC check (fault.icrc_error_rate corrupts packets),
// PSN check (in order: accept; ahead: drop + one NAK "PSN sequence error"; behind: duplicate,
// re-ACK), ACK every hca.ack_coalesce packets and on each packet with AckReq (the requester sets
// it on a message's last packet and on the packet that fills its hca.max_outstanding window,
// golden/rc_ack.h), each ACK/NAK ready hca.ack_latency after the tail that caused it; the last
// packet's data is placed hca.rx_latency later and its receive completion (CQE) visible
// hca.cqe_latency after that; the send completion is visible hca.cqe_latency after the ACK
// covering the message's last PSN arrives (common/hca_timing.h).
// Reliability (RC): go-back-N from a NAK's PSN, or from the oldest unacknowledged packet when
// hca.ack_timeout expires (measured from that packet's transmission, restarted by every ACK
// that makes progress); more than hca.retry_count retries of one packet fails the run.
// RDMA READ: a request packet; the responder streams READ RESPONSE packets back (they are the
// acknowledgement); a lost response is recovered by the requester's timeout (request again).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "common/hca_host.h"
#include "common/hca_iface.h"
#include "common/hca_stats.h"
#include "common/hca_tables.h"
#include "common/hca_timing.h"
#include "common/ib_cc_setup.h"
#include "common/ib_port.h"
#include "common/lazy_fifo.h"
#include "common/qp_table.h"
#include "common/timing.h"
#include "config/sim_config.h"
#include "cycle/cycle_engine.h"
#include "cycle/dcqcn.h"
#include "cycle/link_tap.h"
#include "cycle/packet.h"
#include "cycle/pfc.h"
#include "golden/credit_fc.h"
#include "golden/rc_ack.h"
#include "golden/rc_psn_window.h"
#include "golden/vl_arb.h"

namespace ndr::cycle {

class hca_array : public cycle_engine, public common::hca_iface {
public:
    hca_array(const cfg::config& c, const common::timing& tm, packet_pool& pool, uint32_t hosts);

    /// Host h's port is cabled to `peer` whose receive buffer holds peer_buffer_blocks per VL.
    void connect(uint32_t h, link_peer peer, uint32_t peer_buffer_blocks);
    void set_host(common::hca_host* host) { host_ = host; }
    /// Reports every packet that host h's HCA starts on its link to `tap` (nullptr: stop).
    /// The tap must outlive the simulation.
    void set_tap(uint32_t h, link_tap* tap);
    /// Posts a message (a WQE) at cycle `now` (the current or a future cycle) from src to dst.
    /// `tag` comes back in the completions. RDMA READ moves `bytes` from dst to src.
    void post(cycle_t now, common::verb v, uint32_t src, uint32_t dst, uint64_t bytes,
              uint64_t tag) override;
    /// Queues a SHARP aggregation packet (one chunk: c.packets is 1 at this level) from host h
    /// to its leaf switch's aggregation node, on VL sharp.vl, after the WQE processing of
    /// hca.tx_latency. SHARP packets are not RC: no PSN, ACK or retransmission.
    void sharp_send(cycle_t now, uint32_t h, const common::sharp_contribution& c) override;
    /// Calls host->on_timer(token) at cycle `at` (> the current cycle).
    void set_timer(cycle_t at, uint64_t token) override;
    void start(cycle_t now);
    const common::hca_stats& stats() const { return stats_; }
    uint32_t hosts() const override { return hosts_; }
    /// Cycle host `h`'s link is free: beats of hca_stats::tx_beats still to be sent are those
    /// before it (link utilisation samples).
    const cycle_t& tx_free(uint32_t h) const { return ports_[h].tx_free; }
    /// Messages posted but not yet delivered and acknowledged.
    uint64_t busy_messages() const { return live_messages_; }
    /// RoCE: PFC state and statistics of the NIC ports (nullptr for IB or pfc.enabled false).
    const pfc_ports* pfc() const { return pfc_.get(); }
    /// RoCE: DCQCN current rate of the QP src -> dst (line rate if unlimited or unknown).
    double qp_rate_bps(uint32_t src, uint32_t dst) const;

protected:
    void run_cycle(cycle_t t, const std::vector<event>& events) override;

private:
    enum : uint8_t {
        EV_MSG_READY = EV_PRIVATE,  ///< WQE processed: message joins its QP (pkt = message)
        EV_TXFREE,                  ///< the link of host `port` is free again
        EV_TAIL,                    ///< last beat of packet `pkt` arrived at host `port`
        EV_PLACED,    ///< message `pkt`'s receive completion at its destination (rx + cqe latency)
        EV_TIMER,     ///< host timer, token in timers_[pkt]
        EV_QP_TIMER,  ///< RC ACK timer of QP `pkt`
        EV_FC_FLUSH,
        EV_RXFREE,
        EV_REFRESH,
        EV_SHARP_READY,   ///< a SHARP packet (pool index pkt) joins host `port`'s queue
        EV_SHARP_PLACED,  ///< a SHARP result (pool index pkt) is visible at host `port`
        EV_RATE_WAKE,     ///< DCQCN: a rate-limited QP of host `port` may send again
        EV_CTRL_READY,    ///< the oldest of host `port`'s pending ACK/NAKs is ready (ack_latency)
        EV_SEND_DONE,     ///< message `pkt`'s send completion (cqe_latency after its last ACK)
    };

    struct message {
        common::verb v = common::verb::rdma_write;
        uint32_t src = 0;  ///< the host whose HCA transmits the data
        uint32_t dst = 0;  ///< the host that receives the data
        uint64_t bytes = 0;
        uint64_t tag = 0;
        uint32_t packets = 0;  ///< data packets
        uint32_t qp = 0;       ///< sending QP
        uint32_t first_psn = 0;
        uint32_t arrived = 0;        ///< data packets placed at dst (any order)
        bool read_response = false;  ///< a READ's data stream (responder -> requester)
        bool delivered = false;      ///< data placed at dst (EV_PLACED done)
        bool acked = false;          ///< every packet acknowledged
        bool live = false;
    };
    /// One packet of a QP's send window, kept until acknowledged.
    struct sent_packet {
        uint32_t psn = 0;
        uint32_t msg = 0;
        uint32_t index = 0;  ///< packet index within the message
        cycle_t sent = 0;    ///< its last (re)transmission
        bool ack_req = false;
    };
    /// A reliable-connected QP: sender state for src -> dst, receiver state for data from dst.
    struct queue_pair {
        uint32_t src = 0;
        uint32_t dst = 0;
        // sender
        common::lazy_fifo<uint32_t> messages;  ///< messages not yet fully transmitted, in order
        uint32_t next_index = 0;               ///< next new packet of messages.front()
        uint32_t next_psn = 0;
        common::lazy_fifo<sent_packet> window;  ///< sent, not yet acknowledged
        std::size_t resend = 0;                 ///< window[resend..] must be (re)sent first
        uint32_t retries = 0;
        bool timer_armed = false;
        cycle_t last_progress = 0;  ///< last ACK/NAK that retired packets (restarts the timer)
        common::lazy_fifo<uint32_t> unfinished;  ///< messages awaiting their last ACK, in PSN order
        // receiver (packets from dst to src arrive here)
        golden::rc_psn_window psns;     ///< expected PSN, packets placed out of order
        golden::rc_ack_coalescer acks;  ///< ACK coalescing of the accepted packets
        bool nak_sent = false;
        bool active = false;  ///< in the host's round-robin list
        // RoCE DCQCN
        dcqcn_rp rp;           ///< sender: reaction point
        cycle_t last_cnp = 0;  ///< receiver: last CNP sent for this flow
        bool cnp_sent = false;
        // InfiniBand congestion control (cc.enabled): sender's CCT index and pacing
        golden::cc_ccti cc;
    };
    struct control_packet {
        uint8_t kind = common::PK_ACK;
        uint32_t qp = 0;  ///< the receiving side's QP index (the ACK goes to its dst)
        uint32_t psn = 0;
    };
    /// One host's port beyond its link layer (link_: credits, VL arbiter, FC, stalls).
    struct host_port {
        link_peer peer;
        cycle_t tx_free = 0;
        cycle_t dma_free = 0;
        common::wqe_pacer wqe;  ///< WQE engine: hca.message_interval, hca.qp_message_interval
        bool txfree_pending = false;
        bool tx_dirty = false;
        std::deque<uint32_t> active;         ///< QPs with something to send, round robin
        std::deque<control_packet> control;  ///< ACK/NAK to send (before data)
        std::deque<control_packet> pending;  ///< ACK/NAK in receive processing (ack_latency)
        packet_queue sharp;                  ///< SHARP packets ready to send
    };

    void on_msg_ready(cycle_t t, uint32_t m);
    void mark_tx(uint32_t h);
    void try_send(cycle_t t, uint32_t h);
    bool send_control(cycle_t t, uint32_t h);
    bool send_sharp(cycle_t t, uint32_t h);
    bool send_data(cycle_t t, uint32_t h);
    void transmit(cycle_t t, uint32_t h, uint32_t pkt);
    void activate(uint32_t qp);
    void on_tail(cycle_t t, uint32_t h, uint32_t pkt);
    void receive_data(cycle_t t, uint32_t h, packet& p);
    void receive_ack(cycle_t t, uint32_t qp, uint32_t psn, bool nak);
    void queue_control(uint32_t h, uint8_t kind, uint32_t qp, uint32_t psn);
    /// An ACK/NAK caused by a packet received at t: ready hca.ack_latency later.
    void respond(cycle_t t, uint32_t h, uint8_t kind, uint32_t qp, uint32_t psn);
    /// Message m's send completion (every packet acknowledged; the CQE written).
    void send_done(cycle_t t, uint32_t m);
    void arm_timer(cycle_t t, uint32_t qp);
    void on_qp_timer(cycle_t t, uint32_t qp);
    uint32_t alloc_message();
    void free_message(uint32_t m);
    void retire_if_done(uint32_t m);
    uint32_t packet_payload(const message& m, uint32_t index) const;
    uint8_t data_opcode(const message& m, uint32_t index) const;
    /// Link bytes of a packet: IB LRH..VCRC, or the RoCEv2 frame + preamble/IFG.
    uint32_t wire_of(uint32_t payload, uint8_t opcode) const;
    void pfc_check(cycle_t t, uint32_t h, uint32_t vl);
    void rx_freed(cycle_t t, uint32_t h, uint32_t vl, uint32_t blocks);

    common::timing tm_;
    packet_pool& pool_;
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
    uint64_t ack_timeout_cycles_;
    uint32_t retry_count_;
    uint32_t max_outstanding_;
    double icrc_error_rate_;
    uint64_t fault_state_;
    common::hca_host* host_ = nullptr;
    std::vector<link_tap*> taps_;  ///< per host; empty unless set_tap() was called

    std::vector<host_port> ports_;
    std::vector<message> msgs_;
    std::vector<uint32_t> free_msgs_;
    uint64_t live_messages_ = 0;
    /// Queue pairs never move once created (a host callback may open one while the caller
    /// holds another); a received packet finds its receiver QP through qp_table::reverse.
    common::qp_table<queue_pair> qps_;
    std::vector<uint64_t> timers_;
    std::vector<uint32_t> free_timers_;
    std::vector<uint32_t> tx_dirty_;
    /// The link layer of every host's port (common/ib_port.h): [host * vls + vl].
    common::ib_ports<> link_;
    uint32_t fc_proc_cycles_;
    bool refresh_due_ = false;
    uint64_t next_packet_id_ = 0;
    common::hca_stats stats_;
    bool roce_ = false;
    bool dcqcn_on_ = false;
    /// routing.mode = adaptive (InfiniBand): packets ahead of the expected PSN are placed, not
    /// NAKed (golden/rc_psn_window.h); loss is then recovered by the transport timer.
    bool ooo_ = false;
    dcqcn_params dcqcn_;
    uint64_t cnp_interval_cycles_ = 0;
    std::unique_ptr<pfc_ports> pfc_;
    bool cc_on_ = false;        ///< cc.enabled on InfiniBand (common::cc_active)
    golden::cc_ca_params ccp_;  ///< CCTI rule and CCT delays
};

}  // namespace ndr::cycle
