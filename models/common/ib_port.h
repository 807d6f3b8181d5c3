// The link layer of one device's InfiniBand ports, written once for every device at every level
// (docs/style.md §14): the cycle-level switch, HCAs and traffic endpoints (models/cycle/) and
// their TLM counterparts (tlm/) each hold one `ib_ports`. Per (port, VL), in flat arrays indexed
// [port * vls + vl]: the receive buffer's credits (RxState: a golden::credit_receiver, or the
// switches' rx_buffer with its occupancy statistic) and the sender's credits
// (golden::credit_sender); per port its golden::vl_arbiter; the FC pacing of the receive
// buffers (fc_pacer); the credit-stall accounting (credit_stalls). The rules, each once:
//   - an FC update (FCCL) arriving: golden credit_sender::on_fccl; out of range = invariant
//     error "cycle T: <sender name> P VL V: <golden message>" (on_fccl);
//   - an FCTBS arriving at a forced refresh: ABR must equal it, otherwise a packet was lost
//     (on_fctbs);
//   - FC updates going out: at most one per (port, VL) per link.fc_min_interval, carrying the
//     FCCL read when it departs (send_fc), at the next packet boundary of the port's outgoing
//     wire (booked, fc_departure: wire_schedule.h); the forced refresh round (refresh);
//   - the credit check and consume of a packet sent (can_send, consume, sent);
//   - the VL-arbitration call (pick_vl: golden::pick_output_vl) and its commit (sent);
//   - a local source beside the crossbar (the SHARP aggregation node) competing for the link
//     through the same VL arbiter (set_local_source, local_wins, sent_local);
//   - a shared receive buffer (switch.buffer_model = shared: golden::vl_buffer_pool): blocks
//     freed return to the port's pool, an FC update re-grants before its FCCL is read, an
//     arrival on a VL that could claim more asks for an FC update (set_shared_pool, arrived,
//     release, send_fc).
// What differs between the levels is the transport only: the cycle devices schedule an event
// into the partner's calendar, the TLM devices send an FC payload through a socket. It comes in
// as a callable template argument, so everything here inlines into the device (no virtual call,
// no std::function on a per-packet path). docs/architecture.md, "Credits". SystemC-free.
#pragma once
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "common/credit_stalls.h"
#include "common/cycles.h"
#include "common/fc_pacer.h"
#include "common/invariant_error.h"
#include "common/timing.h"
#include "common/wire_schedule.h"
#include "config/sim_config.h"
#include "golden/credit_fc.h"
#include "golden/switch_alloc.h"
#include "golden/vl_arb.h"
#include "golden/vl_buffer_pool.h"

namespace ndr::common {

/// Beats committed to an output link and not yet sent at cycle `t` (the egress staging that
/// switch.output_buffer bounds): the link is free at `link_free`, the next packet starts at
/// t + 1 at the earliest.
inline cycle_t staging_backlog(cycle_t link_free, cycle_t t) {
    return link_free > t + 1 ? link_free - (t + 1) : 0;
}

/// How a device names its ports in invariant messages ("cycle T: <name> P VL V: ...").
struct port_names {
    const char* sender;        ///< a port sending data: "switch output port", "HCA", "endpoint"
    const char* receiver;      ///< a port receiving data: "switch input port", "HCA", "endpoint"
    const char* fctbs_source;  ///< after "FCTBS N": " from the link partner" or ""
};

/// The names of each device kind, the same at both levels.
inline constexpr port_names SWITCH_PORT_NAMES{"switch output port", "switch input port",
                                              " from the link partner"};
inline constexpr port_names HCA_PORT_NAMES{"HCA", "HCA", ""};
inline constexpr port_names ENDPOINT_PORT_NAMES{"endpoint", "endpoint", ""};

/// The invariant errors of ib_ports (cold; ib_port.cpp).
[[noreturn]] void throw_fccl_error(const port_names& names, cycle_t t, uint32_t port, uint32_t vl,
                                   const std::logic_error& err);
[[noreturn]] void throw_fctbs_error(const port_names& names, cycle_t t, uint32_t port, uint32_t vl,
                                    uint32_t fctbs, uint32_t abr);
[[noreturn]] void throw_local_vl_error(const char* what, uint32_t vl, uint32_t vls);
[[noreturn]] void throw_credit_underflow(const port_names& names, cycle_t t, uint32_t port,
                                         uint32_t vl, uint32_t blocks, uint32_t available);

template <class RxState = golden::credit_receiver>
class ib_ports {
public:
    /// `ports` ports of `vls` data VLs each; every receive buffer holds rx_capacity_blocks per VL;
    /// every port arbitrates its VLs by `table`; FC updates at most one per fc_min_interval
    /// cycles per (port, VL). Senders start without credits until connect.
    ib_ports(uint32_t ports, uint32_t vls, uint32_t rx_capacity_blocks,
             const golden::vl_arb_table& table, uint32_t fc_min_interval, port_names names)
        : vls_(vls),
          rx_(std::size_t{ports} * vls, RxState(rx_capacity_blocks)),
          tx_(std::size_t{ports} * vls, golden::credit_sender(0)),
          arb_(ports, arb_slot{golden::vl_arbiter(table)}),
          fc_(std::size_t{ports} * vls, fc_min_interval),
          stalls_(ports, vls),
          wires_(ports),
          names_(names) {}
    /// The same from the config, as every device builds it: switch.vls data VLs, the VL
    /// arbitration tables of switch.vl_arb_*, FC pacing at link.fc_min_interval.
    ib_ports(const cfg::config& c, const timing& tm, uint32_t ports, uint32_t rx_capacity_blocks,
             port_names names)
        : ib_ports(ports, c.sw.vls, rx_capacity_blocks,
                   golden::vl_arb_table::parse(c.sw.vl_arb_high, c.sw.vl_arb_low,
                                               static_cast<uint8_t>(c.sw.vl_arb_limit_of_high),
                                               c.sw.vls),
                   tm.fc_min_interval_cycles, names) {}

    uint32_t ports() const { return static_cast<uint32_t>(arb_.size()); }
    uint32_t vls() const { return vls_; }
    RxState& rx(uint32_t k) { return rx_[k]; }  ///< k = port * vls + vl
    const RxState& rx(uint32_t k) const { return rx_[k]; }
    RxState& rx(uint32_t port, uint32_t vl) { return rx_[port * vls_ + vl]; }
    const RxState& rx(uint32_t port, uint32_t vl) const { return rx_[port * vls_ + vl]; }
    golden::credit_sender& tx(uint32_t k) { return tx_[k]; }
    const golden::credit_sender& tx(uint32_t k) const { return tx_[k]; }
    golden::credit_sender& tx(uint32_t port, uint32_t vl) { return tx_[port * vls_ + vl]; }
    const golden::credit_sender& tx(uint32_t port, uint32_t vl) const {
        return tx_[port * vls_ + vl];
    }
    golden::vl_arbiter& arb(uint32_t port) { return arb_[port].arb; }
    const golden::vl_arbiter& arb(uint32_t port) const { return arb_[port].arb; }
    credit_stalls& stalls() { return stalls_; }
    const credit_stalls& stalls() const { return stalls_; }

    /// Port `port` is cabled to a partner whose receive buffer holds peer_buffer_blocks per VL:
    /// every VL's initial credit limit, clamped to 2048 (link initialisation is not simulated).
    void connect(uint32_t port, uint32_t peer_buffer_blocks) {
        const uint32_t fccl = std::min(peer_buffer_blocks, golden::FC_MAX_OUTSTANDING);
        for (uint32_t vl = 0; vl < vls_; ++vl) tx_[port * vls_ + vl] = golden::credit_sender(fccl);
    }

    // ---- Receive side ------------------------------------------------------------------------

    /// switch.buffer_model = shared: each port's receive buffers hold `total_blocks` together,
    /// each VL at least `reserved_blocks`, a busy VL's pool blocks at most `alpha` x the
    /// unclaimed ones, its window at most `window_blocks`; every VL starts at its reservation
    /// (what connect must give the partner: timing::sw_credit_blocks).
    void set_shared_pool(uint32_t total_blocks, uint32_t reserved_blocks, double alpha,
                         uint32_t window_blocks) {
        pool_ = golden::vl_buffer_pool{total_blocks, reserved_blocks, alpha, window_blocks};
        for (RxState& r : rx_) r.set_capacity(reserved_blocks);
    }
    const golden::vl_buffer_pool& pool() const { return pool_; }
    /// A packet of `blocks` arrives at an endpoint's port (an HCA's or a traffic endpoint's;
    /// `who` names the kind, `packet` its id for the message): its sender held credits for it,
    /// so the receive buffer of (port, vl) must have room (lossless: an invariant_error at cycle
    /// t otherwise), and the packet takes its blocks.
    void receive_at_endpoint(uint64_t t, const char* who, uint32_t port, uint32_t vl,
                             uint64_t packet, uint32_t blocks) {
        RxState& r = rx(port, vl);
        if (r.free_blocks() < blocks) {
            throw invariant_error(fmt::format(
                "cycle {}: {} {} VL {}: receive buffer over capacity: packet {} needs {} blocks, "
                "{} free",
                t, who, port, vl, packet, blocks, r.free_blocks()));
        }
        r.on_receive(blocks);
    }
    /// A packet of `blocks` was accepted into receive buffer k (its room checked by the device:
    /// rx(k).free_blocks()). With a shared pool, a VL that could claim more asks for an FC update
    /// (returns true: the device must run send_fc this cycle).
    bool arrived(uint32_t k, uint32_t blocks) {
        RxState& r = rx_[k];
        r.on_receive(blocks);
        if (!pool_.enabled() || !can_grow(k)) return false;
        fc_.mark(k);
        return true;
    }
    /// `blocks` left receive buffer k (read out by the crossbar, consumed, dropped): static, they
    /// are the VL's again; shared, they return to the port's pool. An FC update is due.
    void release(uint32_t k, uint32_t blocks) {
        RxState& r = rx_[k];
        r.on_free(blocks);
        if (pool_.enabled()) r.set_capacity(r.capacity() - blocks);
        fc_.mark(k);
    }

    /// An FC packet carried the partner's FCTBS for (port, vl) at cycle t: ABR must equal it,
    /// else a packet was lost on the link (invariant error). Checked before the cycle's header
    /// arrivals (they left the partner after the FC packet).
    void on_fctbs(cycle_t t, uint32_t port, uint32_t vl, uint32_t fctbs) {
        RxState& r = rx_[port * vls_ + vl];
        const uint32_t abr = r.abr();
        if (!r.on_fctbs(fctbs)) throw_fctbs_error(names_, t, port, vl, fctbs, abr);
    }
    /// Receive buffer k changed (freed blocks): an FC update is due.
    void mark_fc(uint32_t k) { fc_.mark(k); }
    /// The pacing interval of slot k expired (the flush the device scheduled for flush_at).
    void on_fc_flush(uint32_t k) { fc_.on_flush(k); }
    /// End of cycle t: calls send(port, vl, fccl) for every FC update that may go now (FCCL read
    /// now, as it departs) and flush_at(k, cycle) once for each paced one (the device then calls
    /// on_fc_flush(k) at that cycle).
    template <class Send, class FlushAt>
    void send_fc(cycle_t t, Send&& send, FlushAt&& flush_at) {
        fc_.collect(
            t,
            [&](uint32_t k) {
                if (pool_.enabled()) regrant(k);
                send(k / vls_, k % vls_, rx_[k].fccl());
            },
            flush_at);
    }
    /// Every port's data reaches the wire `cycles` after its link is booked (a switch's egress
    /// pipeline, timing::egress_cycles): FC packets then slot in on the wire's cycles.
    void set_egress_delay(uint32_t cycles) {
        for (wire_schedule& w : wires_) w.set_lead(cycles);
    }
    /// A data packet (or a burst of packets of pkt_beats each) booked at cycle `now` on port
    /// `port`'s outgoing wire for [start, start + beats) (wire_schedule::book).
    void booked(uint32_t port, cycle_t now, cycle_t start, uint32_t beats, uint32_t pkt_beats = 0) {
        wires_[port].book(now, start, beats, pkt_beats);
    }
    /// An FC packet of port `port` ready at `ready` (buffer freed + link.fc_processing): the
    /// cycle it departs, at the next packet boundary of the outgoing wire; its wire bytes move
    /// the device's `link_free` (wire_schedule::fc).
    cycle_t fc_departure(uint32_t port, cycle_t ready, cycle_t& link_free) {
        return wires_[port].fc(ready, link_free);
    }
    /// Forced FC round (link.fc_refresh_period): for each port with live(port), every VL's FCCL
    /// is re-advertised (through send_fc) and send_fctbs(port, vl, fctbs) carries the VL's
    /// FCTBS to the partner, behind the packets already committed to the link.
    template <class Live, class SendFctbs>
    void refresh(Live&& live, SendFctbs&& send_fctbs) {
        const uint32_t n = ports();
        for (uint32_t p = 0; p < n; ++p) {
            if (!live(p)) continue;
            for (uint32_t vl = 0; vl < vls_; ++vl) {
                const uint32_t k = p * vls_ + vl;
                fc_.mark(k);
                send_fctbs(p, vl, tx_[k].fctbs());
            }
        }
    }

    // ---- Send side ---------------------------------------------------------------------------

    /// An FC update (absolute FCCL) for (port, vl) arrived at cycle t. Out of range (more than
    /// 2048 ahead of FCTBS, or not 12-bit) is an invariant error.
    void on_fccl(cycle_t t, uint32_t port, uint32_t vl, uint32_t fccl) {
        try {
            tx_[port * vls_ + vl].on_fccl(fccl);
        } catch (const std::logic_error& err) {
            throw_fccl_error(names_, t, port, vl, err);
        }
    }
    /// The credit check: a packet of `blocks` may go on (port, vl) now.
    bool can_send(uint32_t port, uint32_t vl, uint32_t blocks) const {
        return tx_[port * vls_ + vl].can_send(blocks);
    }
    /// A packet of `blocks` goes on (port, vl) at cycle t: its credits are consumed. With
    /// `check` (sim.check_invariants), too few credits is an invariant error; without, the
    /// golden counter still refuses (std::logic_error).
    void consume(cycle_t t, uint32_t port, uint32_t vl, uint32_t blocks, bool check) {
        golden::credit_sender& s = tx_[port * vls_ + vl];
        if (check && !s.can_send(blocks)) {
            throw_credit_underflow(names_, t, port, vl, blocks, s.available());
        }
        s.on_send(blocks);
    }
    /// The VL-arbitration call: among `eligible` VLs of `port` (each has a packet whose credits
    /// were checked), the one to send, or -1 (golden::pick_output_vl).
    int pick_vl(uint32_t port, uint32_t eligible) const {
        return golden::pick_output_vl(arb_[port].arb, eligible);
    }
    /// A packet of `blocks` and `wire_bytes` goes on (port, vl): consume, then the arbiter's
    /// commit.
    void sent(cycle_t t, uint32_t port, uint32_t vl, uint32_t blocks, uint32_t wire_bytes,
              bool check) {
        consume(t, port, vl, blocks, check);
        arb_[port].arb.commit(static_cast<int>(vl), wire_bytes);
        if (vl == local_vl_) local_turn_[port] = 1;  // the local source is next on its VL
    }

    // ---- A local source beside the crossbar (the SHARP aggregation node) -------------------
    //
    // The egress rule, the same at both levels (docs/architecture.md, "SHARP in-network
    // reduction"): the node's packets leave on one VL and compete for the output link through
    // the port's VL arbiter like the crossbar's packets. Each decision, the arbiter picks among
    // the VLs with an eligible crossbar packet and the node's VL (if the node's head packet has
    // credits and fits the egress staging); when the node and a crossbar input both have a
    // packet on the node's VL, they take turns (the node as one more requester of that VL's
    // round robin).

    /// Every port has a local source sending on `vl` (a data VL with a nonzero-weight entry in
    /// the VL arbitration tables; std::invalid_argument otherwise, naming `what`).
    void set_local_source(uint32_t vl, const char* what) {
        if (vl >= vls_ || (arb_.front().arb.weighted_vls() & (1U << vl)) == 0) {
            throw_local_vl_error(what, vl, vls_);
        }
        local_vl_ = vl;
        local_turn_.assign(arb_.size(), 1);
    }
    /// The VLs (bit mask) of `port` with an eligible crossbar packet, the input to local_wins:
    /// among the VLs of `req_vls`, those where some input of `inputs(vl)` (a bit mask) has a
    /// head packet, `head(in, vl)` = {staging beats, blocks}, that fits the egress staging
    /// (`backlog` beats committed, at most `staging_beats`) and has credits. One rule for the
    /// cycle and TLM switches; they differ only in where a head packet's size is kept.
    template <class Inputs, class Head>
    uint32_t xbar_eligible_vls(uint32_t port, uint32_t req_vls, uint64_t backlog,
                               uint32_t staging_beats, Inputs&& inputs, Head&& head) const {
        uint32_t eligible = 0;
        for (uint32_t vls = req_vls; vls != 0; vls &= vls - 1) {
            const auto vl = static_cast<uint32_t>(__builtin_ctz(vls));
            const golden::credit_sender& sender = tx(port, vl);
            for (uint64_t m = inputs(vl); m != 0; m &= m - 1) {
                const auto [beats, blocks] = head(static_cast<uint32_t>(__builtin_ctzll(m)), vl);
                if (backlog + beats <= staging_beats && sender.can_send(blocks)) {
                    eligible |= 1U << vl;
                    break;
                }
            }
        }
        return eligible;
    }
    /// Does the local source's head packet (eligible: its credits and staging checked) go on
    /// `port` now, given the VLs with an eligible crossbar packet (`xbar_eligible`)?
    bool local_wins(uint32_t port, uint32_t xbar_eligible) const {
        const uint32_t own = 1U << local_vl_;
        if (pick_vl(port, xbar_eligible | own) != static_cast<int>(local_vl_)) return false;
        return (xbar_eligible & own) == 0 || local_turn_[port] != 0;
    }
    /// The local source's packet of `blocks` and `wire_bytes` goes on `port`.
    void sent_local(cycle_t t, uint32_t port, uint32_t blocks, uint32_t wire_bytes, bool check) {
        consume(t, port, local_vl_, blocks, check);
        arb_[port].arb.commit(static_cast<int>(local_vl_), wire_bytes);
        local_turn_[port] = 0;
    }

private:
    /// The sum of the claims on port(k)'s pool (golden::vl_buffer_pool::claim of every VL).
    uint32_t claimed(uint32_t k) const {
        const uint32_t first = k - k % vls_;
        uint32_t sum = 0;
        for (uint32_t j = first; j < first + vls_; ++j) sum += pool_.claim(rx_[j].capacity());
        return sum;
    }
    bool can_grow(uint32_t k) const {
        const RxState& r = rx_[k];
        return pool_.grant(claimed(k), r.capacity(), r.occupied()) > r.capacity();
    }
    void regrant(uint32_t k) {
        RxState& r = rx_[k];
        r.set_capacity(pool_.grant(claimed(k), r.capacity(), r.occupied()));
    }

    /// A port's arbiter on a cache line of its own: its hot fields (vl_arbiter keeps them
    /// first: weighted_vls and the commit fast path) are then one line, read per packet.
    struct alignas(64) arb_slot {
        golden::vl_arbiter arb;
    };

    uint32_t vls_;
    std::vector<RxState> rx_;                ///< [port * vls + vl]
    std::vector<golden::credit_sender> tx_;  ///< [port * vls + vl]
    std::vector<arb_slot> arb_;              ///< [port]
    fc_pacer fc_;                            ///< FC packets per (port, VL)
    credit_stalls stalls_;
    std::vector<wire_schedule> wires_;  ///< [port]: the outgoing wire, for FC departures
    port_names names_;
    golden::vl_buffer_pool pool_;      ///< shared receive buffers (total 0: static)
    uint32_t local_vl_ = ~0U;          ///< VL of the local source (none: never a VL)
    std::vector<uint8_t> local_turn_;  ///< [port]: the local source goes first on its VL
};

}  // namespace ndr::common
