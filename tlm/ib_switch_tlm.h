// InfiniBand switch at TLM-2.0 level (AT, base protocol, per-packet events; see link_tlm.h for
// the phases on each hop). Same config keys and golden calls as the cycle model
// (models/cycle/ib_switch.h): LFT routing, SL2VL, per-(input, VL) credit_receiver, per-(output,
// VL) credit_sender, per-output vl_arbiter, FC updates paced by link.fc_min_interval.
//
// Timing, in whole beats of common::timing (identical to the cycle model at zero load):
// header in at t -> eligible at t + switch_cycles - 1 (cut-through; store-and-forward adds
// beats - 1) -> granted at g >= eligible -> first beat on the output link at
// max(g + 1, link free). Crossbar transfer beats / speedup with the fraction carried per port
// (common/xbar_clock.h: ceil(beats / speedup) for an isolated packet), not before the tail arrives;
// input-buffer blocks are freed in 1 KiB chunks as the crossbar reads them, as in the cycle model.
//
// Allocation abstraction (the cycle model runs iSLIP or round robin with pointers per cycle):
// at each time step with work, outputs are visited round robin from a rotating start; an output
// whose crossbar port is free serves, on each VL, the OLDEST head packet (by header arrival)
// among the VOQs (input, output, VL) whose input crossbar port is free and whose packet fits
// the downstream credits and the egress staging budget; the golden VL arbiter then picks the
// VL (golden::pick_output_vl, the cycle model's VL step). One pass, greedy, no grant/accept
// pointers: not an instance of golden::switch_alloc (docs/architecture.md, "The switch
// pipeline", step 5). Only VOQ queueing is modelled.
//
// Bursts (ib_extension::count > 1, `ndrsim run` with sim.tlm_burst): allocated like one packet
// whose beats are the burst's wire span; the egress staging check uses one packet's beats; the
// input buffer holds the blocks of one packet (the sender's credit charge) until the burst's
// tail has crossed. A data burst whose LFT port has an adaptive-routing group of two or more
// ports, and whose credit loop on that port cannot carry its packets back to back, is split
// into parts routed one by one (split_burst; docs/fidelity_tlm.md). Express packets (ACKs
// while bursts are on) go from the header straight to the output after the pipeline latency,
// past busy crossbar ports and links, if the output VL has credits (else they queue like any
// packet).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "common/ar_router.h"
#include "common/ib_cc_setup.h"
#include "common/ib_port.h"
#include "common/lazy_fifo.h"
#include "common/rx_buffer.h"
#include "common/switch_stats.h"
#include "common/timing.h"
#include "common/xbar_clock.h"
#include "config/sim_config.h"
#include "credit_pacer.h"
#include "golden/credit_fc.h"
#include "golden/lft.h"
#include "golden/sl2vl_ports.h"
#include "golden/vl_arb.h"
#include "ib_extension.h"
#include "nb_sockets.h"
#include "payload_pool.h"
#include "sharp_an_tlm.h"
#include "timed_device.h"

namespace ndr::tlmm {

class ib_switch_tlm : public timed_device {
public:
    using target_socket = nb_target_socket<ib_switch_tlm>;
    using initiator_socket = nb_initiator_socket<ib_switch_tlm>;
    /// Per port: data in (from the incoming link's rx) and FC out (into its fc_in).
    std::vector<std::unique_ptr<target_socket>> in;
    std::vector<std::unique_ptr<initiator_socket>> fc_out;
    /// Per port: data out (to the outgoing link's tx) and FC in (from its fc_out).
    std::vector<std::unique_ptr<initiator_socket>> out;
    std::vector<std::unique_ptr<target_socket>> fc_in;

    /// Observer of packets leaving an output: (cycle the first beat leaves, port, packet).
    using egress_observer = std::function<void(uint64_t, uint16_t, const ib_extension&)>;

    ib_switch_tlm(sc_core::sc_module_name name, const cfg::config& c, const common::timing& tm,
                  golden::lft routes, run_status& status);
    ib_switch_tlm(const ib_switch_tlm&) = delete;
    ib_switch_tlm& operator=(const ib_switch_tlm&) = delete;
    /// Sockets newest first (socket_teardown.h).
    ~ib_switch_tlm() override;

    /// Port `port` is cabled to a partner whose receive buffer holds peer_buffer_blocks per VL:
    /// the initial credit limit of every output VL (clamped to 2048). The sockets are bound by the
    /// fabric builder. Same call as cycle::ib_switch::connect, without the cycle-level peer.
    void connect(uint16_t port, uint32_t peer_buffer_blocks);
    /// Port `port` leads to an HCA (cc.victim_mask; as cycle::ib_switch::set_ca_port).
    void set_ca_port(uint16_t port);
    /// The credit loop of output `port` (credit_pacer.h), for bursts; after connect.
    void set_credit_loop(uint16_t port, const credit_loop& loop);
    void set_window(uint64_t start, uint64_t end);
    /// Opens / closes the statistics window at cycle `now` (`ndrsim run`: opened at 0, closed
    /// after the simulation; close_window also ends a set_window window early). Same calls on
    /// cycle::ib_switch.
    void open_window(uint64_t now);
    void close_window(uint64_t now);
    /// routing.mode = adaptive: as cycle::ib_switch::set_adaptive, one choice per transaction.
    void set_adaptive(const cfg::config& c, std::vector<uint64_t> groups, uint32_t sw);
    void set_egress_observer(egress_observer f) { observer_ = std::move(f); }
    /// Test hook (fault injection): the packet with this id is dropped at its header arrival
    /// (its blocks freed, never forwarded). Breaks the lossless fabric on purpose.
    void inject_drop(uint64_t packet_id) { drop_id_ = packet_id; }
    const common::switch_stats& stats() const { return stats_; }
    /// Packets buffered in the switch (header arrived, crossbar transfer not finished).
    uint64_t packets_inside() const { return inside_; }
    /// Beats sent on output `port` since the start (whole run, for utilisation samples).
    const uint64_t& total_out_beats(uint16_t port) const { return total_out_beats_[port]; }
    /// Cycle output `port`'s link is free (as cycle::ib_switch::link_free).
    const uint64_t& link_free(uint16_t port) const { return link_free_[port]; }
    /// SHARP bursts (sim.tlm_sharp_burst) this switch sent while crossbar traffic of another VL
    /// waited for the same output: a burst holds the output for its whole span, so there SHARP
    /// gets more than the VL arbiter's share (docs/fidelity_tlm.md).
    uint64_t sharp_bursts_contended() const { return sharp_bursts_contended_; }
    /// Turns on the SHARP aggregation node (sharp_an_tlm.h): packets of kind PK_SHARP_UP/DOWN
    /// arriving on `sharp_vl` go to it instead of the LFT and the crossbar. Returns the node
    /// for tree configuration (testbench/sharp_manager.h).
    common::sharp_an& enable_sharp(uint32_t osts, uint32_t ost_bytes, uint32_t alu_cycles,
                                   common::sharp_payloads* payloads, uint8_t sharp_vl);
    const common::sharp_an* sharp() const { return an_ ? &an_->node() : nullptr; }

protected:
    void on_timer(uint64_t now, const timer& t) override;
    void evaluate(uint64_t now) override;

private:
    enum : uint8_t {
        T_ELIG = 1,
        T_XBAR_DONE,
        T_BUF_FREE,
        T_EGRESS,
        T_FC_FLUSH,
        T_WAKE,
        T_DROP,
        T_WIN_START,
        T_WIN_END,
        T_SHARP_IN,
        T_SHARP_OUT,
        T_SHARP_FREE,  ///< a SHARP burst the node took before its tail was in: tail arrived
        T_EXPRESS_DONE,
        T_SL2VL_DROP,  ///< a packet its SL2VL entry maps to VL15 fully arrived: dropped
        T_PART_DONE,   ///< a split part crossed: frees the crossbar ports only
        T_ARRIVE = DELIVERY,
        T_FC_ARRIVE
    };
    static constexpr uint32_t CREDIT_RETURN_CHUNK = 16;  ///< as cycle::ib_switch

    tlm::tlm_sync_enum in_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& d);
    tlm::tlm_sync_enum fc_in_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                sc_core::sc_time& d);
    tlm::tlm_sync_enum out_bw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                              sc_core::sc_time& d);
    tlm::tlm_sync_enum fc_out_bw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                 sc_core::sc_time& d);

    void accept(uint64_t t, uint32_t port, tlm::tlm_generic_payload& gp);
    void apply_fc(uint32_t port, uint8_t vl, uint32_t fccl);
    void allocate(uint64_t t);
    /// Prio: among the VOQs with a priority head packet only (golden/switch_alloc.h
    /// "Priority packets", as cycle::ib_switch).
    template <bool Prio>
    bool output_grant(uint64_t t, uint32_t o, uint64_t avail, uint32_t& in, uint32_t& vl);
    /// Prio: a priority packet, interleaved with the ports' transfers (xbar_clock::interleave).
    template <bool Prio>
    void commit(uint64_t t, uint32_t in, uint32_t o, uint32_t vl);
    /// Whether VOQ (in, o, vl) has a priority packet at its head (prio_req_).
    void set_priority(uint32_t in, uint32_t o, uint32_t vl, bool on);
    bool express(uint64_t elig, uint32_t in_port, tlm::tlm_generic_payload& gp);
    uint32_t xbar_cycles(uint32_t beats) const;
    /// A data burst whose LFT port has an adaptive-routing group of g >= 2 ports arrives on
    /// input i at t: its first packets leave as up to g - 1 parts of their own (routed, queued
    /// and sent as separate transactions), as the cycle level routes the packets of a message
    /// one by one; `gp` keeps the last part (and the input buffer's charge). Returns the
    /// cycles from t to the last part's first header.
    uint64_t split_burst(uint64_t t, uint32_t i, uint8_t lft, tlm::tlm_generic_payload& gp);
    /// Adaptive routing's output for transaction `e` from input i whose LFT port is `lft`
    /// (counted as queued there), by the free credits of each candidate on its output VL.
    uint8_t ar_route(uint32_t i, uint8_t lft, const ib_extension& e);
    void free_input_blocks(uint64_t t, uint32_t port, uint32_t vl, uint32_t blocks);
    void respond_upstream(uint16_t port, tlm::tlm_generic_payload& gp);
    void send_fc(uint64_t t);
    void on_sharp_in(uint64_t t, const timer& tm);
    void sharp_consumed(uint64_t t, tlm::tlm_generic_payload& gp);
    uint64_t sharp_egress(uint64_t t, uint64_t free_in);
    void sharp_wake(uint64_t t);
    /// VLs on which an input of `avail` has a head packet for output o that fits the egress
    /// staging budget and the downstream credits (what output_grant chooses among).
    uint32_t xbar_eligible(uint64_t t, uint32_t o, uint64_t avail) const;
    void track_stalls(uint64_t t);
    using voq_fifo = common::lazy_fifo<tlm::tlm_generic_payload*>;
    /// The virtual output queue (input i, output o, VL vl); its pair's row must exist (a
    /// packet was queued there: voq_made).
    voq_fifo& voq(uint32_t i, uint32_t o, uint32_t vl) { return voq_rows_[i * ports_ + o][vl]; }
    const voq_fifo& voq(uint32_t i, uint32_t o, uint32_t vl) const {
        return voq_rows_[i * ports_ + o][vl];
    }
    /// The same, made on the pair's first packet.
    voq_fifo& voq_made(uint32_t i, uint32_t o, uint32_t vl);

    common::timing tm_;
    uint32_t ports_;
    uint32_t vls_;
    bool cut_through_;
    bool check_;
    golden::lft routes_;
    golden::sl2vl_ports sl2vl_;  ///< per (input, output) port (switch.sl2vl_ports)
    /// The link layer of every port (common/ib_port.h), as in cycle::ib_switch.
    common::ib_ports<common::rx_buffer> link_;
    common::xbar_clock xbar_;  ///< crossbar time at switch.speedup, fractions carried per port
    payload_pool fc_pool_;
    payload_pool split_pool_;  ///< parts of bursts split at adaptive-routing choices
    uint32_t mtu_ = 4096;      ///< hca.mtu: payload of every packet of a message but its last
    egress_observer observer_;
    uint64_t drop_id_ = ~uint64_t{0};

    std::vector<credit_pacer> out_pace_;  ///< [out*vls + vl]: bursts only (set_credit_loop)
    std::vector<uint64_t> link_free_;
    std::vector<uint64_t> out_start_;  ///< first beat of the last transaction on the output
    std::vector<uint32_t> out_pkt_;    ///< beats of one of its packets
    /// The order state of one (input, output) flow. An express packet keeps the order of its
    /// flow: it never passes a packet of the flow accepted on the normal path and not yet
    /// granted (IB keeps a VL's packets in order from one input to one output).
    struct flow_state {
        uint64_t last_start = 0;  ///< first beat of the flow's last granted packet
        /// The cycle the flow's last express packet leaves (express()). A later express packet
        /// of the flow does not leave before it: an express packet's slot counts the other
        /// inputs waiting when it arrives, so one arriving later, when fewer wait, would
        /// otherwise pass it (an ACK overtaking an older ACK of its QP).
        uint64_t express_at = 0;
        uint32_t queued = 0;  ///< packets accepted on the normal path, not yet granted
    };
    /// The flow from input i to output o; its output's row is made on first use (three dense
    /// ports x ports arrays took 80 KiB per switch, 105 MB on 1,280 switches).
    flow_state& flow(uint32_t o, uint32_t i) {
        std::unique_ptr<flow_state[]>& row = flow_rows_[o];
        if (!row) row = std::make_unique<flow_state[]>(ports_);
        return row[i];
    }
    std::vector<std::unique_ptr<flow_state[]>> flow_rows_;  ///< [out][in]
    /// [i * ports + o]: the VOQs of one input-output pair, one per VL, made on the pair's first
    /// packet (a fabric of 1,280 switches of 64 ports used 335 MB of VOQs made up front, most
    /// never used).
    std::vector<std::unique_ptr<voq_fifo[]>> voq_rows_;
    std::vector<uint64_t> req_;          ///< [out*vls + vl]: inputs with a head packet
    std::vector<uint32_t> out_req_vls_;  ///< [out]: VLs with requests
    uint64_t out_req_any_ = 0;
    uint32_t prio_blocks_;                ///< switch.xbar_priority_blocks
    std::vector<uint64_t> prio_req_;      ///< [out*vls + vl]: inputs with a priority head
    std::vector<uint32_t> prio_out_vls_;  ///< [out]: VLs with a priority head
    uint64_t prio_out_any_ = 0;           ///< outputs with a priority head packet waiting
    uint64_t in_busy_ = 0;
    uint64_t out_busy_ = 0;
    uint32_t rr_start_ = 0;
    uint64_t backlog_wake_ = 0;
    std::vector<uint64_t> blocked_now_;  ///< [vl]: outputs credit-blocked this step
    uint64_t inside_ = 0;
    std::vector<uint64_t> total_out_beats_;
    std::unique_ptr<sharp_an_tlm> an_;       ///< SHARP aggregation node, if enabled
    std::unique_ptr<common::ar_router> ar_;  ///< routing.mode = adaptive only
    std::unique_ptr<golden::cc_marker> cc_;  ///< cc.enabled (InfiniBand) only
    bool cc_mask_ca_ = false;                ///< cc.victim_mask = ca
    uint64_t sharp_bursts_contended_ = 0;    ///< see sharp_bursts_contended()
    uint64_t sharp_credit_blocked_ = 0;      ///< outputs whose SHARP head waits for credits
    uint64_t win_start_ = 0;
    bool in_window_ = false;
    common::switch_stats stats_;
};

}  // namespace ndr::tlmm
