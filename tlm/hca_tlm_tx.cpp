// TLM HCA send side: control packets (ACK), SHARP packets, data packets per QP round robin.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/invariant_error.h"
#include "common/packet_kind.h"
#include "golden/ib_packet.h"
#include "golden/opcode.h"
#include "golden/rc_ack.h"
#include "golden/rc_segment.h"
#include "hca_tlm.h"

namespace ndr::tlmm {

using common::verb;

uint32_t hca_tlm::packet_payload(const message& m, uint32_t index) const {
    if (m.v == verb::rdma_read && !m.read_response) return 0;  // the request carries none
    return golden::rc_packet_payload(m.bytes, mtu_, index);
}

uint8_t hca_tlm::data_opcode(const message& m, uint32_t index) const {
    return golden::rc_data_opcode(common::rc_stream_of(m.v, m.read_response), index, m.packets);
}

tlm::tlm_generic_payload& hca_tlm::new_packet(uint64_t t, uint32_t src, uint32_t dst, uint8_t vl,
                                              uint32_t payload, uint32_t wire) {
    tlm::tlm_generic_payload& gp = pool_.allocate();
    gp.acquire();  // released when the switch is done with it (BEGIN_RESP on tx)
    ib_extension& p = ib_of(gp);
    p = ib_extension{};
    p.id = next_packet_id_++;
    p.created = t;
    p.src = static_cast<uint16_t>(src);
    p.dst = static_cast<uint16_t>(dst);
    p.sl = sl_;
    p.vl = vl;
    p.payload_bytes = payload;
    p.wire_bytes = wire;
    p.blocks = static_cast<uint16_t>(golden::blocks_for_bytes(wire));
    p.beats = (wire + tm_.block_bytes - 1) / tm_.block_bytes;
    p.pkt_beats = static_cast<uint16_t>(p.beats);
    gp.set_address(dst + 1U);  // DLID
    gp.set_data_length(wire);
    gp.set_streaming_width(wire);
    return gp;
}

void hca_tlm::try_send(uint64_t t, uint32_t h) {
    host_port& hp = ports_[h];
    if (hp.tx_free > t) {
        if (burst_max_ > 1 && !hp.control.empty()) send_express(t, h);
        if (!hp.txfree_pending) {
            hp.txfree_pending = true;
            schedule(hp.tx_free, timer{0, 0, T_TXFREE, 0, static_cast<uint16_t>(h), 0, 0, nullptr});
        }
        return;
    }
    const bool sent = send_control(t, h) || send_sharp(t, h) || send_data(t, h);
    const bool waiting = !hp.control.empty() || !hp.active.empty();
    const bool stalled = !sent && waiting && !link_.can_send(h, vl_, 1);
    link_.stalls().track_port(
        t, h, stalled ? 1U << vl_ : 0U, true,
        [&](uint32_t, uint32_t, uint64_t c) { stats_.credit_stall_cycles[h] += c; });
}

tlm::tlm_generic_payload& hca_tlm::control_packet_of(uint64_t t, uint32_t h) {
    host_port& hp = ports_[h];
    const control_packet c = hp.control.front();
    hp.control.pop_front();
    const queue_pair& acked = qps_[c.qp];  // the data sender's QP: acked.src receives this
    if (c.kind == common::PK_CNP) {        // IBTA A10 BECN (cc.enabled)
        tlm::tlm_generic_payload& cnp =
            new_packet(t, h, acked.src, vl_, 0, golden::IB_CNP_WIRE_BYTES);
        ib_extension& p = ib_of(cnp);
        p.kind = common::PK_CNP;
        p.opcode = golden::IB_CNP_OPCODE;
        p.qp = c.qp;
        return cnp;
    }
    tlm::tlm_generic_payload& gp =
        new_packet(t, h, acked.src, vl_, 0, golden::wire_bytes(0, golden::RC_ACKNOWLEDGE, false));
    ib_extension& p = ib_of(gp);
    p.kind = common::PK_ACK;
    p.opcode = golden::RC_ACKNOWLEDGE;
    p.qp = c.qp;
    p.psn = c.psn;
    p.count = c.count;
    p.express = burst_max_ > 1;
    next_packet_id_ += c.count - 1;
    stats_.acks_sent += c.count;
    return gp;
}

bool hca_tlm::send_control(uint64_t t, uint32_t h) {
    host_port& hp = ports_[h];
    if (hp.control.empty() || !link_.can_send(h, vl_, 1)) return false;
    transmit(t, h, control_packet_of(t, h));
    return true;
}

void hca_tlm::send_express(uint64_t t, uint32_t h) {
    // A burst is on the wire: the ACKs leave at its next packet boundary, between two packets.
    host_port& hp = ports_[h];
    const uint64_t p = hp.burst_pkt_beats;
    const uint64_t at = hp.burst_start + (t - hp.burst_start + p - 1) / p * p;
    if (at >= hp.tx_free) return;  // after the burst, as any packet
    if (at > t) {
        if (!hp.ctrl_pending) {
            hp.ctrl_pending = true;
            schedule(at, timer{0, 0, T_CTRL, 0, static_cast<uint16_t>(h), 0, 0, nullptr});
        }
        return;
    }
    while (!hp.control.empty() && link_.can_send(h, vl_, 1)) {
        tlm::tlm_generic_payload& gp = control_packet_of(t, h);
        const ib_extension& e = ib_of(gp);
        link_.sent(t, h, vl_, e.blocks, e.wire_bytes, false);
        stats_.tx_beats[h] += e.beats;
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_core::sc_time d = offset();
        (*tx[h])->nb_transport_fw(gp, ph, d);
    }
}

bool hca_tlm::send_sharp(uint64_t t, uint32_t h) {
    host_port& hp = ports_[h];
    if (hp.sharp.empty()) return false;
    tlm::tlm_generic_payload* gp = hp.sharp.front();
    if (!link_.can_send(h, sharp_vl_, ib_of(*gp).blocks)) return false;  // an FC update wakes us
    hp.sharp.pop_front();
    transmit(t, h, *gp);
    return true;
}

burst_shape hca_tlm::shape_burst(const message& msg, uint32_t index, uint32_t count) const {
    burst_shape shape;
    const auto add = [&](uint32_t idx, uint32_t n) {
        if (n == 0) return;
        const uint32_t pl = packet_payload(msg, idx);
        const uint32_t w = golden::wire_bytes(pl, data_opcode(msg, idx), false);
        shape.add(burst_shape::kind{
            pl, w, (w + tm_.block_bytes - 1) / tm_.block_bytes, golden::blocks_for_bytes(w),
            static_cast<uint32_t>(std::ceil(pl / pcie_bytes_per_cycle_)), n});
    };
    const bool has_last = index + count == msg.packets;
    add(index, 1);
    if (count > 1) {
        add(index + 1, count - 1 - (has_last ? 1U : 0U));
        if (has_last) add(index + count - 1, 1);
    }
    return shape;
}

bool hca_tlm::send_data(uint64_t t, uint32_t h) {
    host_port& hp = ports_[h];
    std::size_t tries = hp.active.size();
    uint64_t rate_wake = 0;  // cc.enabled: earliest time (ps) a delayed QP may send
    while (tries-- > 0) {
        const uint32_t qp = hp.active.front();
        hp.active.pop_front();
        queue_pair& q = qps_[qp];
        if (cc_on_ && q.cc.next_send() > t * tm_.cycle_ps) {  // IB CC: CCT[CCTI] delay
            hp.active.push_back(qp);
            rate_wake = rate_wake == 0 ? q.cc.next_send() : std::min(rate_wake, q.cc.next_send());
            continue;
        }
        if (q.messages.empty() || q.next_psn - q.acked_psn >= max_outstanding_) {
            q.active = false;  // nothing to send until a message or an ACK arrives
            continue;
        }
        const uint32_t m = q.messages.front();
        const uint32_t index = q.next_index;
        message& msg = msgs_[m];
        // A burst while no SHARP chunk is in flight on the fabric: up to burst_max_ packets of
        // the message while this QP has the port to itself, shared_max_ while others wait
        // (they take turns a burst each), within the send window.
        const uint32_t count =
            burst_max_ > 1 && hp.sharp.empty() && sharp_in_flight_ == 0
                ? std::min({hp.active.empty() ? burst_max_ : shared_max_, msg.packets - index,
                            max_outstanding_ - (q.next_psn - q.acked_psn)})
                : 1U;
        const burst_shape shape = shape_burst(msg, index, count);
        const uint32_t blocks = shape.max_blocks();
        const uint32_t pkt_beats = shape.max_beats();
        const uint32_t charge = shape.charge(burst_buffer_);
        if (!link_.can_send(h, vl_, charge)) {
            hp.active.push_front(qp);  // keep its turn; an FC update will wake us
            return false;
        }
        if (hp.dma_free > t) {  // payload DMA of the previous packet still running
            hp.active.push_front(qp);
            if (!hp.txfree_pending) {
                hp.txfree_pending = true;
                schedule(hp.dma_free,
                         timer{0, 0, T_TXFREE, 0, static_cast<uint16_t>(h), 0, 0, nullptr});
            }
            return false;
        }
        // Packet j leaves when the wire is free and packet j-1's payload DMA is done (the
        // per-packet rule above) and, on a link whose credit loop limits the rate, when the
        // credits would let it (credit_pacer.h).
        const bool paced = hp.pace.enabled() && !hp.pace.line_rate(blocks, pkt_beats);
        if (paced) hp.pace.record(t, blocks, pkt_beats);
        const burst_shape::timing when = shape.leave(t, paced ? &hp.pace : nullptr);
        const uint64_t start = when.last_start;
        const uint64_t end = when.end;
        const uint64_t dma = shape.last_dma();
        const uint8_t opcode = data_opcode(msg, index);
        const uint32_t psn = q.next_psn;
        q.next_psn += count;
        // Only a burst's last packet can end the message or fill the window (count is limited
        // by both), so only it may carry AckReq.
        const bool ack_req = golden::rc_ack_req(index + count == msg.packets,
                                                q.next_psn - q.acked_psn, max_outstanding_);
        if (index == 0) msg.first_psn = psn;
        q.next_index += count;
        if (q.next_index == msg.packets) {
            q.messages.pop_front();
            q.next_index = 0;
            q.unfinished.push_back(m);
        }
        stats_.data_packets_sent += count;
        hp.dma_free = std::max(hp.dma_free, start) + dma;
        tlm::tlm_generic_payload& gp =
            new_packet(t, h, q.dst, vl_, static_cast<uint32_t>(shape.payload_bytes()),
                       static_cast<uint32_t>(shape.wire_bytes()));
        ib_extension& p = ib_of(gp);
        p.count = count;
        p.blocks = static_cast<uint16_t>(charge);
        p.pkt_blocks = static_cast<uint16_t>(blocks);
        p.beats = static_cast<uint32_t>(end - t);
        p.pkt_beats = static_cast<uint16_t>(pkt_beats);
        next_packet_id_ += count - 1;
        p.kind = msg.read_response          ? common::PK_READ_RESP
                 : msg.v == verb::rdma_read ? common::PK_READ_REQ
                                            : common::PK_DATA;
        p.opcode = opcode;
        p.qp = qp;
        p.psn = psn;
        p.msg = m;
        p.index = index;
        p.ack_req = ack_req;
        if (cc_on_) {  // bursts are off with cc.enabled: one packet
            q.cc.on_send(start * tm_.cycle_ps, (end - start) * tm_.cycle_ps, ccp_);
            stats_.ccti_sum[h] += q.cc.ccti();
            ++stats_.ccti_packets[h];
        }
        transmit(t, h, gp);
        hp.active.push_back(qp);
        return true;
    }
    if (rate_wake != 0) {
        const uint64_t at = std::max(t + 1, (rate_wake + tm_.cycle_ps - 1) / tm_.cycle_ps);
        schedule(at, timer{0, 0, T_RATE_WAKE, 0, static_cast<uint16_t>(h), 0, 0, nullptr});
    }
    return false;
}

void hca_tlm::transmit(uint64_t t, uint32_t h, tlm::tlm_generic_payload& gp) {
    host_port& hp = ports_[h];
    const ib_extension& p = ib_of(gp);
    link_.sent(t, h, p.vl, p.blocks, p.wire_bytes, false);
    hp.tx_free = t + p.beats;
    hp.burst_start = t;
    hp.burst_pkt_beats = std::max<uint32_t>(1, p.count > 1 ? p.pkt_beats : p.beats);
    link_.booked(h, t, t, p.beats, hp.burst_pkt_beats);
    hp.txfree_pending = true;
    schedule(hp.tx_free, timer{0, 0, T_TXFREE, 0, static_cast<uint16_t>(h), 0, 0, nullptr});
    stats_.tx_beats[h] += p.beats;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time d = offset();
    (*tx[h])->nb_transport_fw(gp, ph, d);  // END_REQ annotated: the wire is free after the beats
}

}  // namespace ndr::tlmm
