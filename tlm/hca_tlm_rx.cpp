// TLM HCA receive side: in-order check (lossless fabric), data placement, ACK generation,
// RDMA READ responses, SHARP results.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "common/invariant_error.h"
#include "common/packet_kind.h"
#include "golden/rc_psn_window.h"
#include "hca_tlm.h"

namespace ndr::tlmm {

using common::invariant_error;

void hca_tlm::on_tail(uint64_t t, uint32_t h, tlm::tlm_generic_payload& gp) {
    const ib_extension& p = ib_of(gp);
    stats_.rx_beats[h] += p.beats;
    // The link layer is done with the packet: its receive-buffer blocks are freed.
    if (tm_.rx_proc_cycles == 0) {
        link_.rx(h, p.vl).on_free(p.blocks);
        link_.mark_fc(h * vls_ + p.vl);
    } else {
        schedule(t + tm_.rx_proc_cycles,
                 timer{0, 0, T_RXFREE, p.vl, static_cast<uint16_t>(h), 0, p.blocks, nullptr});
    }
    const bool sharp = p.kind == common::PK_SHARP_DOWN;
    if (!sharp && p.dst != h) {
        throw invariant_error(
            fmt::format("cycle {}: packet {} for host {} arrived at host {}", t, p.id, p.dst, h));
    }
    if (sharp) {  // SHARP result: placed after the receive pipeline; keep the payload till then
        gp.acquire();
        schedule(t + ht_.recv_complete_cycles,
                 timer{0, 0, T_SHARP_PLACED, 0, static_cast<uint16_t>(h), 0, 0, &gp});
    } else if (p.kind == common::PK_ACK) {
        receive_ack(t, p.qp, p.psn);
    } else if (p.kind == common::PK_CNP) {
        ++stats_.becn_received;  // IBTA A10 BECN: the source QP raises its CCT index
        queue_pair& q = qps_[p.qp];
        q.cc.on_becn(t * tm_.cycle_ps, ccp_);
        stats_.ccti_max[h] = std::max(stats_.ccti_max[h], q.cc.ccti_max());
        mark_tx(h);
    } else {
        receive_data(t, h, p);
    }
    tlm::tlm_phase ph = tlm::BEGIN_RESP;  // consumed: complete the switch's output transaction
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*rx[h])->nb_transport_bw(gp, ph, d);
    gp.release();
}

void hca_tlm::receive_data(uint64_t t, uint32_t h, const ib_extension& p) {
    const uint32_t rqp = qps_.reverse(p.qp);  // p.src -> h was sent on p.qp; h -> p.src is
    queue_pair& rq = qps_[rqp];               // the receiver state for data from p.src
    if (p.fecn && cc_on_) {
        // IBTA A10: the destination returns a BECN to the source QP, here in a CNP.
        ++stats_.fecn_received;
        ++stats_.becn_sent;
        ports_[h].control.push_back(control_packet{p.qp, 0, 1, common::PK_CNP});
        mark_tx(h);
    }
    // PSN check (golden/rc_psn_window.h, as the cycle HCA): the TLM fabric is lossless, so a
    // packet is in order, or ahead and placed out of order when adaptive routing may reorder.
    const golden::rc_psn_window::result w = rq.psns.on_packet(p.psn, p.count, ooo_);
    if (!w.placed) {
        throw invariant_error(fmt::format(
            "cycle {}: HCA {}: packet {} from host {} has PSN {}, expected {} (the TLM fabric is "
            "lossless{})",
            t, h, p.id, p.src, p.psn, rq.psns.expected(), ooo_ ? "" : " and in order"));
    }
    message& m = msgs_[p.msg];
    m.arrived += p.count;
    const bool last = m.arrived == m.packets;  // every packet is in, in any order
    if (p.kind != common::PK_READ_REQ) stats_.payload_bytes_delivered += p.payload_bytes;
    if (last) {
        if (p.kind == common::PK_READ_REQ) {
            // The responder streams the data back on its own QP once its DMA read starts.
            m.delivered = true;
            const uint32_t r = alloc_message();
            message& resp = msgs_[r];
            const message& req = msgs_[p.msg];
            resp.v = common::verb::rdma_read;
            resp.read_response = true;
            resp.src = h;
            resp.dst = req.src;
            resp.bytes = req.bytes;
            resp.tag = req.tag;
            resp.packets = golden::rc_packet_count(req.bytes, mtu_);
            resp.qp = rqp;  // h -> req.src
            schedule(t + tx_cycles_, timer{0, 0, T_MSG_READY, 0, 0, 0, r, nullptr});
            retire_if_done(p.msg);
        } else {
            schedule(t + ht_.recv_complete_cycles, timer{0, 0, T_PLACED, 0, 0, 0, p.msg, nullptr});
        }
    }
    // The ACKs the packets trigger one by one (every hca.ack_coalesce and each AckReq, which
    // only a burst's last packet can carry); a burst's go out as one control entry standing for
    // all of them.
    if (w.v != golden::rc_psn_window::verdict::in_order) {
        stats_.out_of_order_placed += p.count;  // acknowledged once the gap before it fills
        return;
    }
    control_packet ack{p.qp, 0, 0};
    const golden::rc_ack_coalescer::run_acks run =
        rq.acks.on_accept_run(p.count, p.ack_req, ack_coalesce_);
    if (run.acks > 0) {
        ack.psn = p.psn + run.last;
        ack.count = run.acks;
    }
    if (w.advanced > p.count) {  // it filled a gap: the packets placed beyond it are ACKed too
        ack.psn = rq.psns.expected() - 1;
        ack.count = std::max<uint32_t>(ack.count, 1);
    }
    if (ack.count > 0) {
        if (ht_.ack_cycles == 0) {
            ports_[h].control.push_back(ack);
            mark_tx(h);
        } else {  // receive processing first; a constant delay keeps the pending queue in order
            ports_[h].pending.push_back(ack);
            schedule(t + ht_.ack_cycles,
                     timer{0, 0, T_CTRL_READY, 0, static_cast<uint16_t>(h), 0, 0, nullptr});
        }
    }
}

void hca_tlm::receive_ack(uint64_t t, uint32_t qp, uint32_t psn) {
    queue_pair& q = qps_[qp];
    if (psn >= q.next_psn || (psn + 1 < q.acked_psn && !ooo_)) {  // AR may reorder ACKs
        throw invariant_error(fmt::format("cycle {}: HCA {}: ACK for PSN {} out of window [{}, {})",
                                          t, q.src, psn, q.acked_psn, q.next_psn));
    }
    const bool progress = psn + 1 > q.acked_psn;
    if (progress) q.acked_psn = psn + 1;
    // qps_[qp] and msgs_[m], not references: the host may post (and open QPs) in the callback.
    while (!qps_[qp].unfinished.empty()) {
        const uint32_t m = qps_[qp].unfinished.front();
        message& msg = msgs_[m];
        if (msg.first_psn + msg.packets > qps_[qp].acked_psn) break;
        qps_[qp].unfinished.pop_front();
        if (ht_.send_complete_cycles == 0) {
            send_done(t, m);
        } else {
            schedule(t + ht_.send_complete_cycles, timer{0, 0, T_SEND_DONE, 0, 0, 0, m, nullptr});
        }
    }
    if (progress) {
        activate(qp);
        mark_tx(qps_[qp].src);
    }
}

void hca_tlm::send_done(uint64_t t, uint32_t m) {
    message& msg = msgs_[m];
    msg.acked = true;
    const bool notify = msg.v != common::verb::rdma_read;  // reads complete on delivery
    const uint32_t src = msg.src;
    const uint64_t tag = msg.tag;
    retire_if_done(m);
    if (notify && host_ != nullptr) host_->on_send_complete(t, src, tag);
}

}  // namespace ndr::tlmm
