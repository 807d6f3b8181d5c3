// HCA receive side: ICRC and PSN checks, data placement, ACK/NAK generation, RC timers.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "common/invariant_error.h"
#include "cycle/hca.h"
#include "golden/rc_psn_window.h"

namespace ndr::cycle {

using common::invariant_error;
using common::PK_ACK;
using common::PK_CNP;
using common::PK_NAK;
using common::PK_READ_REQ;
using common::PK_SHARP_DOWN;
using common::verb;

namespace {

constexpr uint32_t PSN_MASK = 0xFFFFFFU;
bool psn_le(uint32_t a, uint32_t b) {
    return ((b - a) & PSN_MASK) < (1U << 23);
}
uint64_t next_random(uint64_t& s) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace

void hca_array::on_tail(cycle_t t, uint32_t h, uint32_t pkt) {
    packet& p = pool_[pkt];
    stats_.rx_beats[h] += p.beats;
    // The link layer is done with the packet: its receive-buffer blocks are freed.
    if (tm_.rx_proc_cycles == 0) {
        rx_freed(t, h, p.vl, p.blocks);
    } else {
        schedule(t + tm_.rx_proc_cycles,
                 event{EV_RXFREE, p.vl, static_cast<uint16_t>(h), 0, p.blocks, 0});
    }
    if (p.dst != h) {
        throw invariant_error(
            fmt::format("cycle {}: packet {} for host {} arrived at host {}", t, p.id, p.dst, h));
    }
    if (p.kind == PK_SHARP_DOWN) {  // SHARP result: placed after the receive pipeline
        schedule(t + ht_.recv_complete_cycles,
                 event{EV_SHARP_PLACED, 0, static_cast<uint16_t>(h), pkt, 0, 0});
        return;
    }
    const bool corrupt =
        icrc_error_rate_ > 0.0 &&
        static_cast<double>(next_random(fault_state_) >> 11) * 0x1.0p-53 < icrc_error_rate_;
    if (corrupt) {
        ++stats_.icrc_drops;  // transport drops it; RC recovers by NAK or timeout
    } else if (p.kind == PK_ACK || p.kind == PK_NAK) {
        receive_ack(t, p.qp, p.psn, p.kind == PK_NAK);
    } else if (p.kind == PK_CNP && cc_on_) {
        ++stats_.becn_received;  // IBTA A10 BECN: the source QP raises its CCT index
        queue_pair& q = qps_[p.qp];
        q.cc.on_becn(t * tm_.cycle_ps, ccp_);
        stats_.ccti_max[h] = std::max(stats_.ccti_max[h], q.cc.ccti_max());
    } else if (p.kind == PK_CNP) {
        ++stats_.cnps_received;
        if (dcqcn_on_) {
            qps_[p.qp].rp.on_cnp(t, dcqcn_);
            mark_tx(h);
        }
    } else {
        receive_data(t, h, p);
    }
    pool_.free(pkt);
}

void hca_array::queue_control(uint32_t h, uint8_t kind, uint32_t qp, uint32_t psn) {
    ports_[h].control.push_back(control_packet{kind, qp, psn});
    mark_tx(h);
}

void hca_array::respond(cycle_t t, uint32_t h, uint8_t kind, uint32_t qp, uint32_t psn) {
    if (ht_.ack_cycles == 0) {
        queue_control(h, kind, qp, psn);
        return;
    }
    // A constant delay: the pending queue is in ready order, each event moves its front.
    ports_[h].pending.push_back(control_packet{kind, qp, psn});
    schedule(t + ht_.ack_cycles, event{EV_CTRL_READY, 0, static_cast<uint16_t>(h), 0, 0, 0});
}

void hca_array::receive_data(cycle_t t, uint32_t h, packet& p) {
    const uint32_t rqp = qps_.reverse(p.qp);  // p.src -> h was sent on p.qp; h -> p.src is
    queue_pair& rq = qps_[rqp];               // the receiver state for data from p.src
    const uint32_t sender_qp = p.qp;
    if (p.ecn_ce != 0) {
        // DCQCN notification point: at most one CNP per flow per dcqcn.cnp_interval.
        ++stats_.ecn_marked_received;
        if (dcqcn_on_ && (!rq.cnp_sent || t - rq.last_cnp >= cnp_interval_cycles_)) {
            rq.cnp_sent = true;
            rq.last_cnp = t;
            ++stats_.cnps_sent;
            queue_control(h, PK_CNP, sender_qp, 0);
        }
    }
    if (p.fecn != 0 && cc_on_) {
        // IBTA A10: the destination returns a BECN to the source QP, here in a CNP.
        ++stats_.fecn_received;
        ++stats_.becn_sent;
        queue_control(h, PK_CNP, sender_qp, 0);
    }
    // PSN check (golden/rc_psn_window.h): in order, or ahead and placed out of order when
    // adaptive routing may reorder (routing.mode = adaptive), or not accepted.
    const golden::rc_psn_window::result r = rq.psns.on_packet(p.psn, 1, ooo_);
    if (r.placed) {
        rq.nak_sent = false;
        message& m = msgs_[p.msg];
        const bool last = ++m.arrived == m.packets;  // every packet is in, in any order
        if (p.kind != PK_READ_REQ) stats_.payload_bytes_delivered += p.payload_bytes;
        if (last) {
            if (p.kind == PK_READ_REQ) {
                // The responder streams the data back on its own QP once its DMA read starts.
                m.delivered = true;
                const uint32_t r_msg = alloc_message();
                message& resp = msgs_[r_msg];
                const message& req = msgs_[p.msg];
                resp.v = verb::rdma_read;
                resp.read_response = true;
                resp.src = h;
                resp.dst = req.src;
                resp.bytes = req.bytes;
                resp.tag = req.tag;
                resp.packets = golden::rc_packet_count(req.bytes, mtu_);
                resp.qp = rqp;  // h -> req.src
                schedule(t + tx_cycles_, event{EV_MSG_READY, 0, 0, r_msg, 0, 0});
                retire_if_done(p.msg);
            } else {
                schedule(t + ht_.recv_complete_cycles, event{EV_PLACED, 0, 0, p.msg, 0, 0});
            }
        }
        if (r.v != golden::rc_psn_window::verdict::in_order) {
            ++stats_.out_of_order_placed;  // acknowledged once the gap before it fills
            return;
        }
        // A packet that fills a gap acknowledges the packets placed beyond it at once (one of
        // them may carry the AckReq the requester waits for).
        if (rq.acks.on_accept(p.ack_req != 0, ack_coalesce_) || r.advanced > 1) {
            respond(t, h, PK_ACK, sender_qp, (rq.psns.expected() - 1) & PSN_MASK);
        }
        return;
    }
    ++stats_.out_of_order_drops;
    if (r.v == golden::rc_psn_window::verdict::ahead) {  // a packet before it was lost
        if (!ooo_ && !rq.nak_sent) {                     // with OOO placement: a duplicate, dropped
            rq.nak_sent = true;
            respond(t, h, PK_NAK, sender_qp, rq.psns.expected());
        }
    } else {  // duplicate of something already accepted: acknowledge again
        respond(t, h, PK_ACK, sender_qp, (rq.psns.expected() - 1) & PSN_MASK);
    }
}

void hca_array::receive_ack(cycle_t t, uint32_t qp, uint32_t psn, bool nak) {
    queue_pair& q = qps_[qp];
    const uint32_t upto = nak ? ((psn - 1) & PSN_MASK) : psn;
    bool progress = false;
    while (!q.window.empty() && psn_le(q.window.front().psn, upto) &&
           !(nak && q.window.front().psn == psn)) {
        q.window.pop_front();
        if (q.resend > 0) --q.resend;
        progress = true;
    }
    if (progress) {
        q.retries = 0;
        q.last_progress = t;  // restarts the transport timer (golden::rc_ack_deadline)
    }
    while (!q.unfinished.empty()) {
        const uint32_t m = q.unfinished.front();
        message& msg = msgs_[m];
        const uint32_t last_psn = (msg.first_psn + msg.packets - 1) & PSN_MASK;
        if (!psn_le(last_psn, upto) || (nak && last_psn == psn)) break;
        q.unfinished.pop_front();
        if (ht_.send_complete_cycles == 0) {
            send_done(t, m);  // may post (and add QPs): q is a deque element, it stays valid
        } else {
            schedule(t + ht_.send_complete_cycles, event{EV_SEND_DONE, 0, 0, m, 0, 0});
        }
    }
    if (nak) {
        q.resend = 0;  // go back N: resend the window from the NAK's PSN
        ++q.retries;
        if (q.retries > retry_count_) {
            throw std::runtime_error(fmt::format(
                "cycle {}: RC retry count ({}) exceeded on QP host {} -> host {} at PSN {}", t,
                retry_count_, q.src, q.dst, psn));
        }
    }
    if (nak || progress) {
        activate(qp);
        mark_tx(q.src);
    }
}

void hca_array::send_done(cycle_t t, uint32_t m) {
    message& msg = msgs_[m];
    msg.acked = true;
    const bool notify = msg.v != verb::rdma_read;  // reads complete on delivery
    const uint32_t src = msg.src;
    const uint64_t tag = msg.tag;
    retire_if_done(m);
    if (notify && host_ != nullptr) host_->on_send_complete(t, src, tag);
}

void hca_array::arm_timer(cycle_t t, uint32_t qp) {
    queue_pair& q = qps_[qp];
    if (q.timer_armed) return;
    q.timer_armed = true;
    schedule(t + ack_timeout_cycles_, event{EV_QP_TIMER, 0, 0, qp, 0, 0});
}

void hca_array::on_qp_timer(cycle_t t, uint32_t qp) {
    queue_pair& q = qps_[qp];
    q.timer_armed = false;
    if (q.window.empty()) return;
    const cycle_t deadline =
        golden::rc_ack_deadline(q.window.front().sent, q.last_progress, ack_timeout_cycles_);
    if (deadline > t) {
        q.timer_armed = true;
        schedule(deadline, event{EV_QP_TIMER, 0, 0, qp, 0, 0});
        return;
    }
    ++stats_.timeouts;
    if (++q.retries > retry_count_) {
        throw std::runtime_error(fmt::format(
            "cycle {}: RC retry count ({}) exceeded on QP host {} -> host {}: no ACK for PSN {}", t,
            retry_count_, q.src, q.dst, q.window.front().psn));
    }
    q.resend = 0;
    activate(qp);
    mark_tx(q.src);
    arm_timer(t, qp);
}

}  // namespace ndr::cycle
