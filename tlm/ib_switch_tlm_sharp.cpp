// SHARP parts of the TLM switch: packets to the aggregation node and result egress.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include <limits>

#include "common/bits.h"
#include "common/invariant_error.h"
#include "ib_switch_tlm.h"

namespace ndr::tlmm {

using common::bit;
using common::for_each_bit;

namespace {
constexpr uint64_t NEVER = std::numeric_limits<uint64_t>::max();
}  // namespace

common::sharp_an& ib_switch_tlm::enable_sharp(uint32_t osts, uint32_t ost_bytes,
                                              uint32_t alu_cycles, common::sharp_payloads* payloads,
                                              uint8_t sharp_vl) {
    if (sharp_vl >= vls_) {
        throw std::invalid_argument(
            fmt::format("sharp.vl {} is not a data VL (switch.vls {})", sharp_vl, vls_));
    }
    link_.set_local_source(sharp_vl, "sharp.vl");
    an_ = std::make_unique<sharp_an_tlm>(ports_, osts, ost_bytes, alu_cycles, payloads, sharp_vl,
                                         tm_);
    return an_->node();
}

void ib_switch_tlm::on_sharp_in(uint64_t t, const timer& tm) {
    for (const auto& [at, slot] : an_->on_packet(t, tm.port, *tm.gp)) {
        schedule(std::max(at, t + 1), timer{0, 0, T_SHARP_OUT, 0, 0, 0, slot, nullptr});
    }
    // The node consumed these packets (a contribution waiting for OSTs stays in its input
    // buffer, so its sender's credits stay held: back-pressure).
    // A burst taken before its tail is in keeps its input buffer until its last beat (a cycle
    // before the next packet on that input can arrive, so the buffer's statistics never see
    // both in one cycle, in whichever order the two events run).
    for (const uint64_t token : an_->taken()) {
        auto& gp = *reinterpret_cast<tlm::tlm_generic_payload*>(token);
        const ib_extension& e = ib_of(gp);
        const uint64_t last_beat = e.hop.hdr_in + e.beats - 1;
        if (e.count > 1 && last_beat > t) {
            schedule(last_beat, timer{0, 0, T_SHARP_FREE, 0, 0, 0, 0, &gp});
        } else {
            sharp_consumed(t, gp);
        }
    }
}

void ib_switch_tlm::sharp_consumed(uint64_t t, tlm::tlm_generic_payload& gp) {
    const ib_extension& e = ib_of(gp);
    free_input_blocks(t, e.hop.in_port, e.vl, e.blocks);
    --inside_;
    respond_upstream(e.hop.in_port, gp);  // the input buffer is done with it
    gp.release();                         // consumed by the node: no downstream hop
}

// SHARP results leave through the output's VL arbiter (common::ib_ports::local_wins), one
// decision per output and time step, before the crossbar pass of the same step: the node's head
// packet needs credits on sharp.vl and room in the egress staging budget, and the arbiter
// chooses between it and the VLs on which a free input has an eligible packet for the output.
// Returns the outputs that sent a SHARP packet (they take no crossbar grant this step).
uint64_t ib_switch_tlm::sharp_egress(uint64_t t, uint64_t free_in) {
    uint64_t sent = 0;
    uint64_t pending = an_->pending;
    while (pending != 0) {
        const auto o = static_cast<uint32_t>(__builtin_ctzll(pending));
        pending &= pending - 1;
        auto& q = an_->queue(static_cast<uint16_t>(o));
        tlm::tlm_generic_payload* gp = q.front();
        ib_extension& e = ib_of(*gp);
        // A burst (sim.tlm_sharp_burst) stages one packet at a time, as on the crossbar path.
        const uint32_t pkt = e.count > 1 ? e.pkt_beats : e.beats;
        const uint64_t backlog = common::staging_backlog(link_free_[o], t);
        if (backlog + pkt > tm_.outbuf_beats) continue;  // woken when the staging drains
        if (!link_.can_send(o, an_->vl(), e.blocks)) {
            sharp_credit_blocked_ |= bit(o);  // an FC update wakes us
            continue;
        }
        const uint32_t xbar = (out_busy_ & bit(o)) != 0 ? 0 : xbar_eligible(t, o, free_in);
        if (!link_.local_wins(o, xbar)) continue;
        if (e.count > 1 && xbar != 0) ++sharp_bursts_contended_;
        q.pop_front();
        link_.sent_local(t, o, e.blocks, e.wire_bytes, check_);
        const uint64_t start = std::max(t + 1, link_free_[o]);
        link_free_[o] = start + e.beats;
        link_.booked(o, t, start, e.beats, e.count > 1 ? pkt : 0);
        out_start_[o] = start;
        out_pkt_[o] = pkt;
        total_out_beats_[o] += e.beats;
        schedule(start + tm_.egress_cycles,
                 timer{0, 0, T_EGRESS, 0, static_cast<uint16_t>(o), 0, 0, gp});
        if (q.empty()) an_->pending &= ~bit(o);
        sent |= bit(o);
    }
    return sent;
}

// After the step's commits: each output still holding SHARP packets (and not waiting for
// credits) decides again when its staging budget next fits the head packet.
void ib_switch_tlm::sharp_wake(uint64_t t) {
    uint64_t pending = an_->pending & ~sharp_credit_blocked_;
    uint64_t wake = NEVER;
    for_each_bit(pending, [&](uint32_t o) {
        const ib_extension& e = ib_of(*an_->queue(static_cast<uint16_t>(o)).front());
        const uint32_t beats = e.count > 1 ? e.pkt_beats : e.beats;
        const uint64_t clear = link_free_[o] > tm_.outbuf_beats - beats + 1
                                   ? link_free_[o] - 1 - (tm_.outbuf_beats - beats)
                                   : 0;
        wake = std::min(wake, std::max(clear, t + 1));
    });
    if (wake != NEVER) schedule(wake, timer{0, 0, T_WAKE, 0, 0, 0, 0, nullptr});
}

}  // namespace ndr::tlmm
