#include "hca_tlm.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "common/invariant_error.h"
#include "common/out_of_order.h"
#include "common/packet_kind.h"
#include "common/sharp_an.h"
#include "config/config_error.h"
#include "golden/ib_packet.h"
#include "golden/sl2vl.h"
#include "sharp_an_tlm.h"
#include "socket_teardown.h"

namespace ndr::tlmm {

using common::invariant_error;

hca_tlm::hca_tlm(sc_core::sc_module_name name, const cfg::config& c, const common::timing& tm,
                 uint32_t hosts, run_status& status)
    : timed_device(name, tm.cycle_ps, status),
      tm_(tm),
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
      ooo_(common::out_of_order_placement(c)),
      max_outstanding_(c.hca.max_outstanding),
      burst_max_(
          std::max<uint32_t>(1, static_cast<uint32_t>(std::min<uint64_t>(
                                    c.sim.tlm_burst.count / c.hca.mtu.count, uint64_t{1} << 14)))),
      shared_max_(
          std::max<uint32_t>(1, static_cast<uint32_t>(std::min<uint64_t>(
                                    c.sim.tlm_burst_shared.count / c.hca.mtu.count, burst_max_)))),
      burst_buffer_(burst_buffer_blocks(tm)),  // a burst's charge fits what a VL gets back
      sharp_burst_(c.sim.tlm_sharp_burst.count),
      link_(c, tm, hosts, tm.ep_buffer_blocks, common::HCA_PORT_NAMES) {
    if (c.fault.icrc_error_rate > 0.0) {
        throw cfg::config_error(cfg::config_source::merged(), "fault.icrc_error_rate",
                                "the TLM level models a lossless fabric (no RC retransmission); "
                                "use --level cycle for fault injection");
    }
    if (vl_ >= vls_) {
        throw std::invalid_argument(
            fmt::format("hca.sl {} maps to VL {}, not a data VL", c.hca.sl, vl_));
    }
    ports_.resize(hosts);
    for (host_port& hp : ports_) hp.wqe = ht_.wqe_pacer();
    for (uint32_t h = 0; h < hosts; ++h) {
        const int id = static_cast<int>(h);
        tx.push_back(std::make_unique<initiator_socket>(fmt::format("tx_{}", h).c_str()));
        tx.back()->register_nb_transport_bw(this, &hca_tlm::tx_bw, id);
        fc_in.push_back(std::make_unique<target_socket>(fmt::format("fc_in_{}", h).c_str()));
        fc_in.back()->register_nb_transport_fw(this, &hca_tlm::fc_in_fw, id);
        rx.push_back(std::make_unique<target_socket>(fmt::format("rx_{}", h).c_str()));
        rx.back()->register_nb_transport_fw(this, &hca_tlm::rx_fw, id);
        fc_out.push_back(std::make_unique<initiator_socket>(fmt::format("fc_out_{}", h).c_str()));
        fc_out.back()->register_nb_transport_bw(this, &hca_tlm::fc_out_bw, id);
    }
    stats_.tx_beats.assign(hosts, 0);
    cc_on_ = common::cc_active(c);
    if (cc_on_) {
        // The CCT delay spaces a QP's packets one by one: no bursts (sim.tlm_burst).
        burst_max_ = 1;
        shared_max_ = 1;
        ccp_ = common::cc_ca(c);
        stats_.ccti_max.assign(hosts, 0);
        stats_.ccti_sum.assign(hosts, 0);
        stats_.ccti_packets.assign(hosts, 0);
    }
    stats_.rx_beats.assign(hosts, 0);
    stats_.credit_stall_cycles.assign(hosts, 0);
}

hca_tlm::~hca_tlm() {
    destroy_newest_first(fc_out, rx, fc_in, tx);
}

void hca_tlm::connect(uint32_t h, uint32_t peer_buffer_blocks) {
    link_.connect(h, peer_buffer_blocks);
}

void hca_tlm::set_credit_loop(uint32_t h, const credit_loop& loop) {
    ports_[h].pace = credit_pacer(loop);
}

uint32_t hca_tlm::alloc_message() {
    return common::alloc_slot(msgs_, free_msgs_);
}

void hca_tlm::retire_if_done(uint32_t m) {
    if (msgs_[m].delivered && msgs_[m].acked) free_msgs_.push_back(m);
}

void hca_tlm::post(common::cycle_t now, common::verb v, uint32_t src, uint32_t dst, uint64_t bytes,
                   uint64_t tag) {
    if (src >= hosts_ || dst >= hosts_ || src == dst) {
        throw std::invalid_argument(
            fmt::format("hca_tlm: cannot post from host {} to host {}", src, dst));
    }
    const uint32_t m = alloc_message();
    message& msg = msgs_[m];
    msg.v = v;
    msg.src = src;
    msg.dst = dst;
    msg.bytes = bytes;
    msg.tag = tag;
    msg.packets = v == common::verb::rdma_read ? 1U : golden::rc_packet_count(bytes, mtu_);
    msg.qp = qps_.index(src, dst);
    ++stats_.messages_posted;
    host_port& hp = ports_[src];
    const uint64_t ready = hp.wqe.next(now + tx_cycles_, msg.qp);
    schedule(ready, timer{0, 0, T_MSG_READY, 0, 0, 0, m, nullptr});
}

void hca_tlm::sharp_send(common::cycle_t now, uint32_t h, const common::sharp_contribution& c) {
    tlm::tlm_generic_payload& gp =
        new_packet(now, h, h, sharp_vl_, c.bytes, common::sharp_wire_bytes(c.bytes));
    ib_extension& p = ib_of(gp);
    // One packet, or a burst of consecutive chunks (sim.tlm_sharp_burst): sizes and charge.
    sharp_an_tlm::shape(p, c.bytes, c.packets, c.packet_bytes, tm_.block_bytes, burst_buffer_);
    gp.set_data_length(p.wire_bytes);
    gp.set_streaming_width(p.wire_bytes);
    p.kind = common::PK_SHARP_UP;
    p.msg = c.tree;
    p.index = c.chunk;
    p.psn = c.root_host;
    p.qp = c.data;
    ++sharp_in_flight_;
    schedule(now + tx_cycles_, timer{0, 0, T_SHARP_READY, 0, static_cast<uint16_t>(h), 0, 0, &gp});
}

void hca_tlm::set_timer(common::cycle_t at, uint64_t token) {
    uint32_t idx;
    if (!free_timers_.empty()) {
        idx = free_timers_.back();
        free_timers_.pop_back();
        timers_[idx] = token;
    } else {
        idx = static_cast<uint32_t>(timers_.size());
        timers_.push_back(token);
    }
    schedule(at, timer{0, 0, T_TIMER, 0, 0, 0, idx, nullptr});
}

tlm::tlm_sync_enum hca_tlm::tx_bw(int, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                  sc_core::sc_time&) {
    if (ph != tlm::BEGIN_RESP) throw std::logic_error("hca_tlm: unexpected phase on tx");
    gp.release();  // the switch is done with it
    return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum hca_tlm::fc_in_fw(int h, tlm::tlm_generic_payload& gp, tlm::tlm_phase&,
                                     sc_core::sc_time& d) {
    const fc_extension& f = fc_of(gp);
    // The FC packet arrives at SystemC time + d: a calendar entry.
    deliver(arrival_cycle(d),
            timer{0, 0, T_FC_ARRIVE, f.vl, static_cast<uint16_t>(h), 0, f.fccl, nullptr});
    return tlm::TLM_COMPLETED;
}

void hca_tlm::apply_fc(uint32_t h, uint8_t vl, uint32_t fccl) {
    link_.on_fccl(now_cycle(), h, vl, fccl);
    mark_tx(h);
    request_eval();
}

tlm::tlm_sync_enum hca_tlm::rx_fw(int h, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                  sc_core::sc_time& d) {
    // The header arrives at SystemC time + d: a calendar entry.
    gp.acquire();
    deliver(arrival_cycle(d), timer{0, 0, T_ARRIVE, 0, static_cast<uint16_t>(h), 0, 0, &gp});
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
}

void hca_tlm::accept(uint64_t t, uint32_t h, tlm::tlm_generic_payload& gp) {
    const ib_extension& p = ib_of(gp);
    link_.receive_at_endpoint(t, "HCA", h, p.vl, p.id, p.blocks);
    gp.acquire();
    schedule(t + p.beats, timer{0, 0, T_TAIL, 0, static_cast<uint16_t>(h), 0, 0, &gp});
    if (p.kind == common::PK_SHARP_DOWN && p.count > 1) {  // a burst: its first chunk is in
        gp.acquire();
        schedule(t + p.pkt_beats + ht_.recv_complete_cycles,
                 timer{0, 0, T_SHARP_FIRST, 0, static_cast<uint16_t>(h), 0, 0, &gp});
    }
}

tlm::tlm_sync_enum hca_tlm::fc_out_bw(int, tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                      sc_core::sc_time&) {
    throw std::logic_error("hca_tlm: FC packets complete on the forward call");
}

void hca_tlm::on_timer(uint64_t now, const timer& t) {
    switch (t.kind) {
        case T_MSG_READY: {
            const message& msg = msgs_[t.a];
            qps_[msg.qp].messages.push_back(t.a);
            activate(msg.qp);
            mark_tx(msg.src);
            break;
        }
        case T_TXFREE:
            ports_[t.port].txfree_pending = false;
            mark_tx(t.port);
            break;
        case T_RATE_WAKE:
            mark_tx(t.port);
            break;
        case T_TAIL:
            on_tail(now, t.port, *t.gp);
            break;
        case T_PLACED:
            common::message_placed(
                msgs_, stats_.messages_delivered, [this](uint32_t m) { retire_if_done(m); }, host_,
                now, t.a);
            break;
        case T_TIMER:
            common::timer_fired(timers_, free_timers_, host_, now, t.a);
            break;
        case T_SHARP_READY:
            ports_[t.port].sharp.push_back(t.gp);
            mark_tx(t.port);
            break;
        case T_SHARP_FIRST: {
            const ib_extension& p = ib_of(*t.gp);
            const uint32_t tree = p.msg;
            const uint32_t chunk = p.index;
            t.gp->release();
            if (host_ != nullptr) host_->on_sharp_first(now, t.port, tree, chunk);
            break;
        }
        case T_SHARP_PLACED: {
            const ib_extension& p = ib_of(*t.gp);
            const uint32_t tree = p.msg;
            const uint32_t chunk = p.index;
            const uint32_t data = p.qp;
            t.gp->release();
            if (sharp_in_flight_ > 0) --sharp_in_flight_;
            if (host_ != nullptr) host_->on_sharp_result(now, t.port, tree, chunk, data);
            break;
        }
        case T_FC_FLUSH:
            link_.on_fc_flush(t.a);
            break;
        case T_CTRL:
            ports_[t.port].ctrl_pending = false;
            mark_tx(t.port);
            break;
        case T_CTRL_READY: {
            host_port& hp = ports_[t.port];
            hp.control.push_back(hp.pending.front());
            hp.pending.pop_front();
            mark_tx(t.port);
            break;
        }
        case T_SEND_DONE:
            send_done(now, t.a);
            break;
        case T_RXFREE:
            link_.rx(t.port, t.vl).on_free(t.a);
            link_.mark_fc(t.port * vls_ + t.vl);
            break;
        case T_ARRIVE:
            accept(now, t.port, *t.gp);
            t.gp->release();  // the delivery's reference
            break;
        case T_FC_ARRIVE:
            apply_fc(t.port, t.vl, t.a);
            break;
        default:
            throw std::logic_error("hca_tlm: unknown timer");
    }
}

void hca_tlm::evaluate(uint64_t now) {
    for (uint32_t h : tx_dirty_) {
        ports_[h].tx_dirty = false;
        try_send(now, h);
    }
    tx_dirty_.clear();
    link_.send_fc(
        now,
        [&](uint32_t h, uint32_t vl, uint32_t fccl) {
            const uint64_t depart =
                link_.fc_departure(h, now + tm_.fc_cycles - tm_.link_cycles, ports_[h].tx_free);
            send_fc_packet(fc_pool_, *fc_out[h], vl, fccl, offset() + cycles(depart - now));
        },
        [&](uint32_t k, uint64_t at) {
            schedule(std::max(at, now + 1), timer{0, 0, T_FC_FLUSH, 0, 0, 0, k, nullptr});
        });
}

void hca_tlm::activate(uint32_t qp) {
    queue_pair& q = qps_[qp];
    if (q.active) return;
    q.active = true;
    ports_[q.src].active.push_back(qp);
}

void hca_tlm::mark_tx(uint32_t h) {
    if (!ports_[h].tx_dirty) {
        ports_[h].tx_dirty = true;
        tx_dirty_.push_back(h);
    }
}

}  // namespace ndr::tlmm
