#include "cycle/traffic_endpoints.h"
#include "common/delivery_record.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/invariant_error.h"
#include "config/config_error.h"
#include "golden/ib_packet.h"
#include "golden/opcode.h"

namespace ndr::tb {

using common::invariant_error;
using cycle::event;
using cycle::NO_PACKET;

traffic_endpoints::traffic_endpoints(const cfg::config& c, const common::timing& tm,
                                     cycle::packet_pool& pool)
    : tm_(tm),
      pool_(pool),
      ports_(c.sw.ports),
      vls_(c.sw.vls),
      check_(c.sim.check_invariants),
      backlogged_(c.traffic.arrivals == "backlogged"),
      pattern_(c, c.sw.ports),
      mix_(c, tm),
      link_(c, tm, c.sw.ports, tm.ep_buffer_blocks, common::ENDPOINT_PORT_NAMES) {
    eps_.reserve(ports_);
    for (uint32_t e = 0; e < ports_; ++e) eps_.emplace_back(rng(c.sim.seed, e));
    queues_.resize(std::size_t{ports_} * vls_);
    if (mix_.wire_of.size() > 0xFFFF) {
        throw cfg::config_error(
            cfg::config_source{}, "traffic.size",
            fmt::format("{} sizes in the mix, at most 65535", mix_.wire_of.size()));
    }
    for (std::size_t i = 0; i < mix_.wire_of.size(); ++i) {
        const uint32_t wire = mix_.wire_of[i];
        size_of_.push_back(
            size_info{cycle::packet_bytes(mix_.sizes.values[i]), cycle::packet_bytes(wire),
                      static_cast<uint16_t>(golden::blocks_for_bytes(wire)),
                      static_cast<uint16_t>((wire + tm_.block_bytes - 1) / tm_.block_bytes)});
    }
    if (c.fabric.technology == "roce") {
        roce_ = true;
        if (c.pfc.enabled) {
            pfc_ =
                std::make_unique<cycle::pfc_ports>(c, tm_, ports_, vls_, tm_.ep_buffer_blocks, 0);
        }
    }
    send_seq_.assign(std::size_t{ports_} * ports_ * 16, 0);
    recv_seq_.assign(std::size_t{ports_} * ports_ * 16, 0);
    stats_.port_delivered_beats.assign(ports_, 0);
    stats_.port_offered_beats.assign(ports_, 0);
    stats_.vl_delivered_beats.assign(vls_, 0);
    stats_.vl_delivered_bytes.assign(vls_, 0);
    stats_.credit_stall_cycles.assign(vls_, 0);
    stats_.vl_latency_hist.assign(vls_, {});
}

void traffic_endpoints::connect(uint16_t e, cycle::link_peer peer, uint32_t peer_buffer_blocks) {
    eps_[e].peer = peer;
    link_.connect(e, peer_buffer_blocks);
    if (roce_) {
        for (uint32_t vl = 0; vl < vls_; ++vl) link_.tx(e, vl) = cycle::pfc_ports::running_sender();
    }
    if (pfc_) pfc_->configure_port(e, peer.link_cycles);
}

void traffic_endpoints::pfc_check(cycle_t t, uint16_t e, uint32_t vl) {
    if (!pfc_) return;
    const int act = pfc_->on_occupancy(e, vl, link_.rx(e, vl).occupied());
    if (act == 0) return;
    endpoint& ep = eps_[e];
    const cycle_t depart = t + 1;
    ep.tx_free = std::max(ep.tx_free, depart) + pfc_->frame_beats();
    ep.peer.engine->schedule(
        depart + ep.peer.link_cycles + pfc_->reaction_cycles(),
        event{cycle::EV_PFC, static_cast<uint8_t>(vl), ep.peer.port, 0, act > 0 ? 1U : 0U, 0});
}

void traffic_endpoints::start(cycle_t now) {
    for (uint32_t e = 0; e < ports_; ++e) {
        if (!pattern_.is_source(e) || mix_.rate <= 0.0) continue;
        if (backlogged_) {  // two packets waiting from the start; one more per packet sent
            schedule(now + 1, event{EV_GEN, 0, static_cast<uint16_t>(e), 0, 0, 0});
            schedule(now + 1, event{EV_GEN, 1, static_cast<uint16_t>(e), 0, 0, 0});
            continue;
        }
        eps_[e].next_gen = now + eps_[e].gen.geometric_gap(mix_.inv_log_q);
        wake_at_arrival(static_cast<uint16_t>(e));
    }
    if (!roce_) schedule(now + tm_.refresh_cycles, event{EV_REFRESH, 0, 0, 0, 0, 0});
}

void traffic_endpoints::set_window(cycle_t start, cycle_t end) {
    win_start_ = start;
    win_end_ = end;
    schedule(start, event{EV_WIN_START, 0, 0, 0, 0, 0});
    schedule(end, event{EV_WIN_END, 0, 0, 0, 0, 0});
}

void traffic_endpoints::flush_arrivals(cycle_t last) {
    if (backlogged_) return;
    for (uint32_t e = 0; e < ports_; ++e) {
        if (eps_[e].next_gen != NO_WAKE) materialize(last, static_cast<uint16_t>(e));
    }
}

uint64_t traffic_endpoints::queued_packets() const {
    uint64_t n = 0;
    for (const endpoint& ep : eps_) n += ep.queued;
    return n;
}

void traffic_endpoints::run_cycle(cycle_t t, const std::vector<event>& events) {
    if (tick_at_ == t) {  // one-beat packets: sources free again, tails arrived
        tx_now_.swap(tx_next_);
        tx_next_.clear();
        for (uint16_t e : tx_now_) {
            eps_[e].txfree_pending = false;
            mark_tx(e);
        }
        deliver_now_.swap(deliver_next_);
        deliver_next_.clear();
        const std::size_t nd = deliver_now_.size();
        for (std::size_t j = 0; j < std::min(nd, 2 * PF_AHEAD); ++j) {
            pool_.prefetch(deliver_now_[j].pkt);
        }
        for (std::size_t j = 0; j < nd; ++j) {
            if (j + 2 * PF_AHEAD < nd) pool_.prefetch(deliver_now_[j + 2 * PF_AHEAD].pkt);
            if (j + PF_AHEAD < nd) prefetch_delivery(deliver_now_[j + PF_AHEAD]);
            deliver(t, deliver_now_[j].port, deliver_now_[j].pkt);
        }
    }
    // An FC packet's FCTBS covers every packet whose header arrived before this cycle; a packet
    // arriving in the same cycle left the partner after the FC packet. Check those first.
    for (const event& e : events) {
        if (e.kind == cycle::EV_FCTBS) link_.on_fctbs(t, e.port, e.vl, e.a);
    }
    const std::size_t nev = events.size();
    if (nev > 2 * PF_AHEAD) {  // a batch: the first records too (a lone event needs no hint)
        for (std::size_t j = 0; j < 2 * PF_AHEAD; ++j) {
            if (events[j].kind == cycle::EV_HDR) pool_.prefetch(events[j].pkt);
        }
    }
    for (std::size_t i = 0; i < nev; ++i) {
        const event& e = events[i];
        switch (e.kind) {
            case EV_GEN:
                if (backlogged_) {
                    generate(t, e.port);
                } else {
                    if (eps_[e.port].gen_wake == t) eps_[e.port].gen_wake = NO_WAKE;
                    materialize(t, e.port);
                }
                mark_tx(e.port);
                break;
            case EV_TICK:
                break;  // handled above
            case EV_TXFREE:
                eps_[e.port].txfree_pending = false;
                mark_tx(e.port);
                break;
            case cycle::EV_HDR: {  // consecutive (one lane): prefetch ahead
                if (i + 2 * PF_AHEAD < nev && events[i + 2 * PF_AHEAD].kind == cycle::EV_HDR) {
                    pool_.prefetch(events[i + 2 * PF_AHEAD].pkt);
                }
                const cycle::packet& p = pool_[e.pkt];
                link_.receive_at_endpoint(t, "endpoint", e.port, p.vl, p.id, p.blocks);
                if (roce_) pfc_check(t, e.port, p.vl);
                if (p.beats == 1) {  // tail next cycle: shared tick (see run_cycle)
                    deliver_next_.push_back(event{EV_DELIVER, 0, e.port, e.pkt, 0, 0});
                    tick_next(t);
                } else {
                    schedule(t + p.beats, event{EV_DELIVER, 0, e.port, e.pkt, 0, 0});
                }
                break;
            }
            case EV_DELIVER:
                deliver(t, e.port, e.pkt);
                break;
            case EV_FC_FLUSH:
                link_.on_fc_flush(e.pkt);
                break;
            case EV_RXFREE:
                rx_freed(t, e.port, e.vl, e.a);
                break;
            case cycle::EV_PFC:
                if (pfc_) pfc_->on_frame(t, e.port, e.vl, e.a != 0, link_.tx(e.port, e.vl));
                mark_tx(e.port);
                break;
            case cycle::EV_FC:
                link_.on_fccl(t, e.port, e.vl, e.a);
                mark_tx(e.port);
                break;
            case cycle::EV_FCTBS:
                break;  // checked above
            case EV_REFRESH:
                refresh_due_ = true;
                schedule(t + tm_.refresh_cycles, event{EV_REFRESH, 0, 0, 0, 0, 0});
                break;
            case EV_WIN_START:
                in_window_ = true;
                link_.stalls().open_window(t);
                break;
            case EV_WIN_END:
                flush_arrivals(t);  // the window's arrivals all counted (drain condition)
                link_.stalls().close_window(t, [&](uint32_t, uint32_t vl, cycle_t c) {
                    stats_.credit_stall_cycles[vl] += c;
                });
                in_window_ = false;
                break;
            default:
                throw std::logic_error("traffic_endpoints: unknown event kind");
        }
    }
    // Transmit: every endpoint whose queues, credits or link changed this cycle (evaluate once,
    // after all of the cycle's events, so their order does not matter).
    const std::size_t nd = tx_dirty_.size();
    for (std::size_t j = 0; j < nd; ++j) {
        if (j + PF_AHEAD < nd) prefetch_endpoint(tx_dirty_[j + PF_AHEAD]);
        const uint16_t e = tx_dirty_[j];
        eps_[e].tx_dirty = false;
        try_send(t, e);
    }
    tx_dirty_.clear();
    // Forced FC round, after this cycle's transmissions (see ib_switch::refresh).
    if (refresh_due_) {
        refresh_due_ = false;
        link_.refresh([&](uint32_t ep) { return eps_[ep].peer.engine != nullptr; },
                      [&](uint32_t ep, uint32_t vl, uint32_t fctbs) {
                          const cycle::link_peer& peer = eps_[ep].peer;
                          peer.engine->schedule(std::max(t, eps_[ep].tx_free) + peer.link_cycles,
                                                event{cycle::EV_FCTBS, static_cast<uint8_t>(vl),
                                                      peer.port, 0, fctbs, 0});
                      });
    }
    // FC updates for receive buffers freed this cycle.
    link_.send_fc(
        t,
        [&](uint32_t ep, uint32_t vl, uint32_t fccl) {
            const cycle::link_peer& peer = eps_[ep].peer;
            if (peer.engine == nullptr) return;
            const cycle_t depart =
                link_.fc_departure(ep, t + tm_.fc_cycles - tm_.link_cycles, eps_[ep].tx_free);
            peer.engine->schedule(
                depart + peer.link_cycles,
                event{cycle::EV_FC, static_cast<uint8_t>(vl), peer.port, 0, fccl, 0});
        },
        [&](uint32_t k, cycle_t at) {
            schedule(at, event{EV_FC_FLUSH, 0, 0, k, 0, 0});
        });
}

void traffic_endpoints::mark_tx(uint16_t e) {
    if (!eps_[e].tx_dirty) {
        eps_[e].tx_dirty = true;
        tx_dirty_.push_back(e);
    }
}

void traffic_endpoints::pending_queue::grow() {
    std::vector<pending> bigger(buf.empty() ? 16 : buf.size() * 2);
    for (std::size_t i = 0; i < size; ++i) bigger[i] = buf[(head + i) & mask];
    buf.swap(bigger);
    mask = buf.size() - 1;
    head = 0;
}

inline void traffic_endpoints::generate(cycle_t t, uint16_t e) {
    endpoint& ep = eps_[e];
    if (queued_total_ >= MAX_QUEUED) {
        throw invariant_error(fmt::format(
            "{} packets waiting in source queues (growing without bound): the offered load is "
            "far above what the fabric accepts; shorten the run or lower the load",
            queued_total_));
    }
    pending n;
    n.created = t;
    n.dst = static_cast<uint16_t>(pattern_.dest(e, ep.gen));
    // Single-entry mixes draw no random number (weighted_choice::pick_index), so skipping the
    // call keeps every stream identical.
    const std::size_t choice = mix_.sizes.values.size() == 1 ? 0 : mix_.sizes.pick_index(ep.gen);
    n.choice = static_cast<uint16_t>(choice);
    n.sl = static_cast<uint8_t>(mix_.sls.values.size() == 1 ? mix_.sls.values[0]
                                                            : mix_.sls.pick(ep.gen));
    const uint8_t vl = mix_.sl2vl.vl(n.sl);
    ++stats_.created;
    if (t >= win_start_ && t < win_end_) {
        ++stats_.window_created;
        stats_.window_created_beats += size_of_[choice].beats;
        stats_.port_offered_beats[e] += size_of_[choice].beats;
    }
    queues_[e * vls_ + vl].push(n);
    ep.nonempty |= 1U << vl;
    ++ep.queued;
    ++queued_total_;
    stats_.max_source_queue = std::max(stats_.max_source_queue, ep.queued);
}

__attribute__((always_inline)) inline void traffic_endpoints::try_send(cycle_t t, uint16_t e) {
    endpoint& ep = eps_[e];
    if (!backlogged_) materialize(t, e);
    if (ep.tx_free > t) {
        if (!ep.txfree_pending) {
            ep.txfree_pending = true;
            schedule(ep.tx_free, event{EV_TXFREE, 0, e, 0, 0, 0});
        }
        return;
    }
    uint32_t ready = 0;
    for (uint32_t m = ep.nonempty; m != 0; m &= m - 1) {
        const uint32_t vl = static_cast<uint32_t>(__builtin_ctz(m));
        if (link_.can_send(e, vl, size_of_[queues_[e * vls_ + vl].front().choice].blocks)) {
            ready |= 1U << vl;
        }
    }
    // Credit stall: the link is idle and every waiting VL lacks credits.
    link_.stalls().track_port(
        t, e, ready == 0 ? ep.nonempty : 0U, in_window_,
        [&](uint32_t, uint32_t vl, cycle_t c) { stats_.credit_stall_cycles[vl] += c; });
    const int vl = ready != 0 ? link_.pick_vl(e, ready) : -1;
    if (vl < 0) {  // idle: an arrival must wake it (it may start or end a stall)
        if (!backlogged_) wake_at_arrival(e);
        return;
    }
    pending_queue& q = queues_[e * vls_ + static_cast<uint32_t>(vl)];
    const pending n = q.front();
    q.pop();
    if (q.empty()) {
        ep.nonempty &= ~(1U << vl);
    } else {  // hint: the next packet's flow counter, used when this source sends again
        const pending& next = q.front();
        __builtin_prefetch(&send_seq_[(std::size_t{next.sl} * ports_ + e) * ports_ + next.dst]);
    }
    --ep.queued;
    --queued_total_;
    // The packet leaves its source queue: now it needs a pool record. The flow sequence is
    // numbered here, in sending order, which is creation order per (dst, SL): one SL maps to
    // one VL and each VL's source queue is FIFO.
    const uint32_t idx = pool_.alloc();
    cycle::packet& p = pool_[idx];
    p.id = static_cast<uint32_t>(next_id_++);  // wraps: ids are for messages
    p.created = n.created;
    p.src = e;
    p.dst = n.dst;
    const size_info& sz = size_of_[n.choice];
    p.payload_bytes = sz.payload_bytes;
    p.wire_bytes = sz.wire_bytes;
    p.blocks = sz.blocks;
    p.beats = sz.beats;
    p.sl = n.sl;
    p.vl = static_cast<uint8_t>(vl);
    p.flow_seq = send_seq_[(std::size_t{p.sl} * ports_ + e) * ports_ + p.dst]++;
    p.tagged = static_cast<uint8_t>(n.created >= win_start_ && n.created < win_end_);
    link_.sent(t, e, static_cast<uint32_t>(vl), p.blocks, p.wire_bytes, check_);
    if (roce_ && !(pfc_ && pfc_->paused(e, static_cast<uint32_t>(vl)))) {
        cycle::pfc_ports::refill(link_.tx(e, static_cast<uint32_t>(vl)));
    }
    ep.tx_free = t + p.beats;
    link_.booked(e, t, t, p.beats);
    if (backlogged_) generate(t, e);  // keep the source backlogged
    // Busy until tx_free: run again then if packets wait or arrive meanwhile (they are
    // generated then); otherwise at the next arrival.
    if (ep.nonempty != 0 || (!backlogged_ && ep.next_gen <= ep.tx_free)) {
        ep.txfree_pending = true;
        if (ep.tx_free == t + 1) {
            // One-beat packet: retry next cycle through one shared tick, not an event each.
            tx_next_.push_back(e);
            tick_next(t);
        } else {
            schedule(ep.tx_free, event{EV_TXFREE, 0, e, 0, 0, 0});
        }
    } else if (!backlogged_) {
        wake_at_arrival(e);
    }
    ep.peer.engine->schedule(t + ep.peer.link_cycles,
                             event{cycle::EV_HDR, 0, ep.peer.port, idx, 0, 0});
}

__attribute__((always_inline)) inline void traffic_endpoints::deliver(cycle_t t, uint16_t e,
                                                                      uint32_t pkt) {
    const cycle::packet& p = pool_[pkt];
    record_delivery(stats_, recv_seq_, ports_, check_, win_start_, win_end_, t, e,
                    delivered{p.id, p.created, p.flow_seq, p.wire_bytes, p.beats, p.src, p.dst,
                              p.sl, p.vl, p.tagged != 0});
    const uint8_t vl = p.vl;
    const uint32_t blocks = p.blocks;
    pool_.free(pkt);
    if (tm_.rx_proc_cycles == 0) {
        rx_freed(t, e, vl, blocks);
    } else {
        schedule(t + tm_.rx_proc_cycles, event{EV_RXFREE, vl, e, 0, blocks, 0});
    }
}

}  // namespace ndr::tb
