#include "cycle/hca.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/invariant_error.h"
#include "common/out_of_order.h"
#include "common/sharp_an.h"
#include "golden/ib_packet.h"
#include "golden/opcode.h"
#include "golden/roce_packet.h"
#include "golden/sl2vl.h"

namespace ndr::cycle {

using common::alloc_slot;
using common::invariant_error;
using common::message_placed;
using common::PK_SHARP_UP;
using common::ps_to_cycles;
using common::sharp_wire_bytes;
using common::timer_fired;
using common::timing;
using common::verb;

hca_array::hca_array(const cfg::config& c, const timing& tm, packet_pool& pool, uint32_t hosts)
    : tm_(tm),
      pool_(pool),
      hosts_(hosts),
      vls_(c.sw.vls),
      sl_(static_cast<uint8_t>(c.hca.sl)),
      vl_(golden::sl2vl_table::parse(c.sw.sl2vl, c.sw.vls).vl(static_cast<uint8_t>(c.hca.sl))),
      sharp_vl_(static_cast<uint8_t>(c.sharp.vl)),
      mtu_(static_cast<uint32_t>(c.hca.mtu.count)),
      ht_(common::derive_hca_timing(c, tm)),
      tx_cycles_(ht_.tx_cycles),
      pcie_bytes_per_cycle_(static_cast<double>(c.hca.pcie_rate.bps) / 8.0 *
                            static_cast<double>(tm.cycle_ps) * 1e-12),
      ack_coalesce_(c.hca.ack_coalesce),
      ack_timeout_cycles_(ps_to_cycles(c.hca.ack_timeout.ps, tm.cycle_ps, 1)),
      retry_count_(c.hca.retry_count),
      max_outstanding_(c.hca.max_outstanding),
      icrc_error_rate_(c.fault.icrc_error_rate),
      fault_state_(c.sim.seed * 0x2545F4914F6CDD1DULL + 17),
      link_(c, tm, hosts, tm.ep_buffer_blocks, common::HCA_PORT_NAMES),
      fc_proc_cycles_(tm.fc_cycles - tm.link_cycles) {
    if (vl_ >= vls_) {
        throw std::invalid_argument(
            fmt::format("hca.sl {} maps to VL {}, not a data VL", c.hca.sl, vl_));
    }
    ports_.resize(hosts);
    for (host_port& hp : ports_) hp.wqe = ht_.wqe_pacer();
    stats_.tx_beats.assign(hosts, 0);
    stats_.rx_beats.assign(hosts, 0);
    stats_.credit_stall_cycles.assign(hosts, 0);
    ooo_ = common::out_of_order_placement(c);
    cc_on_ = common::cc_active(c);
    if (cc_on_) {
        ccp_ = common::cc_ca(c);
        stats_.ccti_max.assign(hosts, 0);
        stats_.ccti_sum.assign(hosts, 0);
        stats_.ccti_packets.assign(hosts, 0);
    }
    if (c.fabric.technology == "roce") {
        roce_ = true;
        dcqcn_on_ = c.dcqcn.enabled;
        dcqcn_ = dcqcn_params::from(c, tm.cycle_ps);
        cnp_interval_cycles_ = ps_to_cycles(c.dcqcn.cnp_interval.ps, tm.cycle_ps, 0);
        // The NIC transmits one frame at a time: nothing is staged beyond the frame on the wire.
        if (c.pfc.enabled)
            pfc_ = std::make_unique<pfc_ports>(c, tm, hosts, vls_, tm.ep_buffer_blocks, 0);
    }
}

uint32_t hca_array::wire_of(uint32_t payload, uint8_t opcode) const {
    return roce_ ? golden::roce_wire_bytes(payload, opcode)
                 : golden::wire_bytes(payload, opcode, false);
}

double hca_array::qp_rate_bps(uint32_t src, uint32_t dst) const {
    const uint32_t qp = qps_.find(src, dst);
    if (qp == qps_.npos || !qps_[qp].rp.limited()) return dcqcn_.line_bps;
    return qps_[qp].rp.rate_bps();
}

void hca_array::pfc_check(cycle_t t, uint32_t h, uint32_t vl) {
    if (!pfc_) return;
    const int act = pfc_->on_occupancy(h, vl, link_.rx(h, vl).occupied());
    if (act == 0) return;
    host_port& hp = ports_[h];
    if (hp.peer.engine == nullptr) return;
    const cycle_t depart = t + 1;
    hp.tx_free = std::max(hp.tx_free, depart) + pfc_->frame_beats();
    stats_.tx_beats[h] += pfc_->frame_beats();
    hp.peer.engine->schedule(
        depart + hp.peer.link_cycles + pfc_->reaction_cycles(),
        event{EV_PFC, static_cast<uint8_t>(vl), hp.peer.port, 0, act > 0 ? 1U : 0U, 0});
}

void hca_array::rx_freed(cycle_t t, uint32_t h, uint32_t vl, uint32_t blocks) {
    link_.rx(h, vl).on_free(blocks);
    if (roce_) {
        pfc_check(t, h, vl);
    } else {
        link_.mark_fc(h * vls_ + vl);
    }
}

void hca_array::connect(uint32_t h, link_peer peer, uint32_t peer_buffer_blocks) {
    ports_[h].peer = peer;
    link_.connect(h, peer_buffer_blocks);
    if (roce_) {
        for (uint32_t vl = 0; vl < vls_; ++vl) link_.tx(h, vl) = pfc_ports::running_sender();
    }
    if (pfc_) pfc_->configure_port(h, peer.link_cycles);
}

void hca_array::start(cycle_t now) {
    if (roce_) return;  // Ethernet has no credit refresh
    schedule(now + tm_.refresh_cycles, event{EV_REFRESH, 0, 0, 0, 0, 0});
}

uint32_t hca_array::alloc_message() {
    const uint32_t m = alloc_slot(msgs_, free_msgs_);
    msgs_[m].live = true;
    ++live_messages_;
    return m;
}

void hca_array::retire_if_done(uint32_t m) {
    if (msgs_[m].delivered && msgs_[m].acked) free_message(m);
}

void hca_array::free_message(uint32_t m) {
    msgs_[m].live = false;
    free_msgs_.push_back(m);
    --live_messages_;
}

void hca_array::post(cycle_t now, verb v, uint32_t src, uint32_t dst, uint64_t bytes,
                     uint64_t tag) {
    if (src >= hosts_ || dst >= hosts_ || src == dst) {
        throw std::invalid_argument(
            fmt::format("hca: cannot post from host {} to host {}", src, dst));
    }
    const uint32_t m = alloc_message();
    message& msg = msgs_[m];
    msg.v = v;
    msg.src = src;
    msg.dst = dst;
    msg.bytes = bytes;
    msg.tag = tag;
    msg.packets = v == verb::rdma_read ? 1U : golden::rc_packet_count(bytes, mtu_);
    msg.qp = qps_.index(src, dst);
    ++stats_.messages_posted;
    host_port& hp = ports_[src];
    const cycle_t ready = hp.wqe.next(now + tx_cycles_, msg.qp);
    schedule(ready, event{EV_MSG_READY, 0, 0, m, 0, 0});
}

void hca_array::sharp_send(cycle_t now, uint32_t h, const common::sharp_contribution& c) {
    if (c.packets != 1) throw std::logic_error("hca_array: a SHARP burst at the cycle level");
    const uint32_t tree = c.tree, chunk = c.chunk, bytes = c.bytes, root_host = c.root_host,
                   data = c.data;
    const uint32_t idx = pool_.alloc();
    packet& p = pool_[idx];
    p.id = static_cast<uint32_t>(next_packet_id_++);  // wraps: ids are for messages
    p.created = now;
    p.kind = PK_SHARP_UP;
    p.src = static_cast<uint16_t>(h);
    p.dst = static_cast<uint16_t>(h);  // SHARP packets follow the tree, not the LFT
    p.msg = tree;
    p.index = chunk;
    p.psn = root_host;
    p.qp = data;
    p.sl = sl_;
    p.vl = sharp_vl_;
    p.payload_bytes = packet_bytes(bytes);
    p.wire_bytes = packet_bytes(sharp_wire_bytes(bytes));
    p.blocks = static_cast<uint16_t>(golden::blocks_for_bytes(p.wire_bytes));
    p.beats = static_cast<uint16_t>((p.wire_bytes + tm_.block_bytes - 1) / tm_.block_bytes);
    schedule(now + tx_cycles_, event{EV_SHARP_READY, 0, static_cast<uint16_t>(h), idx, 0, 0});
}

void hca_array::set_timer(cycle_t at, uint64_t token) {
    uint32_t idx;
    if (!free_timers_.empty()) {
        idx = free_timers_.back();
        free_timers_.pop_back();
        timers_[idx] = token;
    } else {
        idx = static_cast<uint32_t>(timers_.size());
        timers_.push_back(token);
    }
    schedule(at, event{EV_TIMER, 0, 0, idx, 0, 0});
}

void hca_array::run_cycle(cycle_t t, const std::vector<event>& events) {
    for (const event& e : events) {
        if (e.kind == EV_FCTBS) link_.on_fctbs(t, e.port, e.vl, e.a);
    }
    for (const event& e : events) {
        switch (e.kind) {
            case EV_MSG_READY:
                on_msg_ready(t, e.pkt);
                break;
            case EV_TXFREE:
                ports_[e.port].txfree_pending = false;
                mark_tx(e.port);
                break;
            case EV_HDR: {
                const packet& p = pool_[e.pkt];
                link_.receive_at_endpoint(t, "HCA", e.port, p.vl, p.id, p.blocks);
                if (pfc_) pfc_check(t, e.port, p.vl);
                schedule(t + p.beats, event{EV_TAIL, 0, e.port, e.pkt, 0, 0});
                break;
            }
            case EV_TAIL:
                on_tail(t, e.port, e.pkt);
                break;
            case EV_PLACED:
                message_placed(
                    msgs_, stats_.messages_delivered, [this](uint32_t m) { retire_if_done(m); },
                    host_, t, e.pkt);
                break;
            case EV_TIMER:
                timer_fired(timers_, free_timers_, host_, t, e.pkt);
                break;
            case EV_QP_TIMER:
                on_qp_timer(t, e.pkt);
                break;
            case EV_SHARP_READY:
                ports_[e.port].sharp.push(pool_, e.pkt);
                mark_tx(e.port);
                break;
            case EV_SHARP_PLACED: {
                const packet& p = pool_[e.pkt];
                const uint32_t tree = p.msg;
                const uint32_t chunk = p.index;
                const uint32_t data = p.qp;
                pool_.free(e.pkt);
                if (host_ != nullptr) host_->on_sharp_result(t, e.port, tree, chunk, data);
                break;
            }
            case EV_FC:
                link_.on_fccl(t, e.port, e.vl, e.a);
                mark_tx(e.port);
                break;
            case EV_FCTBS:
                break;  // checked above
            case EV_FC_FLUSH:
                link_.on_fc_flush(e.pkt);
                break;
            case EV_RXFREE:
                rx_freed(t, e.port, e.vl, e.a);
                break;
            case EV_PFC:  // only RoCE switches with pfc.enabled send PFC frames
                if (!pfc_) throw std::logic_error("hca_array: PFC frame without PFC");
                pfc_->on_frame(t, e.port, e.vl, e.a != 0, link_.tx(e.port, e.vl));
                mark_tx(e.port);
                break;
            case EV_RATE_WAKE:
                mark_tx(e.port);
                break;
            case EV_CTRL_READY: {
                host_port& hp = ports_[e.port];
                hp.control.push_back(hp.pending.front());
                hp.pending.pop_front();
                mark_tx(e.port);
                break;
            }
            case EV_SEND_DONE:
                send_done(t, e.pkt);
                break;
            case EV_REFRESH:
                refresh_due_ = true;
                schedule(t + tm_.refresh_cycles, event{EV_REFRESH, 0, 0, 0, 0, 0});
                break;
            default:
                throw std::logic_error("hca_array: unknown event kind");
        }
    }
    for (uint32_t h : tx_dirty_) {
        ports_[h].tx_dirty = false;
        try_send(t, h);
    }
    tx_dirty_.clear();
    if (refresh_due_) {  // forced FC round, after this cycle's transmissions
        refresh_due_ = false;
        link_.refresh([&](uint32_t h) { return ports_[h].peer.engine != nullptr; },
                      [&](uint32_t h, uint32_t vl, uint32_t fctbs) {
                          const link_peer& peer = ports_[h].peer;
                          peer.engine->schedule(
                              std::max(t, ports_[h].tx_free) + peer.link_cycles,
                              event{EV_FCTBS, static_cast<uint8_t>(vl), peer.port, 0, fctbs, 0});
                      });
    }
    link_.send_fc(
        t,
        [&](uint32_t h, uint32_t vl, uint32_t fccl) {
            const link_peer& peer = ports_[h].peer;
            if (peer.engine == nullptr) return;
            const cycle_t depart = link_.fc_departure(h, t + fc_proc_cycles_, ports_[h].tx_free);
            peer.engine->schedule(depart + peer.link_cycles,
                                  event{EV_FC, static_cast<uint8_t>(vl), peer.port, 0, fccl, 0});
        },
        [&](uint32_t k, cycle_t at) {
            schedule(at, event{EV_FC_FLUSH, 0, 0, k, 0, 0});
        });
}

void hca_array::on_msg_ready(cycle_t t, uint32_t m) {
    (void)t;
    const message& msg = msgs_[m];
    queue_pair& q = qps_[msg.qp];
    q.messages.push_back(m);
    activate(msg.qp);
    mark_tx(msg.src);
}

void hca_array::activate(uint32_t qp) {
    queue_pair& q = qps_[qp];
    if (q.active) return;
    q.active = true;
    ports_[q.src].active.push_back(qp);
}

void hca_array::mark_tx(uint32_t h) {
    if (!ports_[h].tx_dirty) {
        ports_[h].tx_dirty = true;
        tx_dirty_.push_back(h);
    }
}

}  // namespace ndr::cycle
