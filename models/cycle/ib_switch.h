// Cycle-level model of an InfiniBand switch ASIC (Quantum-2 class by default).
//
// Per cycle (one 64-byte beat, 1.28 ns at 400 Gb/s), in this order:
//   1. apply the cycle's events: header arrivals (route by LFT, SL->VL, credit the input buffer),
//      packets becoming eligible after the ingress pipeline, crossbar transfers completing
//      (input buffer freed -> FC update), FC updates from downstream (FCCL);
//   2. allocate: per output, the VL arbiter (IB high/low tables) picks a VL among those with a
//      requesting input whose head packet fits the downstream credits and the egress staging
//      buffer; iSLIP (or a separable round-robin allocator) matches inputs to outputs;
//   3. commit the matches: crossbar transfer at `speedup` x line rate, egress link transmission,
//      credits consumed; FC updates for buffers freed this cycle depart.
// The whole switch is one engine (one SystemC process): cost scales with packets, not ports.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "common/ar_router.h"
#include "common/bits.h"
#include "common/ib_cc_setup.h"
#include "common/ib_port.h"
#include "common/rx_buffer.h"
#include "common/sharp_an.h"
#include "common/switch_stats.h"
#include "common/timing.h"
#include "common/xbar_clock.h"
#include "config/sim_config.h"
#include "cycle/cycle_engine.h"
#include "cycle/link_tap.h"
#include "cycle/packet.h"
#include "cycle/pfc.h"
#include "golden/credit_fc.h"
#include "golden/lft.h"
#include "golden/sl2vl_ports.h"
#include "golden/switch_alloc.h"
#include "golden/vl_arb.h"

namespace ndr::cycle {

struct eth_state;  // RoCE: PFC, ECN, ECMP and egress queue accounting (ib_switch_eth.cpp)

class ib_switch : public cycle_engine {
public:
    ib_switch(const cfg::config& c, const common::timing& tm, packet_pool& pool,
              golden::lft routes);
    ~ib_switch() override;

    /// Connects port p to a peer (an HCA/endpoint port or another switch's port) whose receive
    /// buffer holds peer_buffer_blocks per VL: the initial credit limit of every output VL.
    void connect(uint16_t port, link_peer peer, uint32_t peer_buffer_blocks);
    /// Port `port` leads to an HCA: with cc.victim_mask = ca its output VLs mark FECN even
    /// while they wait for credits (golden/ib_cc_marker.h).
    void set_ca_port(uint16_t port);
    /// Schedules the measurement window [start, end).
    void set_window(cycle_t start, cycle_t end);
    /// Opens / closes the statistics window at cycle t (for runs whose end is not known up front;
    /// close_window also ends a set_window window early). Same calls on tlmm::ib_switch_tlm.
    void open_window(cycle_t t) {
        window_start(t);
        win_start_ = t;
    }
    void close_window(cycle_t t) {
        if (in_window_) window_end(t);
    }
    /// Gives this switch a SHARP aggregation node (docs/domain.md §7); SHARP packets on VL
    /// `sharp_vl` then go to it instead of the crossbar. Returns it for tree configuration.
    common::sharp_an& enable_sharp(uint32_t osts, uint32_t ost_bytes, uint32_t alu_cycles,
                                   common::sharp_payloads* payloads, uint8_t sharp_vl);
    const common::sharp_an* sharp() const { return an_.get(); }
    common::sharp_an* sharp() { return an_.get(); }
    /// Beats started on output port p's link since the start (all time, not windowed).
    const uint64_t& total_out_beats(uint16_t p) const { return total_out_beats_[p]; }
    /// Cycle output `p`'s link is free: the beats counted by total_out_beats but still to be
    /// sent are those before it (link utilisation samples).
    const uint64_t& link_free(uint16_t p) const { return link_free_[p]; }
    /// Schedules the first forced FC refresh round.
    void start(cycle_t now);
    const common::switch_stats& stats() const { return stats_; }
    /// Packets buffered or in the crossbar (for conservation checks).
    uint64_t packets_inside() const { return inside_; }
    uint32_t ports() const { return ports_; }
    /// Reports every packet that starts on output port `port`'s link to `tap` (nullptr: stop).
    /// The tap must outlive the simulation.
    void set_tap(uint16_t port, link_tap* tap);
    uint32_t buffer_occupancy(uint16_t port, uint8_t vl) const {
        return link_.rx(port, vl).occupied();
    }
    /// RoCE (fabric.technology = roce): routes packets whose LFT port is in `up_ports` to a
    /// member of `up_ports` instead, chosen by golden::ecmp_selector (routing.ecmp_mode;
    /// switch-specific seed).
    void set_ecmp(uint64_t up_ports, uint32_t seed);
    /// routing.mode = adaptive: a packet whose LFT port is p goes to the port of groups[p] (its
    /// AR group, fabric_plan::ar_groups) that golden::ar_choose picks; `sw` is the switch's
    /// index (tie-break draw, with sim.seed).
    void set_adaptive(const cfg::config& c, std::vector<uint64_t> groups, uint32_t sw);
    /// fault.link_down: from cycle `at` on, every packet whose header arrives on `port` is lost
    /// (counted by link_down_drops); under adaptive routing (set_adaptive first) AR stops
    /// offering the port then.
    void link_down(uint16_t port, cycle_t at);
    /// fault.reroute_delay: from cycle `at` on, packets are routed by `routes` and, under
    /// adaptive routing, by the AR groups per destination `ar_by_dest`
    /// (golden::reroute_ar_groups; empty = keep the groups).
    void reroute(cycle_t at, golden::lft routes, std::vector<uint64_t> ar_by_dest = {});
    /// fault.link_down on RoCE: from cycle `at` on, a packet for host d whose LFT port is an up
    /// port goes to an ECMP member of dst_up[d] (golden::reroute_ecmp) instead of every up port.
    void reroute_ecmp(cycle_t at, std::vector<uint64_t> dst_up);
    /// RoCE, routing.ecmp_down parallel: a packet whose LFT port p is not an up port goes to an
    /// ECMP member of groups[p] (fabric_plan::ar_groups: the cables to p's peer switch).
    void set_ecmp_down(std::vector<uint64_t> groups);
    /// Packets lost on `port` since it went down (0 for a port that never did).
    uint64_t link_down_drops(uint16_t port) const {
        return down_drops_.empty() ? 0 : down_drops_[port];
    }
    /// RoCE: PFC thresholds of port p (nullptr for IB).
    const pfc_ports* pfc() const;

protected:
    void run_cycle(cycle_t t, const std::vector<event>& events) override;

private:
    enum : uint8_t {
        EV_ELIG = EV_PRIVATE,
        EV_XBAR_DONE,
        EV_BUF_FREE,
        EV_FC_FLUSH,
        EV_INGRESS,
        EV_TICK,        ///< next-cycle work collected in xbar_next_
        EV_SHARP_IN,    ///< a SHARP packet fully arrived: to the aggregation node
        EV_SHARP_OUT,   ///< the aggregation node emits a packet (pkt = index in sharp_emits_)
        EV_SL2VL_DROP,  ///< a packet its SL2VL entry maps to VL15 fully arrived: dropped
        EV_REFRESH,
        EV_WIN_START,
        EV_WIN_END,
        EV_LINK_DROP,     ///< a packet lost on a dead cable fully arrived (fault.link_down)
        EV_REROUTE,       ///< the subnet manager's new LFT (pkt = index in reroutes_)
        EV_PORT_DOWN,     ///< fault.link_down: AR stops offering the port (SHIELD's FLFR)
        EV_ECMP_REROUTE   ///< RoCE: the rerouted ECMP sets (pkt = index, ib_switch_eth.cpp)
    };
    /// Blocks freed together as the crossbar reads a packet out of an input buffer (1 KiB).
    static constexpr uint32_t CREDIT_RETURN_CHUNK = 16;
    /// In EV_XBAR_DONE's output port (a): a priority packet's transfer, which held no port.
    static constexpr uint32_t XBAR_DONE_PRIO = 0x8000;

    struct grant {
        uint16_t in = 0;
        uint16_t out = 0;
        uint8_t vl = 0;
        uint32_t queue = 0;
        uint32_t pkt = 0;
    };

    void on_header(cycle_t t, uint16_t in, uint32_t pkt);
    /// A packet's blocks enter input buffer (in, its VL); checks the sender kept to credits.
    void take_blocks(cycle_t t, uint16_t in, const packet& p);
    void on_dead_link(cycle_t t, uint16_t in, uint32_t pkt);
    /// A dropped packet's tail is in: its blocks are freed, the packet record released.
    void drop_arrived(cycle_t t, const event& e);
    void on_eligible(cycle_t t, uint16_t in, uint32_t pkt);
    void on_ingress(cycle_t t);
    void on_sharp_in(cycle_t t, const event& e);
    void on_sharp_out(cycle_t t, uint32_t emit);
    uint64_t sharp_egress(cycle_t t, uint64_t free_in);
    void sharp_wake(cycle_t t);
    /// VLs on which an input of `avail` has a head packet for output o that fits the egress
    /// staging budget and the downstream credits (what output_grant chooses among).
    uint32_t xbar_eligible(cycle_t t, uint32_t o, uint64_t avail) const;
    void on_xbar_done(cycle_t t, const event& e);
    /// Inline: once per packet (crossbar transfer done).
    void free_input_blocks(cycle_t t, uint32_t port, uint32_t vl, uint32_t blocks) {
        const uint32_t k = port * vls_ + vl;
        common::rx_buffer& rx = link_.rx(k);
        if (eth_) {
            rx.on_free(blocks);
            rx.occ.update(t, rx.occupied());
            eth_pfc_check(t, port, vl);
            return;
        }
        link_.release(k, blocks);
        rx.occ.update(t, rx.occupied());
    }
    void allocate(cycle_t t);
    /// The grant oracle of golden::switch_alloc: output o's grant among `avail_in`, visited
    /// round robin from `from` (its grant pointer); the grant is kept in out_grant_[o].
    /// Prio: among the VOQs with a priority head packet only (prio_req_).
    template <bool Prio>
    uint32_t output_grant(cycle_t t, uint32_t o, uint64_t avail_in, const uint16_t& from);
    /// The priority packets' allocation of cycle t (golden/switch_alloc.h "Priority packets"),
    /// committed; returns its matches.
    golden::switch_alloc_result allocate_priority(cycle_t t, uint64_t excluded_out);
    /// Prio: a priority packet, interleaved with the ports' transfers (xbar_clock::interleave).
    template <bool Prio>
    void commit(cycle_t t, const grant& g);
    void send_fc(cycle_t t);
    void refresh(cycle_t t);
    void track_stalls(cycle_t t);
    void window_start(cycle_t t);
    void window_end(cycle_t t);
    // RoCE hooks (ib_switch_eth.cpp); called only when eth_ is set.
    void eth_init(const cfg::config& c);
    void eth_connect(uint16_t port, const link_peer& peer);
    void eth_pfc_frame(cycle_t t, const event& e);
    void eth_pfc_check(cycle_t t, uint32_t port, uint32_t vl);
    uint8_t eth_route(cycle_t t, const packet& p, uint8_t lft_port);
    void eth_reroute(uint32_t index);
    void eth_enqueue(cycle_t t, const packet& p);
    void eth_dequeue(cycle_t t, packet& p, uint16_t out, golden::credit_sender& tx);
    void eth_window_start(cycle_t t);
    void eth_window_end(cycle_t t);
    // Queue helpers: VOQ index (in, out, out_vl) or FIFO index (in, in_vl).
    uint32_t voq_index(uint32_t in, uint32_t out, uint32_t vl) const {
        return (in * ports_ + out) * vls_ + vl;
    }
    uint32_t queue_for(uint32_t in, uint32_t out, uint32_t vl) const;
    /// Inline: twice per packet (VOQ becomes non-empty / empty). in_req_out_ is read only by
    /// the rr allocator, so iSLIP does not maintain it.
    void set_request(uint32_t in, uint32_t out, uint32_t vl, bool on) {
        uint64_t& m = req_[out * vls_ + vl];
        if (prio_blocks_ != 0) {  // voq: the queue's head is the packet just pushed
            set_priority(
                in, out, vl,
                on && golden::is_priority_packet(
                          pool_.link(queues_[voq_index(in, out, vl)].head).blocks, prio_blocks_));
        }
        if (on) {
            m |= common::bit(in);
            out_req_vls_[out] |= 1U << vl;
            out_req_any_ |= common::bit(out);
            if (!islip_) in_req_out_[in] |= common::bit(out);
            return;
        }
        m &= ~common::bit(in);
        if (m == 0) {
            out_req_vls_[out] &= ~(1U << vl);
            if (out_req_vls_[out] == 0) out_req_any_ &= ~common::bit(out);
        }
        if (islip_) return;
        bool other = false;
        for (uint32_t v = 0; v < vls_; ++v)
            other = other || (req_[out * vls_ + v] & common::bit(in)) != 0;
        if (!other) in_req_out_[in] &= ~common::bit(out);
    }
    /// voq, switch.xbar_priority_blocks > 0: whether VOQ (in, out, vl) has a priority packet
    /// at its head (golden/switch_alloc.h "Priority packets").
    void set_priority(uint32_t in, uint32_t out, uint32_t vl, bool on) {
        uint64_t& m = prio_req_[out * vls_ + vl];
        if (on) {
            m |= common::bit(in);
            prio_out_vls_[out] |= 1U << vl;
            prio_out_any_ |= common::bit(out);
            return;
        }
        if ((m & common::bit(in)) == 0) return;
        m &= ~common::bit(in);
        if (m == 0) {
            prio_out_vls_[out] &= ~(1U << vl);
            if (prio_out_vls_[out] == 0) prio_out_any_ &= ~common::bit(out);
        }
    }
    void request_head(uint32_t queue);   ///< fifo: head of FIFO `queue` requests its output
    void withdraw_head(uint32_t queue);  ///< fifo: head of FIFO `queue` stops requesting

    // Configuration.
    common::timing tm_;
    uint32_t ports_;
    uint32_t vls_;
    bool voq_;
    bool islip_;
    uint32_t iterations_;
    bool cut_through_;
    bool check_;
    packet_pool& pool_;
    golden::lft routes_;
    golden::sl2vl_ports sl2vl_;  ///< per (input, output) port (switch.sl2vl_ports)
    /// The link layer of every port: input buffers (credits and occupancy) and output credits
    /// per (port, VL), the VL arbiter per output, FC pacing, credit stalls (common/ib_port.h).
    common::ib_ports<common::rx_buffer> link_;
    uint32_t fc_proc_cycles_;  ///< FC generate + consume (link latency is per port)

    // Ports.
    std::vector<link_peer> peers_;
    std::vector<cycle_t> link_free_;        ///< per output: cycle its link is free
    std::vector<packet_queue> queues_;      ///< VOQs or FIFOs
    std::vector<uint16_t> fifo_req_count_;  ///< fifo: heads requesting (in,out,vl)
    std::vector<uint64_t> req_;             ///< [out*vls + vl]: bitmask of inputs
    std::vector<uint64_t> in_req_out_;      ///< [in]: outputs requested (any VL); rr only
    uint64_t out_req_any_ = 0;              ///< outputs with any request
    std::vector<uint32_t> out_req_vls_;     ///< [out]: bitmask of VLs with requests
    uint64_t in_busy_ = 0;
    uint64_t out_busy_ = 0;
    common::xbar_clock xbar_;     ///< crossbar time at switch.speedup, fractions carried
    golden::switch_alloc alloc_;  ///< iSLIP / input-first rule and its pointers
    /// switch.xbar_priority_blocks (0 for fifo queueing: priority packets are voq only).
    uint32_t prio_blocks_;
    golden::switch_alloc prio_alloc_;     ///< the priority packets' allocator, own pointers
    std::vector<uint64_t> prio_req_;      ///< [out*vls + vl]: inputs with a priority head
    std::vector<uint32_t> prio_out_vls_;  ///< [out]: VLs with a priority head
    uint64_t prio_out_any_ = 0;           ///< outputs with a priority head packet waiting
    uint64_t inside_ = 0;
    std::vector<event> xbar_next_;  ///< XBAR_DONE due next cycle (one tick for all)
    std::vector<event> xbar_now_;
    cycle_t tick_at_ = ~cycle_t{0};  ///< cycle of the pending EV_TICK
    std::vector<uint64_t> total_out_beats_;
    std::vector<link_tap*> taps_;           ///< per output port; empty unless set_tap() was called
    std::unique_ptr<common::sharp_an> an_;  ///< SHARP aggregation node, if enabled
    common::sharp_payloads* sharp_payloads_ = nullptr;
    uint8_t sharp_vl_ = 1;
    std::vector<packet_queue> sharp_q_;            ///< per output: SHARP packets to send
    uint64_t sharp_pending_ = 0;                   ///< outputs with SHARP packets waiting
    uint64_t sharp_credit_blocked_ = 0;            ///< of those, waiting for credits (this cycle)
    std::vector<common::sharp_emit> sharp_emits_;  ///< emitted, not yet due
    std::vector<uint32_t> free_emits_;
    std::vector<common::sharp_emit> emit_scratch_;
    std::vector<uint64_t> taken_scratch_;  ///< packets the aggregation node consumed
    /// Cut-through: packets in the ingress pipeline, in arrival order (a constant delay, so
    /// also in eligibility order). A ring (capacity a power of two) rather than a list through
    /// the packets, so that on_ingress can prefetch ahead.
    struct ingress_entry {
        cycle_t elig;
        uint32_t pkt;
        uint32_t in;
    };
    std::vector<ingress_entry> ingress_;
    std::size_t ingress_head_ = 0;
    std::size_t ingress_size_ = 0;
    void ingress_grow();
    bool refresh_due_ = false;
    std::unique_ptr<eth_state> eth_;         ///< RoCE only
    std::unique_ptr<common::ar_router> ar_;  ///< routing.mode = adaptive only
    // fault.link_down (empty without faults).
    bool faulty_ = false;
    std::vector<cycle_t> down_at_;       ///< per input port: cycle it went down, or NEVER
    std::vector<uint64_t> down_drops_;   ///< per input port: packets lost on it
    std::vector<golden::lft> reroutes_;  ///< the LFTs EV_REROUTE installs
    std::vector<std::vector<uint64_t>> reroute_ar_;  ///< and the AR groups (adaptive only)
    std::unique_ptr<golden::cc_marker> cc_;          ///< cc.enabled (InfiniBand) only
    bool cc_mask_ca_ = false;                        ///< cc.victim_mask = ca

    // Scratch for allocation (kept to avoid per-cycle allocation).
    std::vector<grant> grants_;
    std::vector<uint64_t> blocked_now_;  ///< [vl]: outputs credit-blocked this cycle
    cycle_t backlog_wake_ = NEVER;
    std::vector<grant> out_grant_;  ///< per output: its grant of the current iteration

    // Measurement.
    cycle_t win_start_ = 0;
    cycle_t win_end_ = 0;
    bool in_window_ = false;
    common::switch_stats stats_;
};

}  // namespace ndr::cycle
