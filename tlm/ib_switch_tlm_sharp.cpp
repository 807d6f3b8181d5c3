// SHARP parts of the TLM switch: packets to the aggregation node and result egress.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "common/invariant_error.h"
#include "ib_switch_tlm.h"

namespace ndr::tlmm {

common::sharp_an& ib_switch_tlm::enable_sharp(uint32_t osts, uint32_t ost_bytes,
                                              uint32_t alu_cycles, common::sharp_payloads* payloads,
                                              uint8_t sharp_vl) {
    if (sharp_vl >= vls_) {
        throw std::invalid_argument(
            fmt::format("sharp.vl {} is not a data VL (switch.vls {})", sharp_vl, vls_));
    }
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
    for (const uint64_t token : an_->taken()) {
        auto& gp = *reinterpret_cast<tlm::tlm_generic_payload*>(token);
        const ib_extension& e = ib_of(gp);
        free_input_blocks(t, e.hop.in_port, e.vl, e.blocks);
        --inside_;
        respond_upstream(e.hop.in_port, gp);  // the input buffer is done with it
        gp.release();                         // consumed by the node: no downstream hop
    }
}

void ib_switch_tlm::sharp_egress(uint64_t t) {
    uint64_t pending = an_->pending;
    while (pending != 0) {
        const auto o = static_cast<uint32_t>(__builtin_ctzll(pending));
        pending &= pending - 1;
        auto& q = an_->queue(static_cast<uint16_t>(o));
        bool blocked = false;
        while (!q.empty()) {
            tlm::tlm_generic_payload* gp = q.front();
            ib_extension& e = ib_of(*gp);
            if (link_free_[o] > t + 1) {  // the link is busy: come back when it frees
                schedule(link_free_[o] - 1, timer{0, 0, T_WAKE, 0, 0, 0, 0, nullptr});
                blocked = true;
                break;
            }
            if (!link_.can_send(o, an_->vl(), e.blocks)) {  // an FC update wakes us
                blocked = true;
                break;
            }
            q.pop_front();
            link_.consume(t, o, an_->vl(), e.blocks, false);  // strict priority: no VL arbiter
            const uint64_t start = std::max(t + 1, link_free_[o]);
            link_free_[o] = start + e.beats;
            total_out_beats_[o] += e.beats;
            schedule(start, timer{0, 0, T_EGRESS, 0, static_cast<uint16_t>(o), 0, 0, gp});
        }
        if (!blocked) an_->pending &= ~(uint64_t{1} << o);
    }
}

}  // namespace ndr::tlmm
