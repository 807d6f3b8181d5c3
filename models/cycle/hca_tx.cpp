// HCA send side: control packets (ACK/NAK), data packets per QP round robin, retransmission.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/invariant_error.h"
#include "cycle/hca.h"
#include "golden/ib_packet.h"
#include "golden/opcode.h"
#include "golden/rc_ack.h"
#include "golden/rc_segment.h"
#include "golden/roce_packet.h"

namespace ndr::cycle {

using common::invariant_error;
using common::PK_ACK;
using common::PK_CNP;
using common::PK_DATA;
using common::PK_READ_REQ;
using common::PK_READ_RESP;
using common::verb;

uint32_t hca_array::packet_payload(const message& m, uint32_t index) const {
    if (m.v == verb::rdma_read && !m.read_response) return 0;  // the request carries none
    return golden::rc_packet_payload(m.bytes, mtu_, index);
}

uint8_t hca_array::data_opcode(const message& m, uint32_t index) const {
    return golden::rc_data_opcode(common::rc_stream_of(m.v, m.read_response), index, m.packets);
}

void hca_array::try_send(cycle_t t, uint32_t h) {
    host_port& hp = ports_[h];
    if (hp.tx_free > t) {
        if (!hp.txfree_pending) {
            hp.txfree_pending = true;
            schedule(hp.tx_free, event{EV_TXFREE, 0, static_cast<uint16_t>(h), 0, 0, 0});
        }
        return;
    }
    const bool sent = send_control(t, h) || send_sharp(t, h) || send_data(t, h);
    // Credit stall: the link is idle, something waits, and the VL has no credit for it.
    const bool waiting = !hp.control.empty() || !hp.active.empty();
    const bool stalled = !sent && waiting && !link_.can_send(h, vl_, 1);
    link_.stalls().track_port(
        t, h, stalled ? 1U << vl_ : 0U, true,
        [&](uint32_t, uint32_t, cycle_t c) { stats_.credit_stall_cycles[h] += c; });
}

bool hca_array::send_control(cycle_t t, uint32_t h) {
    host_port& hp = ports_[h];
    if (hp.control.empty() || !link_.can_send(h, vl_, 1)) return false;
    const control_packet c = hp.control.front();
    hp.control.pop_front();
    const queue_pair& acked = qps_[c.qp];  // the sender's QP: acked.src receives this packet
    const uint32_t idx = pool_.alloc();
    packet& p = pool_[idx];
    p.id = static_cast<uint32_t>(next_packet_id_++);
    p.created = t;
    p.kind = c.kind;
    p.opcode = c.kind != PK_CNP ? golden::RC_ACKNOWLEDGE
               : roce_          ? golden::ROCEV2_CNP_OPCODE
                                : golden::IB_CNP_OPCODE;
    p.src = static_cast<uint16_t>(h);
    p.dst = static_cast<uint16_t>(acked.src);
    p.qp = c.qp;
    p.psn = c.psn;
    p.sl = sl_;
    p.vl = vl_;
    p.wire_bytes = packet_bytes(c.kind != PK_CNP ? wire_of(0, golden::RC_ACKNOWLEDGE)
                                : roce_          ? golden::roce_cnp_wire_bytes()
                                                 : golden::IB_CNP_WIRE_BYTES);
    p.blocks = static_cast<uint16_t>(golden::blocks_for_bytes(p.wire_bytes));
    p.beats = static_cast<uint16_t>((p.wire_bytes + tm_.block_bytes - 1) / tm_.block_bytes);
    if (c.kind == PK_ACK) {
        ++stats_.acks_sent;
    } else if (c.kind == PK_CNP) {
        // counted when queued (receive_data)
    } else {
        ++stats_.naks_sent;
    }
    transmit(t, h, idx);
    return true;
}

bool hca_array::send_sharp(cycle_t t, uint32_t h) {
    host_port& hp = ports_[h];
    if (hp.sharp.empty()) return false;
    const uint32_t idx = hp.sharp.head;
    if (!link_.can_send(h, sharp_vl_, pool_[idx].blocks)) return false;  // an FC update wakes us
    hp.sharp.pop(pool_);
    transmit(t, h, idx);
    return true;
}

bool hca_array::send_data(cycle_t t, uint32_t h) {
    host_port& hp = ports_[h];
    std::size_t tries = hp.active.size();
    double rate_wake = 0.0;  // DCQCN: earliest cycle a rate-limited QP may send
    while (tries-- > 0) {
        const uint32_t qp = hp.active.front();
        hp.active.pop_front();
        queue_pair& q = qps_[qp];
        if (dcqcn_on_ && q.rp.limited()) {
            q.rp.advance(t, dcqcn_);
            const double next = q.rp.next_send();
            if (next > static_cast<double>(t)) {  // paced: let the other QPs go first
                hp.active.push_back(qp);
                rate_wake = rate_wake == 0.0 ? next : std::min(rate_wake, next);
                continue;
            }
        }
        if (cc_on_ && q.cc.next_send() > t * tm_.cycle_ps) {  // IB CC: CCT[CCTI] delay
            const double next =
                static_cast<double>(q.cc.next_send()) / static_cast<double>(tm_.cycle_ps);
            hp.active.push_back(qp);
            rate_wake = rate_wake == 0.0 ? next : std::min(rate_wake, next);
            continue;
        }
        const bool resend = q.resend < q.window.size();
        const bool fresh = !resend && !q.messages.empty() && q.window.size() < max_outstanding_;
        if (!resend && !fresh) {
            q.active = false;  // nothing to send until a message, an ACK or a NAK arrives
            continue;
        }
        const uint32_t m = resend ? q.window[q.resend].msg : q.messages.front();
        const uint32_t index = resend ? q.window[q.resend].index : q.next_index;
        message& msg = msgs_[m];
        const uint32_t payload = packet_payload(msg, index);
        const uint8_t opcode = data_opcode(msg, index);
        const uint32_t wire = wire_of(payload, opcode);
        const uint32_t blocks = golden::blocks_for_bytes(wire);
        if (!link_.can_send(h, vl_, blocks)) {
            hp.active.push_front(qp);  // keep its turn; an FC update will wake us
            return false;
        }
        if (hp.dma_free > t) {  // payload DMA of the previous packet still running
            hp.active.push_front(qp);
            if (!hp.txfree_pending) {
                hp.txfree_pending = true;
                schedule(hp.dma_free, event{EV_TXFREE, 0, static_cast<uint16_t>(h), 0, 0, 0});
            }
            return false;
        }
        uint32_t psn;
        bool ack_req;
        if (resend) {
            sent_packet& sp = q.window[q.resend];
            sp.sent = t;
            psn = sp.psn;
            ack_req = sp.ack_req;
            ++q.resend;
            ++stats_.retransmitted_packets;
        } else {
            psn = q.next_psn;
            if (index == 0) msg.first_psn = psn;
            ack_req =
                golden::rc_ack_req(index + 1 == msg.packets, q.window.size() + 1, max_outstanding_);
            q.window.push_back(sent_packet{psn, m, index, t, ack_req});
            q.next_psn = (q.next_psn + 1) & 0xFFFFFFU;
            q.resend = q.window.size();
            if (++q.next_index == msg.packets) {
                q.messages.pop_front();
                q.next_index = 0;
                q.unfinished.push_back(m);
            }
            ++stats_.data_packets_sent;
        }
        arm_timer(t, qp);
        hp.dma_free = std::max(hp.dma_free, t) +
                      static_cast<cycle_t>(std::ceil(payload / pcie_bytes_per_cycle_));
        if (dcqcn_on_) q.rp.on_send(t, wire, dcqcn_);
        if (cc_on_) {
            const uint64_t beats = (wire + tm_.block_bytes - 1) / tm_.block_bytes;
            q.cc.on_send(t * tm_.cycle_ps, beats * tm_.cycle_ps, ccp_);
            stats_.ccti_sum[h] += q.cc.ccti();
            ++stats_.ccti_packets[h];
        }
        const uint32_t idx = pool_.alloc();
        packet& p = pool_[idx];
        p.id = static_cast<uint32_t>(next_packet_id_++);
        p.created = t;
        p.kind = msg.read_response          ? PK_READ_RESP
                 : msg.v == verb::rdma_read ? PK_READ_REQ
                                            : PK_DATA;
        p.opcode = opcode;
        p.src = static_cast<uint16_t>(h);
        p.dst = static_cast<uint16_t>(q.dst);
        p.qp = qp;
        p.psn = psn;
        p.msg = m;
        p.index = index;
        p.ack_req = ack_req ? 1 : 0;
        p.sl = sl_;
        p.vl = vl_;
        p.payload_bytes = packet_bytes(payload);
        p.wire_bytes = packet_bytes(wire);
        p.blocks = static_cast<uint16_t>(blocks);
        p.beats = static_cast<uint16_t>((wire + tm_.block_bytes - 1) / tm_.block_bytes);
        transmit(t, h, idx);
        hp.active.push_back(qp);
        return true;
    }
    if (rate_wake > 0.0) {
        schedule(std::max(t + 1, static_cast<cycle_t>(std::ceil(rate_wake))),
                 event{EV_RATE_WAKE, 0, static_cast<uint16_t>(h), 0, 0, 0});
    }
    return false;
}

void hca_array::transmit(cycle_t t, uint32_t h, uint32_t pkt) {
    host_port& hp = ports_[h];
    packet& p = pool_[pkt];
    link_.sent(t, h, p.vl, p.blocks, p.wire_bytes, false);
    if (roce_ && !(pfc_ && pfc_->paused(h, p.vl))) pfc_ports::refill(link_.tx(h, p.vl));
    hp.tx_free = t + p.beats;
    link_.booked(h, t, t, p.beats);
    hp.txfree_pending = true;
    schedule(hp.tx_free, event{EV_TXFREE, 0, static_cast<uint16_t>(h), 0, 0, 0});
    stats_.tx_beats[h] += p.beats;
    if (hp.peer.engine == nullptr) {
        throw invariant_error(fmt::format("HCA {} is not connected to the fabric", h));
    }
    if (h < taps_.size() && taps_[h] != nullptr) taps_[h]->on_packet(t, p);
    hp.peer.engine->schedule(t + hp.peer.link_cycles, event{EV_HDR, 0, hp.peer.port, pkt, 0, 0});
}

void hca_array::set_tap(uint32_t h, link_tap* tap) {
    if (h >= hosts_) throw invariant_error(fmt::format("set_tap: no host {}", h));
    if (taps_.size() < hosts_) taps_.resize(hosts_, nullptr);
    taps_[h] = tap;
}

}  // namespace ndr::cycle
