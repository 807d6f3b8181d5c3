#include "traffic_endpoints_tlm.h"
#include "common/delivery_record.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/invariant_error.h"
#include "config/config_error.h"
#include "golden/ib_packet.h"
#include "golden/opcode.h"

namespace ndr::tb {

using common::invariant_error;
using tlmm::ib_of;
using tlmm::timer;

traffic_endpoints_tlm::traffic_endpoints_tlm(sc_core::sc_module_name name, const cfg::config& c,
                                             const common::timing& tm, tlmm::run_status& status)
    : timed_device(name, tm.cycle_ps, status),
      tm_(tm),
      ports_(c.sw.ports),
      vls_(c.sw.vls),
      check_(c.sim.check_invariants),
      backlogged_(c.traffic.arrivals == "backlogged"),
      pattern_(c, c.sw.ports),
      mix_(c, tm),
      link_(c, tm, c.sw.ports, tm.ep_buffer_blocks, common::ENDPOINT_PORT_NAMES) {
    eps_.reserve(ports_);
    for (uint32_t e = 0; e < ports_; ++e) {
        eps_.push_back(endpoint{rng(c.sim.seed, e),
                                std::vector<std::deque<tlm::tlm_generic_payload*>>(vls_), 0, 0,
                                false, false, 0});
        const int id = static_cast<int>(e);
        tx.push_back(std::make_unique<initiator_socket>(fmt::format("tx_{}", e).c_str()));
        tx.back()->register_nb_transport_bw(this, &traffic_endpoints_tlm::tx_bw, id);
        fc_in.push_back(std::make_unique<target_socket>(fmt::format("fc_in_{}", e).c_str()));
        fc_in.back()->register_nb_transport_fw(this, &traffic_endpoints_tlm::fc_in_fw, id);
        rx.push_back(std::make_unique<target_socket>(fmt::format("rx_{}", e).c_str()));
        rx.back()->register_nb_transport_fw(this, &traffic_endpoints_tlm::rx_fw, id);
        fc_out.push_back(std::make_unique<initiator_socket>(fmt::format("fc_out_{}", e).c_str()));
        fc_out.back()->register_nb_transport_bw(this, &traffic_endpoints_tlm::fc_out_bw, id);
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

void traffic_endpoints_tlm::connect(uint16_t e, uint32_t peer_buffer_blocks) {
    link_.connect(e, peer_buffer_blocks);
}

void traffic_endpoints_tlm::start() {
    for (uint32_t e = 0; e < ports_; ++e) {
        if (!pattern_.is_source(e) || mix_.rate <= 0.0) continue;
        const timer g{0, 0, T_GEN, 0, static_cast<uint16_t>(e), 0, 0, nullptr};
        if (backlogged_) {  // two packets waiting from the start; one more per packet sent
            schedule(1, g);
            schedule(1, g);
            continue;
        }
        schedule(eps_[e].gen.geometric_gap(mix_.inv_log_q), g);
    }
}

void traffic_endpoints_tlm::set_window(uint64_t start, uint64_t end) {
    win_start_ = start;
    win_end_ = end;
    if (start == 0) {
        in_window_ = true;
    } else {
        schedule(start, timer{0, 0, T_WIN_START, 0, 0, 0, 0, nullptr});
    }
    schedule(end, timer{0, 0, T_WIN_END, 0, 0, 0, 0, nullptr});
}

tlm::tlm_sync_enum traffic_endpoints_tlm::tx_bw(int, tlm::tlm_generic_payload& gp,
                                                tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph != tlm::BEGIN_RESP) throw std::logic_error("traffic_endpoints_tlm: phase on tx");
    gp.release();  // the switch is done with it
    return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum traffic_endpoints_tlm::fc_in_fw(int e, tlm::tlm_generic_payload& gp,
                                                   tlm::tlm_phase&, sc_core::sc_time& d) {
    const tlmm::fc_extension& f = tlmm::fc_of(gp);
    // The FC packet arrives at SystemC time + d: a calendar entry.
    deliver(arrival_cycle(d),
            timer{0, 0, T_FC_ARRIVE, f.vl, static_cast<uint16_t>(e), 0, f.fccl, nullptr});
    return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum traffic_endpoints_tlm::rx_fw(int e, tlm::tlm_generic_payload& gp,
                                                tlm::tlm_phase& ph, sc_core::sc_time& d) {
    // The header arrives at SystemC time + d: a calendar entry.
    gp.acquire();
    deliver(arrival_cycle(d), timer{0, 0, T_ARRIVE, 0, static_cast<uint16_t>(e), 0, 0, &gp});
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
}

void traffic_endpoints_tlm::accept(uint64_t t, uint16_t e, tlm::tlm_generic_payload& gp) {
    const tlmm::ib_extension& p = ib_of(gp);
    link_.receive_at_endpoint(t, "endpoint", e, p.vl, p.id, p.blocks);
    gp.acquire();
    schedule(t + p.beats, timer{0, 0, T_DELIVER, 0, e, 0, 0, &gp});
}

tlm::tlm_sync_enum traffic_endpoints_tlm::fc_out_bw(int, tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                                    sc_core::sc_time&) {
    throw std::logic_error("traffic_endpoints_tlm: FC packets complete on the forward call");
}

void traffic_endpoints_tlm::on_timer(uint64_t now, const timer& t) {
    switch (t.kind) {
        case T_GEN:
            generate(now, t.port);
            if (!backlogged_) {
                schedule(now + eps_[t.port].gen.geometric_gap(mix_.inv_log_q),
                         timer{0, 0, T_GEN, 0, t.port, 0, 0, nullptr});
            }
            mark_tx(t.port);
            break;
        case T_TXFREE:
            eps_[t.port].txfree_pending = false;
            mark_tx(t.port);
            break;
        case T_DELIVER:
            deliver(now, t.port, *t.gp);
            break;
        case T_ARRIVE:
            accept(now, t.port, *t.gp);
            t.gp->release();  // the arrival's reference
            break;
        case T_FC_ARRIVE:
            link_.on_fccl(now, t.port, t.vl, t.a);
            mark_tx(t.port);
            request_eval();
            break;
        case T_RXFREE:
            link_.rx(t.port, t.vl).on_free(t.a);
            link_.mark_fc(t.port * vls_ + t.vl);
            break;
        case T_FC_FLUSH:
            link_.on_fc_flush(t.a);
            break;
        case T_WIN_START:
            in_window_ = true;
            link_.stalls().open_window(now);
            break;
        case T_WIN_END:
            link_.stalls().close_window(now, [&](uint32_t, uint32_t vl, uint64_t c) {
                stats_.credit_stall_cycles[vl] += c;
            });
            in_window_ = false;
            break;
        default:
            throw std::logic_error("traffic_endpoints_tlm: unknown timer");
    }
}

void traffic_endpoints_tlm::evaluate(uint64_t now) {
    for (uint16_t e : tx_dirty_) {
        eps_[e].tx_dirty = false;
        try_send(now, e);
    }
    tx_dirty_.clear();
    link_.send_fc(
        now,
        [&](uint32_t e, uint32_t vl, uint32_t fccl) {
            const uint64_t depart =
                link_.fc_departure(e, now + tm_.fc_cycles - tm_.link_cycles, eps_[e].tx_free);
            tlmm::send_fc_packet(fc_pool_, *fc_out[e], vl, fccl, cycles(depart - now));
        },
        [&](uint32_t k, uint64_t at) {
            schedule(std::max(at, now + 1), timer{0, 0, T_FC_FLUSH, 0, 0, 0, k, nullptr});
        });
}

void traffic_endpoints_tlm::mark_tx(uint16_t e) {
    if (!eps_[e].tx_dirty) {
        eps_[e].tx_dirty = true;
        tx_dirty_.push_back(e);
    }
}

void traffic_endpoints_tlm::generate(uint64_t t, uint16_t e) {
    endpoint& ep = eps_[e];
    tlm::tlm_generic_payload& gp = pool_.allocate();
    gp.acquire();  // released when the switch is done with it (BEGIN_RESP on tx)
    tlmm::ib_extension& p = ib_of(gp);
    p = tlmm::ib_extension{};
    p.id = next_id_++;
    p.created = t;
    p.src = e;
    p.dst = static_cast<uint16_t>(pattern_.dest(e, ep.gen));
    const std::size_t choice = mix_.sizes.pick_index(ep.gen);
    p.payload_bytes = mix_.sizes.values[choice];
    p.wire_bytes = mix_.wire_of[choice];
    p.blocks = static_cast<uint16_t>(golden::blocks_for_bytes(p.wire_bytes));
    p.beats = static_cast<uint16_t>((p.wire_bytes + tm_.block_bytes - 1) / tm_.block_bytes);
    p.sl = static_cast<uint8_t>(mix_.sls.pick(ep.gen));
    p.vl = mix_.sl2vl.vl(p.sl);
    p.flow_seq = send_seq_[(std::size_t{e} * ports_ + p.dst) * 16 + p.sl]++;
    gp.set_address(p.dst + 1U);  // DLID
    gp.set_data_length(p.wire_bytes);
    gp.set_streaming_width(p.wire_bytes);
    ++stats_.created;
    if (t >= win_start_ && t < win_end_) {
        p.tagged = true;
        ++stats_.window_created;
        stats_.window_created_beats += p.beats;
        stats_.port_offered_beats[e] += p.beats;
    }
    ep.queues[p.vl].push_back(&gp);
    ep.nonempty |= 1U << p.vl;
    ++ep.queued;
    stats_.max_source_queue = std::max(stats_.max_source_queue, ep.queued);
}

void traffic_endpoints_tlm::try_send(uint64_t t, uint16_t e) {
    endpoint& ep = eps_[e];
    if (ep.tx_free > t) {
        if (!ep.txfree_pending) {
            ep.txfree_pending = true;
            schedule(ep.tx_free, timer{0, 0, T_TXFREE, 0, e, 0, 0, nullptr});
        }
        return;
    }
    uint32_t ready = 0;
    for (uint32_t m = ep.nonempty; m != 0; m &= m - 1) {
        const auto vl = static_cast<uint32_t>(__builtin_ctz(m));
        if (link_.can_send(e, vl, ib_of(*ep.queues[vl].front()).blocks)) ready |= 1U << vl;
    }
    link_.stalls().track_port(
        t, e, ready == 0 ? ep.nonempty : 0U, in_window_,
        [&](uint32_t, uint32_t vl, uint64_t c) { stats_.credit_stall_cycles[vl] += c; });
    if (ready == 0) return;
    const int vl = link_.pick_vl(e, ready);
    if (vl < 0) return;
    auto& q = ep.queues[static_cast<uint32_t>(vl)];
    tlm::tlm_generic_payload& gp = *q.front();
    q.pop_front();
    if (q.empty()) ep.nonempty &= ~(1U << vl);
    --ep.queued;
    const tlmm::ib_extension& p = ib_of(gp);
    link_.sent(t, e, static_cast<uint32_t>(vl), p.blocks, p.wire_bytes, check_);
    ep.tx_free = t + p.beats;
    link_.booked(e, t, t, p.beats);
    if (backlogged_) generate(t, e);
    if (ep.nonempty != 0) {
        ep.txfree_pending = true;
        schedule(ep.tx_free, timer{0, 0, T_TXFREE, 0, e, 0, 0, nullptr});
    }
    if (observer_) observer_(t, e, p);
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*tx[e])->nb_transport_fw(gp, ph, d);  // END_REQ annotated: the wire is free after the beats
}

void traffic_endpoints_tlm::deliver(uint64_t t, uint16_t e, tlm::tlm_generic_payload& gp) {
    const tlmm::ib_extension& p = ib_of(gp);
    record_delivery(stats_, recv_seq_, ports_, check_, win_start_, win_end_, t, e,
                    delivered{p.id, p.created, p.flow_seq, p.wire_bytes,
                              static_cast<uint16_t>(p.beats), p.src, p.dst, p.sl, p.vl, p.tagged});
    const uint8_t vl = p.vl;
    const uint32_t blocks = p.blocks;
    if (tm_.rx_proc_cycles == 0) {
        link_.rx(e, vl).on_free(blocks);
        link_.mark_fc(e * vls_ + vl);
    } else {
        schedule(t + tm_.rx_proc_cycles, timer{0, 0, T_RXFREE, vl, e, 0, blocks, nullptr});
    }
    tlm::tlm_phase ph = tlm::BEGIN_RESP;  // delivered: complete the switch's output transaction
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*rx[e])->nb_transport_bw(gp, ph, d);
    gp.release();
}

}  // namespace ndr::tb
