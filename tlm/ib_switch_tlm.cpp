#include "ib_switch_tlm.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/bits.h"
#include "common/invariant_error.h"
#include "common/packet_kind.h"
#include "common/switch_ports.h"
#include "common/switch_window.h"
#include "golden/switch_alloc.h"
#include "socket_teardown.h"

namespace ndr::tlmm {

using common::bit;
using common::for_each_bit;

namespace {
constexpr uint64_t NEVER = std::numeric_limits<uint64_t>::max();
}  // namespace

ib_switch_tlm::ib_switch_tlm(sc_core::sc_module_name name, const cfg::config& c,
                             const common::timing& tm, golden::lft routes, run_status& status)
    : timed_device(name, tm.cycle_ps, status),
      tm_(tm),
      ports_(c.sw.ports),
      vls_(c.sw.vls),
      cut_through_(c.sw.cut_through),
      check_(c.sim.check_invariants),
      routes_(std::move(routes)),
      sl2vl_(golden::sl2vl_ports::parse(golden::sl2vl_table::parse(c.sw.sl2vl, c.sw.vls),
                                        c.sw.sl2vl_ports, c.sw.ports, c.sw.vls)),
      link_(common::switch_ports(c, tm)),
      xbar_(tm.speedup, c.sw.ports),
      mtu_(static_cast<uint32_t>(c.hca.mtu.count)),
      prio_blocks_(c.sw.xbar_priority_blocks) {
    if (ports_ > 64) throw std::invalid_argument("ib_switch_tlm: at most 64 ports");
    if (c.sw.queueing != "voq") {
        throw std::invalid_argument("ib_switch_tlm: only switch.queueing=voq is modelled");
    }
    const std::size_t pv = std::size_t{ports_} * vls_;
    link_free_.assign(ports_, 0);
    out_start_.assign(ports_, 0);
    out_pkt_.assign(ports_, 1);
    if (common::cc_active(c)) {
        cc_ = std::make_unique<golden::cc_marker>(common::cc_switch_marker(c, pv));
        cc_mask_ca_ = common::cc_victim_mask(c, true);
        if (common::cc_victim_mask(c, false)) {
            for (std::size_t q = 0; q < pv; ++q) cc_->set_victim_mask(q);
        }
    }
    flow_rows_.resize(ports_);
    voq_rows_.resize(std::size_t{ports_} * ports_);
    req_.assign(pv, 0);
    out_req_vls_.assign(ports_, 0);
    prio_req_.assign(pv, 0);
    prio_out_vls_.assign(ports_, 0);
    blocked_now_.assign(vls_, 0);
    stats_.buffer.assign(vls_, {});
    stats_.credit_stall_cycles.assign(vls_, 0);
    stats_.out_blocks.assign(ports_, 0);
    stats_.out_busy_cycles.assign(ports_, 0);
    total_out_beats_.assign(ports_, 0);
    for (uint32_t p = 0; p < ports_; ++p) {
        const int id = static_cast<int>(p);
        in.push_back(std::make_unique<target_socket>(fmt::format("in_{}", p).c_str()));
        in.back()->register_nb_transport_fw(this, &ib_switch_tlm::in_fw, id);
        fc_out.push_back(std::make_unique<initiator_socket>(fmt::format("fc_out_{}", p).c_str()));
        fc_out.back()->register_nb_transport_bw(this, &ib_switch_tlm::fc_out_bw, id);
        out.push_back(std::make_unique<initiator_socket>(fmt::format("out_{}", p).c_str()));
        out.back()->register_nb_transport_bw(this, &ib_switch_tlm::out_bw, id);
        fc_in.push_back(std::make_unique<target_socket>(fmt::format("fc_in_{}", p).c_str()));
        fc_in.back()->register_nb_transport_fw(this, &ib_switch_tlm::fc_in_fw, id);
    }
}

ib_switch_tlm::~ib_switch_tlm() {
    destroy_newest_first(fc_in, out, fc_out, in);
}

void ib_switch_tlm::connect(uint16_t port, uint32_t peer_buffer_blocks) {
    link_.connect(port, peer_buffer_blocks);
}

void ib_switch_tlm::set_ca_port(uint16_t port) {
    if (!cc_ || !cc_mask_ca_) return;
    for (uint32_t vl = 0; vl < vls_; ++vl) cc_->set_victim_mask(std::size_t{port} * vls_ + vl);
}

void ib_switch_tlm::set_credit_loop(uint16_t port, const credit_loop& loop) {
    if (out_pace_.empty()) out_pace_.resize(std::size_t{ports_} * vls_);
    for (uint32_t vl = 0; vl < vls_; ++vl) out_pace_[port * vls_ + vl] = credit_pacer(loop);
}

void ib_switch_tlm::set_window(uint64_t start, uint64_t end) {
    win_start_ = start;
    if (start == 0) {
        in_window_ = true;
    } else {
        schedule(start, timer{0, 0, T_WIN_START, 0, 0, 0, 0, nullptr});
    }
    schedule(end, timer{0, 0, T_WIN_END, 0, 0, 0, 0, nullptr});
}

tlm::tlm_sync_enum ib_switch_tlm::in_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                        sc_core::sc_time& d) {
    if (ph != tlm::BEGIN_REQ) throw std::logic_error("ib_switch_tlm: unexpected phase on in");
    // The header arrives at SystemC time + d: a calendar entry.
    gp.acquire();
    deliver(arrival_cycle(d), timer{0, 0, T_ARRIVE, 0, static_cast<uint16_t>(port), 0, 0, &gp});
    ph = tlm::END_REQ;  // accepted into the input buffer at once (credits guarantee space)
    return tlm::TLM_UPDATED;
}

void ib_switch_tlm::accept(uint64_t t, uint32_t i, tlm::tlm_generic_payload& gp) {
    ib_extension& e = ib_of(gp);
    const bool to_an = an_ && (e.kind == common::PK_SHARP_UP || e.kind == common::PK_SHARP_DOWN);
    uint8_t o = to_an ? 0 : routes_.port(static_cast<uint16_t>(e.dst + 1U));
    if (!to_an && (o == golden::LFT_NO_ROUTE || o >= ports_)) {
        throw common::invariant_error(
            fmt::format("cycle {}: switch input port {}: no LFT route for DLID {} (packet {})", t,
                        i, e.dst + 1U, e.id));
    }
    uint64_t th = t;  // this transaction's first header
    if (ar_ && !to_an && e.count > 1 && e.pkt_blocks != 0 && e.kind == common::PK_DATA &&
        ar_->group_size(o) > 1 && !out_pace_.empty()) {
        // Only where one port cannot carry the burst's packets back to back (its credit loop,
        // credit_pacer.h): there the cycle level's packets spread over the group.
        // Not where the SL maps to VL15 on some port (its packets are dropped, not split).
        bool drops = false;
        for_each_bit(ar_->group(o), [&](uint32_t p) {
            drops = drops || sl2vl_.vl(i, p, e.sl) == golden::SL2VL_DROP;
        });
        const uint8_t vl = sl2vl_.vl(i, o, e.sl);
        if (!drops) {
            credit_pacer& pace = out_pace_[std::size_t{o} * vls_ + vl];
            if (pace.enabled() && !pace.line_rate(e.pkt_blocks, e.pkt_beats)) {
                th = t + split_burst(t, i, o, gp);
            }
        }
    }
    if (ar_ && !to_an) o = ar_route(i, o, e);  // one choice per transaction
    // Packets that leave the switch other than through the crossbar stop counting as queued.
    const auto unqueue = [&] {
        if (ar_ && !to_an) ar_->dequeued(o, e.blocks);
    };
    common::rx_buffer& rx = link_.rx(i, e.vl);
    if (rx.free_blocks() < e.blocks) {
        throw common::invariant_error(fmt::format(
            "cycle {}: switch input port {} VL {}: buffer over capacity: packet {} needs {} "
            "blocks, {} of {} free (the sender ignored credits)",
            t, i, e.vl, e.id, e.blocks, rx.free_blocks(), rx.capacity()));
    }
    const bool grow = link_.arrived(i * vls_ + e.vl, e.blocks);
    rx.occ.update(t, rx.occupied());
    if (grow) request_eval();  // the shared buffer grants more: an FC update this step
    ++inside_;
    e.hop = ib_extension::hop_state{th, static_cast<uint8_t>(i), o, sl2vl_.vl(i, o, e.sl)};
    gp.acquire();  // upstream hop: released after the crossbar read it out
    gp.acquire();  // downstream hop: released when the next device is done with it
    if (e.id == drop_id_) {
        unqueue();
        schedule(t + 1, timer{0, 0, T_DROP, e.vl, static_cast<uint16_t>(i), 0, 0, &gp});
        return;
    }
    if (!to_an && e.hop.out_vl == golden::SL2VL_DROP) {  // IBTA: SL mapped to VL15 is dropped
        unqueue();
        schedule(std::max(t + 1, t + e.beats),
                 timer{0, 0, T_SL2VL_DROP, e.vl, static_cast<uint16_t>(i), 0, 0, &gp});
        return;
    }
    const uint64_t pipe = tm_.ingress_cycles;  // switch.latency_split
    const uint64_t elig = cut_through_ ? th + pipe : th + (e.beats - 1U) + pipe;
    if (e.express && !to_an && express(elig, i, gp)) {
        unqueue();
        return;
    }
    if (to_an) {
        // To the aggregation node once the whole packet is in (cycle model); a burst
        // (sim.tlm_sharp_burst) once its first packet is in: its chunks stream through the node
        // as the packets would, and its input buffer is freed when its tail is in.
        const uint32_t first = e.count > 1 ? e.pkt_beats : e.beats;
        const uint64_t in_at = cut_through_ ? th + pipe : th + (first - 1U) + pipe;
        schedule(std::max(in_at + 1, t + first),
                 timer{0, 0, T_SHARP_IN, e.vl, static_cast<uint16_t>(i), 0, 0, &gp});
        return;
    }
    ++flow(o, i).queued;
    schedule(elig, timer{0, 0, T_ELIG, 0, static_cast<uint16_t>(i), 0, 0, &gp});
}

tlm::tlm_sync_enum ib_switch_tlm::fc_in_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase&,
                                           sc_core::sc_time& d) {
    const fc_extension& f = fc_of(gp);
    // The FC packet arrives at SystemC time + d: a calendar entry.
    deliver(arrival_cycle(d),
            timer{0, 0, T_FC_ARRIVE, f.vl, static_cast<uint16_t>(port), 0, f.fccl, nullptr});
    return tlm::TLM_COMPLETED;
}

void ib_switch_tlm::set_adaptive(const cfg::config& c, std::vector<uint64_t> groups, uint32_t sw) {
    ar_ = std::make_unique<common::ar_router>(
        std::move(groups),
        static_cast<uint32_t>(c.routing.ar_threshold.count / golden::CREDIT_BLOCK_BYTES),
        c.sim.seed, sw);
}

void ib_switch_tlm::apply_fc(uint32_t port, uint8_t vl, uint32_t fccl) {
    link_.on_fccl(now_cycle(), port, vl, fccl);
    request_eval();
}

tlm::tlm_sync_enum ib_switch_tlm::out_bw(int, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                         sc_core::sc_time&) {
    if (ph != tlm::BEGIN_RESP) throw std::logic_error("ib_switch_tlm: unexpected phase on out");
    gp.release();  // the downstream device is done with the packet
    return tlm::TLM_COMPLETED;
}

tlm::tlm_sync_enum ib_switch_tlm::fc_out_bw(int, tlm::tlm_generic_payload&, tlm::tlm_phase&,
                                            sc_core::sc_time&) {
    throw std::logic_error("ib_switch_tlm: FC packets complete on the forward call");
}

void ib_switch_tlm::respond_upstream(uint16_t port, tlm::tlm_generic_payload& gp) {
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    (*in[port])->nb_transport_bw(gp, ph, d);
    gp.release();
}

void ib_switch_tlm::on_timer(uint64_t now, const timer& t) {
    switch (t.kind) {
        case T_ELIG: {
            const ib_extension& e = ib_of(*t.gp);
            voq_fifo& q = voq_made(t.port, e.hop.out_port, e.hop.out_vl);
            q.push_back(t.gp);
            if (cc_) cc_->enqueued(std::size_t{e.hop.out_port} * vls_ + e.hop.out_vl, e.blocks);
            const uint32_t o = e.hop.out_port;
            if (prio_blocks_ != 0 && q.size() == 1) {
                set_priority(t.port, o, e.hop.out_vl,
                             golden::is_priority_packet(e.blocks, prio_blocks_));
            }
            req_[o * vls_ + e.hop.out_vl] |= bit(t.port);
            out_req_vls_[o] |= 1U << e.hop.out_vl;
            out_req_any_ |= bit(o);
            break;
        }
        case T_XBAR_DONE:
            in_busy_ &= ~bit(t.port);
            out_busy_ &= ~bit(t.port2);
            free_input_blocks(now, t.port, t.vl, t.a);
            --inside_;
            respond_upstream(t.port, *t.gp);
            break;
        case T_BUF_FREE:
            free_input_blocks(now, t.port, t.vl, t.a);
            break;
        case T_PART_DONE:
            in_busy_ &= ~bit(t.port);
            out_busy_ &= ~bit(t.port2);
            break;
        case T_EXPRESS_DONE:
            free_input_blocks(now, t.port, t.vl, t.a);
            --inside_;
            respond_upstream(t.port, *t.gp);
            break;
        case T_EGRESS: {
            const ib_extension& e = ib_of(*t.gp);
            if (observer_) observer_(now, t.port, e);
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_core::sc_time d = offset();
            (*out[t.port])->nb_transport_fw(*t.gp, ph, d);
            break;
        }
        case T_SL2VL_DROP:
            ++stats_.sl2vl_drops;
            [[fallthrough]];
        case T_DROP: {
            const ib_extension& e = ib_of(*t.gp);
            free_input_blocks(now, t.port, t.vl, e.blocks);
            --inside_;
            respond_upstream(t.port, *t.gp);
            t.gp->release();  // the downstream hop never happens
            break;
        }
        case T_FC_FLUSH:
            link_.on_fc_flush(t.a);
            break;
        case T_WAKE:
            break;
        case T_SHARP_IN:
            on_sharp_in(now, t);
            break;
        case T_SHARP_OUT:
            an_->emit(now, t.a);
            break;
        case T_SHARP_FREE:
            sharp_consumed(now, *t.gp);
            break;
        case T_ARRIVE:
            accept(now, t.port, *t.gp);
            t.gp->release();  // the delivery's reference
            break;
        case T_FC_ARRIVE:
            apply_fc(t.port, t.vl, t.a);
            break;
        case T_WIN_START:
            open_window(now);
            break;
        case T_WIN_END:
            close_window(now);
            break;
        default:
            throw std::logic_error("ib_switch_tlm: unknown timer");
    }
}

bool ib_switch_tlm::express(uint64_t elig, uint32_t i, tlm::tlm_generic_payload& gp) {
    ib_extension& e = ib_of(gp);
    const uint32_t o = e.hop.out_port;
    const uint8_t vl = e.hop.out_vl;
    if (!link_.can_send(o, vl, e.blocks)) return false;  // queued like any packet
    flow_state& fl = flow(o, i);
    if (fl.queued > 0) return false;  // behind an older packet of its flow
    link_.sent(elig, o, vl, e.blocks, e.wire_bytes, false);
    total_out_beats_[o] += e.beats;
    schedule(elig + xbar_cycles(e.beats),
             timer{0, 0, T_EXPRESS_DONE, e.vl, static_cast<uint16_t>(i), 0, e.blocks, &gp});
    e.vl = vl;
    // It slips in at the next packet boundary of what the output is sending, after one packet
    // of each other input waiting for the output (their head packets are older).
    uint64_t at = elig + 1;
    const uint64_t pkt = std::max<uint64_t>(1, out_pkt_[o]);
    if (link_free_[o] > at) {
        at = std::min(link_free_[o], out_start_[o] + (at - out_start_[o] + pkt - 1) / pkt * pkt);
    }
    uint64_t waiting = 0;
    for (uint32_t v = 0; v < vls_; ++v) waiting |= req_[o * vls_ + v];
    at += static_cast<uint64_t>(__builtin_popcountll(waiting & ~bit(i))) * pkt;
    // After its flow's last granted packet and not before its last express one (same cycle:
    // the calendar keeps insertion order).
    at = std::max({at, fl.last_start + 1, fl.express_at});
    fl.express_at = at;
    schedule(at + tm_.egress_cycles, timer{0, 0, T_EGRESS, 0, static_cast<uint16_t>(o), 0, 0, &gp});
    return true;
}

uint8_t ib_switch_tlm::ar_route(uint32_t i, uint8_t lft, const ib_extension& e) {
    const uint8_t o = ar_->route(lft, e.dst, e.blocks, [&](uint32_t p) {
        const uint8_t vl = sl2vl_.vl(i, p, e.sl);
        return vl == golden::SL2VL_DROP ? 0U : link_.tx(p, vl).available();
    });
    stats_.ar_moved = ar_->moved();
    return o;
}

uint64_t ib_switch_tlm::split_burst(uint64_t t, uint32_t i, uint8_t lft,
                                    tlm::tlm_generic_payload& gp) {
    ib_extension& e = ib_of(gp);
    const uint32_t count = e.count;
    const uint32_t m = std::min(count, ar_->group_size(lft));
    const uint64_t per = e.beats / count;  // beats per packet as it arrives
    const uint32_t hdr = (e.wire_bytes - e.payload_bytes) / count;  // header bytes per packet
    const uint64_t pipe = tm_.ingress_cycles;
    uint32_t k0 = 0;
    for (uint32_t j = 0; j + 1 < m; ++j) {
        const uint32_t cnt = count / m + (j < count % m ? 1U : 0U);
        tlm::tlm_generic_payload& p = split_pool_.allocate();
        p.acquire();  // released when the next device is done with it
        ib_extension& x = ib_of(p);
        x = e;
        x.id = e.id + k0;
        x.psn = e.psn + k0;
        x.index = e.index + k0;
        x.count = cnt;
        x.payload_bytes = cnt * mtu_;
        x.wire_bytes = cnt * (mtu_ + hdr);
        x.beats = static_cast<uint32_t>(cnt * per);
        x.ack_req = false;
        p.set_data_length(x.wire_bytes);
        p.set_streaming_width(x.wire_bytes);
        const uint64_t th = t + k0 * per;
        const uint8_t o = ar_route(i, lft, x);
        x.hop = ib_extension::hop_state{th, static_cast<uint8_t>(i), o, sl2vl_.vl(i, o, x.sl)};
        x.hop.part = true;
        ++flow(o, i).queued;
        const uint64_t elig = cut_through_ ? th + pipe : th + (x.beats - 1U) + pipe;
        schedule(elig, timer{0, 0, T_ELIG, 0, static_cast<uint16_t>(i), 0, 0, &p});
        k0 += cnt;
    }
    e.id += k0;
    e.psn += k0;
    e.index += k0;
    e.count -= k0;
    e.payload_bytes -= k0 * mtu_;
    e.wire_bytes -= k0 * (mtu_ + hdr);
    e.beats -= static_cast<uint32_t>(k0 * per);
    gp.set_data_length(e.wire_bytes);
    gp.set_streaming_width(e.wire_bytes);
    return k0 * per;
}

ib_switch_tlm::voq_fifo& ib_switch_tlm::voq_made(uint32_t i, uint32_t o, uint32_t vl) {
    std::unique_ptr<voq_fifo[]>& row = voq_rows_[std::size_t{i} * ports_ + o];
    if (!row) row = std::make_unique<voq_fifo[]>(vls_);
    return row[vl];
}

uint32_t ib_switch_tlm::xbar_cycles(uint32_t beats) const {
    return xbar_.cycles(beats);
}

void ib_switch_tlm::open_window(uint64_t now) {
    win_start_ = now;
    in_window_ = true;
    for (uint32_t k = 0; k < ports_ * vls_; ++k) link_.rx(k).occ.reset(now);
    link_.stalls().open_window(now);
}

void ib_switch_tlm::close_window(uint64_t now) {
    if (!in_window_) return;
    common::close_switch_window(
        now, win_start_, ports_, vls_, link_.stalls(),
        [this](uint32_t p, uint32_t vl) -> common::occupancy_stat& { return link_.rx(p, vl).occ; },
        stats_);
    in_window_ = false;
}

void ib_switch_tlm::free_input_blocks(uint64_t t, uint32_t port, uint32_t vl, uint32_t blocks) {
    link_.release(port * vls_ + vl, blocks);
    common::rx_buffer& rx = link_.rx(port, vl);
    rx.occ.update(t, rx.occupied());
}

void ib_switch_tlm::evaluate(uint64_t now) {
    allocate(now);  // SHARP results compete in it through the output's VL arbiter
    send_fc(now);
}

void ib_switch_tlm::set_priority(uint32_t in_port, uint32_t o, uint32_t vl, bool on) {
    uint64_t& m = prio_req_[o * vls_ + vl];
    if (on) {
        m |= bit(in_port);
        prio_out_vls_[o] |= 1U << vl;
        prio_out_any_ |= bit(o);
        return;
    }
    if ((m & bit(in_port)) == 0) return;
    m &= ~bit(in_port);
    if (m == 0) {
        prio_out_vls_[o] &= ~(1U << vl);
        if (prio_out_vls_[o] == 0) prio_out_any_ &= ~bit(o);
    }
}

template <bool Prio>
bool ib_switch_tlm::output_grant(uint64_t t, uint32_t o, uint64_t avail, uint32_t& in_port,
                                 uint32_t& out_vl) {
    const uint64_t backlog = common::staging_backlog(link_free_[o], t);
    uint32_t eligible = 0;
    uint32_t cand[16];
    for (uint32_t vls = Prio ? prio_out_vls_[o] : out_req_vls_[o]; vls != 0; vls &= vls - 1) {
        const auto vl = static_cast<uint32_t>(__builtin_ctz(vls));
        // A priority head packet is the priority pass's only (prio_req_ is 0 without).
        const uint32_t k = o * vls_ + vl;
        const uint64_t m = (Prio ? prio_req_[k] : req_[k] & ~prio_req_[k]) & avail;
        if (m == 0) continue;
        const golden::credit_sender& tx = link_.tx(o, vl);
        bool found = false;
        bool credit_blocked = false;
        uint64_t best_hdr = NEVER;
        uint64_t best_id = NEVER;
        for_each_bit(m, [&](uint32_t i) {
            const ib_extension& e = ib_of(*voq(i, o, vl).front());
            const uint32_t stage = e.count > 1 ? e.pkt_beats : e.beats;  // a burst: one packet
            if (backlog + stage > tm_.outbuf_beats) {
                backlog_wake_ =
                    std::min(backlog_wake_, link_free_[o] - 1 - (tm_.outbuf_beats - stage));
                return;
            }
            if (!tx.can_send(e.blocks)) {
                credit_blocked = true;
                return;
            }
            if (e.hop.hdr_in < best_hdr || (e.hop.hdr_in == best_hdr && e.id < best_id)) {
                best_hdr = e.hop.hdr_in;
                best_id = e.id;
                cand[vl] = i;
                found = true;
            }
        });
        if (found) {
            eligible |= 1U << vl;
        } else if (credit_blocked) {
            blocked_now_[vl] |= bit(o);
        }
    }
    if (eligible == 0) return false;
    const int vl = link_.pick_vl(o, eligible);  // as the cycle model
    if (vl < 0) return false;
    out_vl = static_cast<uint32_t>(vl);
    in_port = cand[out_vl];
    return true;
}

uint32_t ib_switch_tlm::xbar_eligible(uint64_t t, uint32_t o, uint64_t avail) const {
    const uint64_t backlog = common::staging_backlog(link_free_[o], t);
    return link_.xbar_eligible_vls(
        o, out_req_vls_[o], backlog, tm_.outbuf_beats,
        [&](uint32_t vl) { return req_[o * vls_ + vl] & avail; },
        [&](uint32_t i, uint32_t vl) {
            const ib_extension& e = ib_of(*voq(i, o, vl).front());
            return std::pair<uint32_t, uint32_t>(e.count > 1 ? e.pkt_beats : e.beats, e.blocks);
        });
}

void ib_switch_tlm::allocate(uint64_t t) {
    std::fill(blocked_now_.begin(), blocked_now_.end(), 0);
    const uint64_t mask = ports_ == 64 ? ~uint64_t{0} : (bit(ports_) - 1);
    uint64_t free_in = ~in_busy_ & mask;
    uint64_t sharp_sent = 0;
    const bool sharp = an_ && an_->pending != 0;
    if (sharp) {
        sharp_credit_blocked_ = 0;
        sharp_sent = sharp_egress(t, free_in);
    }
    if (out_req_any_ == 0) {
        track_stalls(t);
        if (sharp && an_->pending != 0) sharp_wake(t);
        return;
    }
    backlog_wake_ = NEVER;
    uint64_t matched_out = 0;
    // Priority packets first, over every input and output, busy or not, one per input and
    // output (golden/switch_alloc.h "Priority packets"), in the order below.
    const uint64_t prio_cand = prio_out_any_ & ~sharp_sent;
    uint64_t prio_in = mask;
    for (uint32_t k = 0; k < ports_ && prio_cand != 0 && prio_in != 0; ++k) {
        const uint32_t o = (rr_start_ + k) % ports_;
        if ((prio_cand & bit(o)) == 0) continue;
        uint32_t i = 0;
        uint32_t vl = 0;
        if (!output_grant<true>(t, o, prio_in, i, vl)) continue;
        commit<true>(t, i, o, vl);
        prio_in &= ~bit(i);
        free_in &= ~bit(i);  // the ports a priority packet took start no other transfer now
        matched_out |= bit(o);
    }
    const uint64_t cand = out_req_any_ & ~out_busy_ & ~sharp_sent & ~matched_out;
    for (uint32_t k = 0; k < ports_ && free_in != 0; ++k) {
        const uint32_t o = (rr_start_ + k) % ports_;
        if ((cand & bit(o)) == 0) continue;
        uint32_t i = 0;
        uint32_t vl = 0;
        if (!output_grant<false>(t, o, free_in, i, vl)) continue;
        commit<false>(t, i, o, vl);
        free_in &= ~bit(i);
        matched_out |= bit(o);
    }
    rr_start_ = (rr_start_ + 1) % ports_;
    if (sharp && an_->pending != 0) sharp_wake(t);
    for (uint64_t& b : blocked_now_) b &= ~matched_out;
    track_stalls(t);
    if (backlog_wake_ != NEVER) {
        schedule(std::max(backlog_wake_, t + 1), timer{0, 0, T_WAKE, 0, 0, 0, 0, nullptr});
    }
}

template <bool Prio>
void ib_switch_tlm::commit(uint64_t t, uint32_t in_port, uint32_t o, uint32_t vl) {
    voq_fifo& q = voq(in_port, o, vl);
    tlm::tlm_generic_payload* gp = q.front();
    q.pop_front();
    if (prio_blocks_ != 0) {
        set_priority(
            in_port, o, vl,
            !q.empty() && golden::is_priority_packet(ib_of(*q.front()).blocks, prio_blocks_));
    }
    if (q.empty()) {
        uint64_t& m = req_[o * vls_ + vl];
        m &= ~bit(in_port);
        if (m == 0) {
            out_req_vls_[o] &= ~(1U << vl);
            if (out_req_vls_[o] == 0) out_req_any_ &= ~bit(o);
        }
    }
    ib_extension& e = ib_of(*gp);
    const uint32_t n = e.blocks;
    const uint32_t beats = e.beats;
    const uint8_t in_vl = e.vl;
    if (ar_) ar_->dequeued(static_cast<uint8_t>(o), n);
    const uint64_t hdr_in = e.hop.hdr_in;
    // Fractions of a cycle carried per port, as at the cycle level (common/xbar_clock.h).
    // A priority packet takes cell slots from the ports' transfers and leaves them busy as
    // they are (golden/switch_alloc.h "Priority packets").
    const common::xbar_clock::transfer xt = Prio ? xbar_.interleave(t, in_port, o, beats, hdr_in)
                                                 : xbar_.grant(t, in_port, o, beats, hdr_in);
    const uint64_t xbar_end = xt.done;
    if (!Prio) {
        in_busy_ |= bit(in_port);
        out_busy_ |= bit(o);
    }
    uint32_t freed = 0;
    // A burst holds its credit charge (hca_tlm.h) until its tail is read out.
    for (uint32_t end = CREDIT_RETURN_CHUNK; e.count == 1 && !e.hop.part && end < n;
         end += CREDIT_RETURN_CHUNK) {
        const uint32_t end_beats = std::min<uint32_t>(
            beats, (end * golden::CREDIT_BLOCK_BYTES + tm_.block_bytes - 1) / tm_.block_bytes);
        const uint64_t at = xbar_.read_by(xt, end_beats);
        schedule(at, timer{0, 0, T_BUF_FREE, in_vl, static_cast<uint16_t>(in_port), 0,
                           CREDIT_RETURN_CHUNK, nullptr});
        freed += CREDIT_RETURN_CHUNK;
    }
    // A priority packet's end frees its blocks only, as an express packet's.
    schedule(xbar_end,
             timer{0, 0,
                   Prio         ? T_EXPRESS_DONE
                   : e.hop.part ? T_PART_DONE
                                : T_XBAR_DONE,
                   in_vl, static_cast<uint16_t>(in_port), static_cast<uint16_t>(o), n - freed, gp});
    // IB CC marks at a root of congestion: a link busy with earlier packets, and busy most of
    // the recent time (golden/ib_cc_marker.h).
    if (cc_ && cc_->dequeued(std::size_t{o} * vls_ + vl, n,
                             e.kind == common::PK_DATA || e.kind == common::PK_READ_RESP, beats,
                             link_free_[o] > t + 1 ? 0 : t + 1 - link_free_[o])) {
        e.fecn = true;
        stats_.fecn_marked = cc_->marked();
    }
    const uint64_t link_start = std::max(t + 1, link_free_[o]);
    uint32_t span = beats;
    if (!out_pace_.empty()) {
        credit_pacer& pace = out_pace_[o * vls_ + vl];
        const uint32_t pb = e.count > 1 ? e.pkt_beats : beats;
        const uint32_t pn = e.count > 1 ? e.pkt_blocks : n;
        if (pace.enabled() && !pace.line_rate(pn, pb)) {
            if (e.count == 1) {
                pace.record(link_start, pn, pb);
            } else {  // the burst's packets as the credits let them go, not faster than in
                uint64_t s = link_start;
                for (uint32_t j = 0; j < e.count; ++j) s = pace.send(s, pn, pb) + pb;
                span = std::max<uint32_t>(beats, static_cast<uint32_t>(s - link_start));
                e.beats = span;
            }
        }
    }
    link_free_[o] = link_start + span;
    link_.booked(o, t, link_start, span, e.count > 1 ? e.pkt_beats : beats);
    out_start_[o] = link_start;
    flow_state& fl = flow(o, in_port);
    --fl.queued;
    fl.last_start = link_start;
    out_pkt_[o] = e.count > 1 ? e.pkt_beats : beats;
    total_out_beats_[o] += beats;
    link_.sent(t, o, vl, n, e.wire_bytes, check_);
    e.vl = static_cast<uint8_t>(vl);
    if (in_window_) {
        stats_.out_blocks[o] += e.count == 1 ? n : golden::blocks_for_bytes(e.wire_bytes);
        stats_.out_busy_cycles[o] += span;
        stats_.xbar_transfers += e.count;
    }
    // On the wire after the egress pipeline (switch.latency_split).
    schedule(link_start + tm_.egress_cycles,
             timer{0, 0, T_EGRESS, 0, static_cast<uint16_t>(o), 0, 0, gp});
}

void ib_switch_tlm::send_fc(uint64_t t) {
    link_.send_fc(
        t,
        [&](uint32_t port, uint32_t vl, uint32_t fccl) {
            const uint64_t depart =
                link_.fc_departure(port, t + tm_.fc_cycles - tm_.link_cycles, link_free_[port]);
            send_fc_packet(fc_pool_, *fc_out[port], vl, fccl, offset() + cycles(depart - t));
            if (in_window_) ++stats_.fc_packets;
        },
        [&](uint32_t k, uint64_t at) {
            schedule(std::max(at, t + 1), timer{0, 0, T_FC_FLUSH, 0, 0, 0, k, nullptr});
        });
}

void ib_switch_tlm::track_stalls(uint64_t t) {
    link_.stalls().track_vls(t, blocked_now_, in_window_, [&](uint32_t, uint32_t vl, uint64_t c) {
        stats_.credit_stall_cycles[vl] += c;
    });
}

}  // namespace ndr::tlmm
