// Switch allocation (evaluate) and crossbar/egress commit of ib_switch.
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "common/bits.h"
#include "common/invariant_error.h"
#include "cycle/ib_switch.h"

namespace ndr::cycle {

using common::bit;
using common::for_each_bit;
using common::invariant_error;
using common::rr_pick;

// The grant oracle of golden::switch_alloc (models/golden/switch_alloc.h) for one output: per VL
// with requesting inputs in `avail`, the first input from the output's round-robin pointer
// `from` whose head packet fits the egress staging buffer and the downstream credits; then the
// VL arbiter picks among those VLs. Returns the input (golden::MASK_PORTS: none) and keeps the
// grant in out_grant_[o]. Side-effect free otherwise, except for recording credit-blocked VLs
// and the cycle a full staging buffer drains enough. The pointer comes by reference so that it is
// read only for a VL with requests (most calls at high load find every requester busy).
template <bool Prio>
inline uint32_t ib_switch::output_grant(cycle_t t, uint32_t o, uint64_t avail,
                                        const uint16_t& from_ref) {
    const cycle_t backlog = common::staging_backlog(link_free_[o], t);
    uint32_t eligible = 0;
    // Per-VL candidate (plain arrays: no per-call initialisation on this hot path).
    uint16_t cand_in[16];
    uint32_t cand_q[16];
    uint32_t cand_pkt[16];
    uint32_t vls = Prio ? prio_out_vls_[o] : out_req_vls_[o];
    while (vls != 0) {
        const uint32_t vl = static_cast<uint32_t>(__builtin_ctz(vls));
        vls &= vls - 1;
        // A priority head packet is the priority allocator's only (prio_req_ is 0 without).
        const uint32_t k = o * vls_ + vl;
        uint64_t m = (Prio ? prio_req_[k] : req_[k] & ~prio_req_[k]) & avail;
        if (m == 0) continue;
        const golden::credit_sender& tx = link_.tx(o, vl);
        // Visit inputs in round-robin order from the grant pointer (< ports <= 64).
        const uint32_t from = from_ref;
        if (from >= golden::MASK_PORTS) __builtin_unreachable();
        const uint64_t hi = m & (~uint64_t{0} << from);
        if (voq_) {
            // Fast path: the first input in round-robin order usually fits; if it does, the
            // loop below would pick it too.
            const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(hi != 0 ? hi : m));
            const uint32_t q = voq_index(i, o, vl);
            const uint32_t pkt = queues_[q].head;
            const queue_link& p = pool_.link(pkt);
            if (backlog + p.beats <= tm_.outbuf_beats && tx.can_send(p.blocks)) {
                cand_in[vl] = static_cast<uint16_t>(i);
                cand_q[vl] = q;
                cand_pkt[vl] = pkt;
                eligible |= 1U << vl;
                continue;
            }
        }
        uint32_t min_fail = 0xFFFFFFFFU;
        const uint64_t order[2] = {hi, m & ~hi};
        bool found = false;
        bool credit_blocked = false;
        for (uint64_t part : order) {
            while (part != 0 && !found) {
                const uint32_t i = static_cast<uint32_t>(__builtin_ctzll(part));
                part &= part - 1;
                const uint32_t q = voq_ ? voq_index(i, o, vl) : queue_for(i, o, vl);
                const uint32_t pkt = queues_[q].head;
                const queue_link& p = pool_.link(pkt);
                if (p.blocks >= min_fail) continue;
                if (backlog + p.beats > tm_.outbuf_beats) {
                    const cycle_t clear = link_free_[o] - 1 - (tm_.outbuf_beats - p.beats);
                    backlog_wake_ = std::min(backlog_wake_, clear);
                    continue;
                }
                if (!tx.can_send(p.blocks)) {
                    min_fail = p.blocks;
                    credit_blocked = true;
                    continue;
                }
                cand_in[vl] = static_cast<uint16_t>(i);
                cand_q[vl] = q;
                cand_pkt[vl] = pkt;
                eligible |= 1U << vl;
                found = true;
            }
        }
        if (!found && credit_blocked) blocked_now_[vl] |= bit(o);
    }
    if (eligible == 0) return golden::MASK_PORTS;
    const int vl = link_.pick_vl(o, eligible);
    if (vl < 0) return golden::MASK_PORTS;
    const uint32_t in = cand_in[vl];
    if (in >= golden::MASK_PORTS) __builtin_unreachable();  // a port: the rule's "none" test folds
    out_grant_[o] = grant{static_cast<uint16_t>(in), static_cast<uint16_t>(o),
                          static_cast<uint8_t>(vl), cand_q[vl], cand_pkt[vl]};
    return in;
}

uint32_t ib_switch::xbar_eligible(cycle_t t, uint32_t o, uint64_t avail) const {
    const cycle_t backlog = common::staging_backlog(link_free_[o], t);
    return link_.xbar_eligible_vls(
        o, out_req_vls_[o], backlog, tm_.outbuf_beats,
        [&](uint32_t vl) { return req_[o * vls_ + vl] & avail; },
        [&](uint32_t i, uint32_t vl) {
            const queue_link& p = pool_.link(queues_[queue_for(i, o, vl)].head);
            return std::pair<uint32_t, uint32_t>(p.beats, p.blocks);
        });
}

// Priority packets (golden/switch_alloc.h): the switch's allocation rule with its own pointers
// over every input and output, busy or not, among the VOQs with a priority head packet; the
// matches cross interleaved with the ports' transfers.
golden::switch_alloc_result ib_switch::allocate_priority(cycle_t t, uint64_t excluded_out) {
    const uint64_t outs = prio_out_any_ & ~excluded_out;
    if (outs == 0) return {};
    uint64_t ins = 0;
    for_each_bit(outs, [&](uint32_t o) {
        for (uint32_t vls = prio_out_vls_[o]; vls != 0; vls &= vls - 1) {
            ins |= prio_req_[o * vls_ + static_cast<uint32_t>(__builtin_ctz(vls))];
        }
    });
    grants_.clear();
    const auto grant_of = [this, t](uint32_t o, uint64_t avail, const uint16_t& from) {
        return output_grant<true>(t, o, avail, from);
    };
    const auto accept = [this](uint32_t /*in*/, uint32_t o, uint32_t /*iteration*/) {
        grants_.push_back(out_grant_[o]);
    };
    const auto requests = [this, outs](uint32_t i) {
        uint64_t m = 0;
        for_each_bit(outs, [&](uint32_t o) {
            for (uint32_t vls = prio_out_vls_[o]; vls != 0; vls &= vls - 1) {
                if ((prio_req_[o * vls_ + static_cast<uint32_t>(__builtin_ctz(vls))] & bit(i)) !=
                    0) {
                    m |= bit(o);
                    break;
                }
            }
        });
        return m;
    };
    const golden::switch_alloc_result r =
        islip_ ? prio_alloc_.islip(ins, outs, iterations_, grant_of, accept)
               : prio_alloc_.input_first(ins, outs, requests, grant_of, accept);
    for (const grant& g : grants_) commit<true>(t, g);
    if (r.retry) schedule(t + 1, event{EV_WAKE, 0, 0, 0, 0, 0});
    return r;
}

void ib_switch::allocate(cycle_t t) {
    std::fill(blocked_now_.begin(), blocked_now_.end(), 0);
    const uint64_t port_mask = ports_ == 64 ? ~uint64_t{0} : (bit(ports_) - 1);
    const uint64_t free_in = ~in_busy_ & port_mask;
    uint64_t sharp_sent = 0;
    if (sharp_pending_ != 0) {
        sharp_credit_blocked_ = 0;
        sharp_sent = sharp_egress(t, free_in);
    }
    if (out_req_any_ == 0) {
        track_stalls(t);
        if (sharp_pending_ != 0) sharp_wake(t);
        return;
    }
    backlog_wake_ = NEVER;
    // The ports the priority packets took this cycle start no other transfer in it.
    const golden::switch_alloc_result pr =
        prio_out_any_ != 0 ? allocate_priority(t, sharp_sent) : golden::switch_alloc_result{};
    const uint64_t prio_out = pr.matched_out;
    grants_.clear();
    const uint64_t free_out = out_req_any_ & ~out_busy_ & ~sharp_sent & ~prio_out;
    // The golden rule (models/golden/switch_alloc.h) with this switch's grant oracle; matches
    // are committed below in the rule's order.
    const auto grant_of = [this, t](uint32_t o, uint64_t avail, const uint16_t& from) {
        return output_grant<false>(t, o, avail, from);
    };
    const auto accept = [this](uint32_t /*in*/, uint32_t o, uint32_t /*iteration*/) {
        grants_.push_back(out_grant_[o]);
        pool_.prefetch(out_grant_[o].pkt);  // commit reads the record (hint only)
    };
    const golden::switch_alloc_result r =
        islip_ ? alloc_.islip(free_in & ~pr.matched_in, free_out, iterations_, grant_of, accept)
               : alloc_.input_first(
                     free_in & ~pr.matched_in, free_out,
                     [this](uint32_t i) { return in_req_out_[i]; }, grant_of, accept);
    for (uint64_t& b : blocked_now_) b &= ~(r.matched_out | prio_out);
    track_stalls(t);
    for (const grant& g : grants_) commit<false>(t, g);
    if (sharp_pending_ != 0) sharp_wake(t);
    if (r.retry) schedule(t + 1, event{EV_WAKE, 0, 0, 0, 0, 0});
    if (backlog_wake_ != NEVER) {
        schedule(std::max(backlog_wake_, t + 1), event{EV_WAKE, 0, 0, 0, 0, 0});
    }
}

template <bool Prio>
__attribute__((always_inline)) inline void ib_switch::commit(cycle_t t, const grant& g) {
    if (voq_) {
        packet_queue& q = queues_[g.queue];
        q.pop(pool_);
        if (q.empty()) {
            set_request(g.in, g.out, g.vl, false);
        } else if (prio_blocks_ != 0) {
            set_priority(g.in, g.out, g.vl,
                         golden::is_priority_packet(pool_.link(q.head).blocks, prio_blocks_));
        }
    } else {
        withdraw_head(g.queue);
        queues_[g.queue].pop(pool_);
        if (!queues_[g.queue].empty()) request_head(g.queue);
    }
    packet& p = pool_[g.pkt];
    const uint32_t n = p.blocks;
    const uint32_t beats = p.beats;
    if (ar_) ar_->dequeued(static_cast<uint8_t>(g.out), n);
    if (check_ && (pool_.link(g.pkt).blocks != n || pool_.link(g.pkt).beats != beats)) {
        throw invariant_error(fmt::format(
            "cycle {}: switch input port {}: packet {} changed size while queued", t, g.in, p.id));
    }
    // Crossbar: `speedup` x line rate with fractions carried per port, but never ahead of the
    // packet's arrival (cut-through): common/xbar_clock.h.
    // A priority packet takes cell slots from the ports' transfers and leaves them busy as
    // they are (golden/switch_alloc.h "Priority packets").
    const common::xbar_clock::transfer xt = Prio ? xbar_.interleave(t, g.in, g.out, beats, p.hdr_in)
                                                 : xbar_.grant(t, g.in, g.out, beats, p.hdr_in);
    const cycle_t xbar_end = xt.done;
    if (!Prio) {
        in_busy_ |= bit(g.in);
        out_busy_ |= bit(g.out);
    }
    // Input-buffer blocks are freed (and credited back) as the crossbar reads them out, in
    // chunks of CREDIT_RETURN_CHUNK blocks; the last chunk when the transfer completes.
    uint32_t freed = 0;
    for (uint32_t end = CREDIT_RETURN_CHUNK; end < n; end += CREDIT_RETURN_CHUNK) {
        const uint32_t end_beats = std::min<uint32_t>(
            beats, (end * golden::CREDIT_BLOCK_BYTES + tm_.block_bytes - 1) / tm_.block_bytes);
        const cycle_t at = xbar_.read_by(xt, end_beats);
        schedule(at, event{EV_BUF_FREE, p.vl, g.in, g.pkt, 0, CREDIT_RETURN_CHUNK});
        freed += CREDIT_RETURN_CHUNK;
    }
    const event done{EV_XBAR_DONE, p.vl, g.in, g.pkt, Prio ? g.out | XBAR_DONE_PRIO : g.out,
                     n - freed};
    if (xbar_end == t + 1) {
        // Short transfers end next cycle: one shared tick instead of an event each.
        xbar_next_.push_back(done);
        if (tick_at_ != t + 1) {
            tick_at_ = t + 1;
            schedule(t + 1, event{EV_TICK, 0, 0, 0, 0, 0});
        }
    } else {
        schedule(xbar_end, done);
    }
    // Egress link. IB CC marks at a root of congestion: a link busy with earlier packets, and
    // busy most of the recent time (golden/ib_cc_marker.h).
    const cycle_t link_gap = link_free_[g.out] > t + 1 ? 0 : t + 1 - link_free_[g.out];
    const cycle_t link_start = std::max(t + 1, link_free_[g.out]);
    link_free_[g.out] = link_start + beats;
    link_.booked(g.out, t, link_start, beats);
    link_.sent(t, g.out, g.vl, n, p.wire_bytes, check_);
    if (eth_) eth_dequeue(t, p, g.out, link_.tx(g.out, g.vl));
    if (cc_ && cc_->dequeued(g.out * vls_ + g.vl, n,
                             p.kind == common::PK_DATA || p.kind == common::PK_READ_RESP, beats,
                             link_gap)) {
        p.fecn = 1;  // IBTA A10: FECN in the BTH
        stats_.fecn_marked = cc_->marked();
    }
    p.vl = g.vl;
    total_out_beats_[g.out] += beats;
    if (in_window_) {
        stats_.out_blocks[g.out] += n;
        stats_.out_busy_cycles[g.out] += beats;
        ++stats_.xbar_transfers;
    }
    const link_peer& peer = peers_[g.out];
    if (peer.engine == nullptr) {
        throw invariant_error(fmt::format("switch output port {} is not connected", g.out));
    }
    const cycle_t wire = link_start + tm_.egress_cycles;  // after the egress pipeline
    if (g.out < taps_.size() && taps_[g.out] != nullptr) taps_[g.out]->on_packet(wire, p);
    peer.engine->schedule(wire + peer.link_cycles, event{EV_HDR, 0, peer.port, g.pkt, 0, 0});
}

void ib_switch::set_tap(uint16_t port, link_tap* tap) {
    if (port >= ports_) {
        throw invariant_error(fmt::format("set_tap: switch has no port {}", port));
    }
    if (taps_.size() < ports_) taps_.resize(ports_, nullptr);
    taps_[port] = tap;
}

void ib_switch::track_stalls(cycle_t t) {
    link_.stalls().track_vls(t, blocked_now_, in_window_, [&](uint32_t, uint32_t vl, cycle_t c) {
        stats_.credit_stall_cycles[vl] += c;
    });
}

}  // namespace ndr::cycle
