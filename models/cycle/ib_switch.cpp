#include "cycle/ib_switch.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/bits.h"
#include "common/invariant_error.h"
#include "common/switch_ports.h"
#include "common/switch_window.h"
#include "cycle/ib_switch_eth.h"

namespace ndr::cycle {

using common::bit;
using common::close_switch_window;
using common::for_each_bit;
using common::invariant_error;
using common::occupancy_stat;
using common::PK_SHARP_DOWN;
using common::PK_SHARP_UP;
using common::sharp_an;
using common::sharp_emit;
using common::sharp_payloads;
using common::sharp_wire_bytes;
using common::timing;

ib_switch::ib_switch(const cfg::config& c, const timing& tm, packet_pool& pool, golden::lft routes)
    : tm_(tm),
      ports_(c.sw.ports),
      vls_(c.sw.vls),
      voq_(c.sw.queueing == "voq"),
      islip_(c.sw.allocator == "islip"),
      iterations_(c.sw.islip_iterations),
      cut_through_(c.sw.cut_through),
      check_(c.sim.check_invariants),
      pool_(pool),
      routes_(std::move(routes)),
      sl2vl_(golden::sl2vl_ports::parse(golden::sl2vl_table::parse(c.sw.sl2vl, c.sw.vls),
                                        c.sw.sl2vl_ports, c.sw.ports, c.sw.vls)),
      link_(common::switch_ports(c, tm)),
      fc_proc_cycles_(tm.fc_cycles - tm.link_cycles),
      xbar_(tm.speedup, c.sw.ports),
      alloc_(c.sw.ports),
      prio_blocks_(voq_ ? c.sw.xbar_priority_blocks : 0),
      prio_alloc_(c.sw.ports) {
    if (ports_ > 64) throw std::invalid_argument("ib_switch: at most 64 ports");
    const std::size_t pv = std::size_t{ports_} * vls_;
    peers_.resize(ports_);
    link_free_.assign(ports_, 0);
    queues_.assign(voq_ ? pv * ports_ : pv, packet_queue{});
    if (!voq_) fifo_req_count_.assign(pv * ports_, 0);
    req_.assign(pv, 0);
    in_req_out_.assign(ports_, 0);
    out_req_vls_.assign(ports_, 0);
    prio_req_.assign(pv, 0);
    prio_out_vls_.assign(ports_, 0);
    blocked_now_.assign(vls_, 0);
    out_grant_.assign(ports_, grant{});
    stats_.buffer.assign(vls_, {});
    stats_.credit_stall_cycles.assign(vls_, 0);
    stats_.out_blocks.assign(ports_, 0);
    stats_.out_busy_cycles.assign(ports_, 0);
    total_out_beats_.assign(ports_, 0);
    if (c.fabric.technology == "roce") eth_init(c);
    if (common::cc_active(c)) {
        cc_ = std::make_unique<golden::cc_marker>(common::cc_switch_marker(c, ports_ * vls_));
        cc_mask_ca_ = common::cc_victim_mask(c, true);
        if (common::cc_victim_mask(c, false)) {
            for (uint32_t q = 0; q < ports_ * vls_; ++q) cc_->set_victim_mask(q);
        }
    }
}

void ib_switch::set_ca_port(uint16_t port) {
    if (!cc_ || !cc_mask_ca_) return;
    for (uint32_t vl = 0; vl < vls_; ++vl) cc_->set_victim_mask(port * vls_ + vl);
}

void ib_switch::connect(uint16_t port, link_peer peer, uint32_t peer_buffer_blocks) {
    peers_[port] = peer;
    link_.connect(port, peer_buffer_blocks);
    if (eth_) eth_connect(port, peer);
}

void ib_switch::set_adaptive(const cfg::config& c, std::vector<uint64_t> groups, uint32_t sw) {
    ar_ = std::make_unique<common::ar_router>(
        std::move(groups),
        static_cast<uint32_t>(c.routing.ar_threshold.count / golden::CREDIT_BLOCK_BYTES),
        c.sim.seed, sw);
}

void ib_switch::set_window(cycle_t start, cycle_t end) {
    win_start_ = start;
    win_end_ = end;
    schedule(start, event{EV_WIN_START, 0, 0, 0, 0, 0});
    schedule(end, event{EV_WIN_END, 0, 0, 0, 0, 0});
}

void ib_switch::start(cycle_t now) {
    if (eth_) return;  // Ethernet has no credit refresh
    schedule(now + tm_.refresh_cycles, event{EV_REFRESH, 0, 0, 0, 0, 0});
}

void ib_switch::run_cycle(cycle_t t, const std::vector<event>& events) {
    // An FC packet's FCTBS covers every packet whose header arrived before this cycle; a packet
    // arriving in the same cycle left the partner after the FC packet. Check those first.
    for (const event& e : events) {
        if (e.kind == EV_FCTBS) link_.on_fctbs(t, e.port, e.vl, e.a);
    }
    if (tick_at_ == t) {  // crossbar transfers that ended this cycle (see commit)
        xbar_now_.swap(xbar_next_);
        xbar_next_.clear();
        const std::size_t nx = xbar_now_.size();
        for (std::size_t j = 0; j < nx; ++j) {
            if (j + 4 < nx) {  // hint: the input buffer state the transfer frees
                __builtin_prefetch(&link_.rx(xbar_now_[j + 4].port, xbar_now_[j + 4].vl));
            }
            on_xbar_done(t, xbar_now_[j]);
        }
    }
    // Prefetch ahead (hints only): the packet record of a header arrival, then its input
    // buffer state once the record (its VL) has arrived.
    constexpr std::size_t PF_PKT = 8;
    const std::size_t nev = events.size();
    if (nev > PF_PKT) {  // a batch: the first records too (a lone event needs no hint)
        for (std::size_t j = 0; j < PF_PKT; ++j) {
            if (events[j].kind == EV_HDR) pool_.prefetch(events[j].pkt);
        }
    }
    for (std::size_t i = 0; i < nev; ++i) {
        const event& e = events[i];
        switch (e.kind) {
            case EV_TICK:
                break;    // handled above
            case EV_HDR:  // header arrivals are consecutive (one lane): prefetch ahead
                if (i + PF_PKT < nev && events[i + PF_PKT].kind == EV_HDR) {
                    pool_.prefetch(events[i + PF_PKT].pkt);
                }
                on_header(t, e.port, e.pkt);
                break;
            case EV_ELIG:
                on_eligible(t, e.port, e.pkt);
                break;
            case EV_INGRESS:
                on_ingress(t);
                break;
            case EV_SHARP_IN:
                on_sharp_in(t, e);
                break;
            case EV_SHARP_OUT:
                on_sharp_out(t, e.pkt);
                break;
            case EV_SL2VL_DROP:  // the whole packet is in: free its blocks, count it
                drop_arrived(t, e);
                ++stats_.sl2vl_drops;
                break;
            case EV_LINK_DROP:  // fault.link_down: the lost packet's tail is in
                drop_arrived(t, e);
                ++down_drops_[e.port];
                break;
            case EV_REROUTE:  // fault.reroute_delay: the subnet manager's new LFT
                routes_ = std::move(reroutes_[e.pkt]);
                if (ar_ && !reroute_ar_[e.pkt].empty()) {
                    ar_->set_dest_groups(std::move(reroute_ar_[e.pkt]));
                }
                break;
            case EV_PORT_DOWN:  // fault.link_down: the port leaves the Active state
                if (ar_) ar_->port_down(static_cast<uint8_t>(e.port));
                break;
            case EV_ECMP_REROUTE:  // RoCE: the routing protocol's new ECMP sets
                eth_reroute(e.pkt);
                break;
            case EV_XBAR_DONE:
                on_xbar_done(t, e);
                break;
            case EV_FC_FLUSH:
                link_.on_fc_flush(e.pkt);
                break;
            case EV_BUF_FREE:
                free_input_blocks(t, e.port, e.vl, e.b);
                break;
            case EV_FC:
                link_.on_fccl(t, e.port, e.vl, e.a);
                break;
            case EV_FCTBS:
                break;  // checked above
            case EV_REFRESH:
                refresh_due_ = true;
                schedule(t + tm_.refresh_cycles, event{EV_REFRESH, 0, 0, 0, 0, 0});
                break;
            case EV_WIN_START:
                window_start(t);
                break;
            case EV_WIN_END:
                window_end(t);
                break;
            case EV_WAKE:
                break;
            case EV_PFC:
                eth_pfc_frame(t, e);
                break;
            default:
                throw std::logic_error("ib_switch: unknown event kind");
        }
    }
    allocate(t);  // SHARP results compete in it through the output's VL arbiter
    if (refresh_due_) refresh(t);
    send_fc(t);
}

// Forced FC round (every link.fc_refresh_period, common::ib_ports::refresh): each output VL's
// FCTBS goes to the partner after all packets committed to the link so far.
void ib_switch::refresh(cycle_t t) {
    refresh_due_ = false;
    link_.refresh([&](uint32_t p) { return peers_[p].engine != nullptr; },
                  [&](uint32_t p, uint32_t vl, uint32_t fctbs) {
                      const link_peer& peer = peers_[p];
                      peer.engine->schedule(
                          std::max(t, link_free_[p] + tm_.egress_cycles) + peer.link_cycles,
                          event{EV_FCTBS, static_cast<uint8_t>(vl), peer.port, 0, fctbs, 0});
                  });
}

sharp_an& ib_switch::enable_sharp(uint32_t osts, uint32_t ost_bytes, uint32_t alu_cycles,
                                  sharp_payloads* payloads, uint8_t sharp_vl) {
    if (sharp_vl >= vls_) {
        throw std::invalid_argument(
            fmt::format("sharp.vl {} is not a data VL (switch.vls {})", sharp_vl, vls_));
    }
    link_.set_local_source(sharp_vl, "sharp.vl");
    an_ = std::make_unique<sharp_an>(osts, ost_bytes, alu_cycles, payloads);
    sharp_payloads_ = payloads;
    sharp_vl_ = sharp_vl;
    sharp_q_.assign(ports_, packet_queue{});
    return *an_;
}

void ib_switch::on_sharp_in(cycle_t t, const event& e) {
    const packet& p = pool_[e.pkt];
    emit_scratch_.clear();
    taken_scratch_.clear();
    an_->on_packet(t, e.port, p.kind == PK_SHARP_DOWN, p.msg, p.index, p.payload_bytes, p.psn, p.qp,
                   p.beats, e.pkt, 0, emit_scratch_, taken_scratch_);
    // The node consumed these packets (a contribution waiting for OSTs stays in its input
    // buffer, so its sender's credits stay held: back-pressure).
    for (const uint64_t token : taken_scratch_) {
        const auto idx = static_cast<uint32_t>(token);
        const packet& q = pool_[idx];
        free_input_blocks(t, q.in_port, q.vl, q.blocks);
        --inside_;
        pool_.free(idx);
    }
    for (const sharp_emit& em : emit_scratch_) {
        uint32_t slot;
        if (!free_emits_.empty()) {
            slot = free_emits_.back();
            free_emits_.pop_back();
            sharp_emits_[slot] = em;
        } else {
            slot = static_cast<uint32_t>(sharp_emits_.size());
            sharp_emits_.push_back(em);
        }
        schedule(std::max(em.at, t + 1), event{EV_SHARP_OUT, 0, 0, slot, 0, 0});
    }
}

void ib_switch::on_sharp_out(cycle_t t, uint32_t emit) {
    (void)t;
    const sharp_emit em = sharp_emits_[emit];
    free_emits_.push_back(emit);
    const uint32_t idx = pool_.alloc();
    packet& p = pool_[idx];
    p.kind = em.down ? PK_SHARP_DOWN : PK_SHARP_UP;
    p.msg = em.tree;
    p.index = em.chunk;
    p.psn = em.root_host;
    p.qp = em.data;
    p.payload_bytes = packet_bytes(em.bytes);
    p.wire_bytes = packet_bytes(sharp_wire_bytes(em.bytes));
    p.blocks = static_cast<uint16_t>(golden::blocks_for_bytes(p.wire_bytes));
    p.beats = static_cast<uint16_t>((p.wire_bytes + tm_.block_bytes - 1) / tm_.block_bytes);
    p.vl = sharp_vl_;
    p.out_vl = sharp_vl_;
    p.created = t;
    p.dst = peers_[em.port].port;  // the host, when the peer is an HCA (ignored by switches)
    sharp_q_[em.port].push(pool_, idx);
    sharp_pending_ |= bit(em.port);
}

// SHARP results leave through the output's VL arbiter (common::ib_ports::local_wins), one
// decision per output and cycle, before the crossbar allocation of the same cycle: the node's
// head packet must have credits on sharp.vl and fit the egress staging budget like a crossbar
// packet, and the arbiter chooses between it and the VLs on which a free input has an eligible
// packet for the output (the allocator's view in its first iteration). Returns the outputs that
// sent a SHARP packet (they take no crossbar grant this cycle).
uint64_t ib_switch::sharp_egress(cycle_t t, uint64_t free_in) {
    uint64_t sent = 0;
    uint64_t pending = sharp_pending_;
    for_each_bit(pending, [&](uint32_t o) {
        packet_queue& q = sharp_q_[o];
        const uint32_t idx = q.head;
        packet& p = pool_[idx];
        const cycle_t backlog = common::staging_backlog(link_free_[o], t);
        if (backlog + p.beats > tm_.outbuf_beats) return;  // woken when the staging drains
        if (!link_.can_send(o, sharp_vl_, p.blocks)) {
            sharp_credit_blocked_ |= bit(o);  // an FC update wakes us
            return;
        }
        const uint32_t xbar = (out_busy_ & bit(o)) != 0 ? 0 : xbar_eligible(t, o, free_in);
        if (!link_.local_wins(o, xbar)) return;
        q.pop(pool_);
        link_.sent_local(t, o, p.blocks, p.wire_bytes, check_);
        const cycle_t start = std::max(t + 1, link_free_[o]);
        link_free_[o] = start + p.beats;
        link_.booked(o, t, start, p.beats);
        total_out_beats_[o] += p.beats;
        const cycle_t wire = start + tm_.egress_cycles;  // after the egress pipeline
        if (o < taps_.size() && taps_[o] != nullptr) taps_[o]->on_packet(wire, p);
        const link_peer& peer = peers_[o];
        if (peer.engine == nullptr) {
            throw invariant_error(fmt::format("SHARP: switch port {} is not connected", o));
        }
        peer.engine->schedule(wire + peer.link_cycles, event{EV_HDR, 0, peer.port, idx, 0, 0});
        if (q.empty()) sharp_pending_ &= ~bit(o);
        sent |= bit(o);
    });
    return sent;
}

// After the cycle's commits: each output still holding SHARP packets (and not waiting for
// credits) decides again when its staging budget next fits the head packet.
void ib_switch::sharp_wake(cycle_t t) {
    uint64_t pending = sharp_pending_ & ~sharp_credit_blocked_;
    cycle_t wake = NEVER;
    for_each_bit(pending, [&](uint32_t o) {
        const uint32_t beats = pool_.link(sharp_q_[o].head).beats;
        const cycle_t clear = link_free_[o] > tm_.outbuf_beats - beats + 1
                                  ? link_free_[o] - 1 - (tm_.outbuf_beats - beats)
                                  : 0;
        wake = std::min(wake, std::max(clear, t + 1));
    });
    if (wake != NEVER) schedule(wake, event{EV_WAKE, 0, 0, 0, 0, 0});
}

__attribute__((always_inline)) inline void ib_switch::take_blocks(cycle_t t, uint16_t in,
                                                                  const packet& p) {
    common::rx_buffer& rx = link_.rx(in, p.vl);
    if (rx.free_blocks() < p.blocks) {
        throw invariant_error(fmt::format(
            "cycle {}: switch input port {} VL {}: buffer over capacity: packet {} needs {} "
            "blocks, {} of {} free (the sender ignored credits)",
            t, in, p.vl, p.id, p.blocks, rx.free_blocks(), rx.capacity()));
    }
    link_.arrived(in * vls_ + p.vl, p.blocks);  // an FC update goes at the end of this cycle
    rx.occ.update(t, rx.occupied());
    if (eth_) eth_pfc_check(t, in, p.vl);
    ++inside_;
}

void ib_switch::link_down(uint16_t port, cycle_t at) {
    faulty_ = true;
    if (down_at_.empty()) {
        down_at_.assign(ports_, NEVER);
        down_drops_.assign(ports_, 0);
    }
    down_at_[port] = at;
    if (ar_) schedule(at, event{EV_PORT_DOWN, 0, port, 0, 0, 0});  // after set_adaptive
}

void ib_switch::reroute(cycle_t at, golden::lft routes, std::vector<uint64_t> ar_by_dest) {
    schedule(at, event{EV_REROUTE, 0, 0, static_cast<uint32_t>(reroutes_.size()), 0, 0});
    reroutes_.push_back(std::move(routes));
    reroute_ar_.push_back(std::move(ar_by_dest));
}

void ib_switch::on_dead_link(cycle_t t, uint16_t in, uint32_t pkt) {
    // The cable is down: the packet is lost. Its blocks pass through the input buffer and
    // return as credits once its tail is in (as a VL15 drop), so the far end's credits stay
    // consistent and its queue for this port drains into the loss.
    packet& p = pool_[pkt];
    p.hdr_in = t;
    p.in_port = static_cast<uint8_t>(in);
    take_blocks(t, in, p);
    schedule(std::max(t + 1, t + p.beats), event{EV_LINK_DROP, 0, in, pkt, 0, 0});
}

__attribute__((always_inline)) inline void ib_switch::on_header(cycle_t t, uint16_t in,
                                                                uint32_t pkt) {
    if (faulty_ && t >= down_at_[in]) [[unlikely]] {
        on_dead_link(t, in, pkt);
        return;
    }
    packet& p = pool_[pkt];
    const bool to_an = an_ && (p.kind == PK_SHARP_UP || p.kind == PK_SHARP_DOWN);
    uint8_t out = to_an ? 0 : routes_.port(static_cast<uint16_t>(p.dst + 1U));
    if (!to_an && (out == golden::LFT_NO_ROUTE || out >= ports_)) {
        throw invariant_error(
            fmt::format("cycle {}: switch input port {}: no LFT route for DLID {} (packet {})", t,
                        in, p.dst + 1U, p.id));
    }
    if (eth_) out = eth_route(t, p, out);
    if (ar_ && !to_an) {
        out = ar_->route(out, p.dst, p.blocks, [&](uint32_t o) {
            const uint8_t vl = sl2vl_.vl(in, o, p.sl);
            return vl == golden::SL2VL_DROP ? 0U : link_.tx(o, vl).available();
        });
        stats_.ar_moved = ar_->moved();
    }
    p.out_port = out;
    p.out_vl = to_an ? sharp_vl_ : sl2vl_.vl(in, out, p.sl);
    p.hdr_in = t;
    take_blocks(t, in, p);
    const cycle_t pipe = tm_.ingress_cycles;  // switch.latency_split
    p.in_port = static_cast<uint8_t>(in);
    if (p.out_vl == golden::SL2VL_DROP) {  // IBTA: an SL mapped to VL15 is dropped
        if (ar_) ar_->dequeued(out, p.blocks);
        schedule(std::max(t + 1, t + p.beats), event{EV_SL2VL_DROP, 0, in, pkt, 0, 0});
        return;
    }
    if (cut_through_) {
        // Constant ingress delay: arrivals leave the pipeline in arrival order, so one FIFO
        // and one wake-up per cycle serve them all.
        if (ingress_size_ == 0) schedule(t + pipe, event{EV_INGRESS, 0, 0, 0, 0, 0});
        if (ingress_size_ == ingress_.size()) ingress_grow();
        ingress_[(ingress_head_ + ingress_size_++) & (ingress_.size() - 1)] =
            ingress_entry{t + pipe, pkt, in};
        return;
    }
    schedule(t + (p.beats - 1U) + pipe, event{EV_ELIG, 0, in, pkt, 0, 0});
}

void ib_switch::drop_arrived(cycle_t t, const event& e) {
    const packet& p = pool_[e.pkt];
    free_input_blocks(t, e.port, p.vl, p.blocks);
    --inside_;
    pool_.free(e.pkt);
}

void ib_switch::ingress_grow() {
    std::vector<ingress_entry> bigger(ingress_.empty() ? 1024 : ingress_.size() * 2);
    for (std::size_t i = 0; i < ingress_size_; ++i) {
        bigger[i] = ingress_[(ingress_head_ + i) & (ingress_.size() - 1)];
    }
    ingress_.swap(bigger);
    ingress_head_ = 0;
}

void ib_switch::on_ingress(cycle_t t) {
    // Prefetch (hint only) the packet record PF_PKT entries ahead: on_eligible reads it.
    constexpr std::size_t PF_PKT = 8;
    const std::size_t mask = ingress_.size() - 1;
    std::size_t h = ingress_head_;
    std::size_t left = ingress_size_;
    for (std::size_t j = 0; j < std::min(left, PF_PKT) && ingress_[(h + j) & mask].elig <= t; ++j) {
        pool_.prefetch(ingress_[(h + j) & mask].pkt);
    }
    while (left != 0) {
        const ingress_entry ie = ingress_[h];
        if (ie.elig > t) {
            schedule(ie.elig, event{EV_INGRESS, 0, 0, 0, 0, 0});
            break;
        }
        if (left > PF_PKT) pool_.prefetch(ingress_[(h + PF_PKT) & mask].pkt);
        h = (h + 1) & mask;
        --left;
        on_eligible(t, static_cast<uint16_t>(ie.in), ie.pkt);
    }
    ingress_head_ = h;
    ingress_size_ = left;
}

inline void ib_switch::on_eligible(cycle_t t, uint16_t in, uint32_t pkt) {
    const packet& p = pool_[pkt];
    if (an_ && (p.kind == PK_SHARP_UP || p.kind == PK_SHARP_DOWN)) {
        // To the aggregation node once the whole packet is in (it reduces at line rate).
        schedule(std::max(t + 1, p.hdr_in + p.beats), event{EV_SHARP_IN, p.vl, in, pkt, 0, 0});
        return;
    }
    if (eth_) eth_enqueue(t, p);
    if (cc_) cc_->enqueued(p.out_port * vls_ + p.out_vl, p.blocks);
    if (voq_) {
        const uint32_t q = voq_index(in, p.out_port, p.out_vl);
        const bool was_empty = queues_[q].empty();
        queues_[q].push(pool_, pkt);
        if (was_empty) set_request(in, p.out_port, p.out_vl, true);
    } else {
        const uint32_t q = in * vls_ + p.vl;
        const bool was_empty = queues_[q].empty();
        queues_[q].push(pool_, pkt);
        if (was_empty) request_head(q);
    }
}

void ib_switch::on_xbar_done(cycle_t t, const event& e) {
    if ((e.a & XBAR_DONE_PRIO) == 0) {
        in_busy_ &= ~bit(e.port);
        out_busy_ &= ~bit(e.a);
    }
    free_input_blocks(t, e.port, e.vl, e.b);
    --inside_;
}

void ib_switch::request_head(uint32_t queue) {
    const packet& p = pool_[queues_[queue].head];
    const uint32_t in = queue / vls_;
    const uint32_t key = voq_index(in, p.out_port, p.out_vl);
    if (fifo_req_count_[key]++ == 0) set_request(in, p.out_port, p.out_vl, true);
}

void ib_switch::withdraw_head(uint32_t queue) {
    const packet& p = pool_[queues_[queue].head];
    const uint32_t in = queue / vls_;
    const uint32_t key = voq_index(in, p.out_port, p.out_vl);
    if (--fifo_req_count_[key] == 0) set_request(in, p.out_port, p.out_vl, false);
}

uint32_t ib_switch::queue_for(uint32_t in, uint32_t out, uint32_t vl) const {
    if (voq_) return voq_index(in, out, vl);
    for (uint32_t v = 0; v < vls_; ++v) {
        const uint32_t q = in * vls_ + v;
        if (queues_[q].empty()) continue;
        const packet& p = pool_[queues_[q].head];
        if (p.out_port == out && p.out_vl == vl) return q;
    }
    throw std::logic_error("ib_switch: request without a queue head");
}

void ib_switch::send_fc(cycle_t t) {
    link_.send_fc(
        t,
        [&](uint32_t port, uint32_t vl, uint32_t fccl) {
            const link_peer& peer = peers_[port];
            if (peer.engine == nullptr) return;
            const cycle_t depart = link_.fc_departure(port, t + fc_proc_cycles_, link_free_[port]);
            peer.engine->schedule(depart + peer.link_cycles,
                                  event{EV_FC, static_cast<uint8_t>(vl), peer.port, 0, fccl, 0});
            if (in_window_) ++stats_.fc_packets;
        },
        [&](uint32_t k, cycle_t at) {
            schedule(at, event{EV_FC_FLUSH, 0, 0, k, 0, 0});
        });
}

void ib_switch::window_start(cycle_t t) {
    in_window_ = true;
    if (eth_) eth_window_start(t);
    for (uint32_t k = 0; k < ports_ * vls_; ++k) link_.rx(k).occ.reset(t);
    link_.stalls().open_window(t);
}

void ib_switch::window_end(cycle_t t) {
    close_switch_window(
        t, win_start_, ports_, vls_, link_.stalls(),
        [this](uint32_t p, uint32_t vl) -> occupancy_stat& { return link_.rx(p, vl).occ; }, stats_);
    if (eth_) eth_window_end(t);
    in_window_ = false;
}

}  // namespace ndr::cycle
