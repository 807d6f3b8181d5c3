#include "cycle/pfc.h"

#include <fmt/format.h>

#include <stdexcept>

#include "config/config_error.h"
#include "golden/opcode.h"
#include "golden/roce_packet.h"

namespace ndr::cycle {

using common::pfc_port_stats;
using common::ps_to_cycles;
using common::timing;

pfc_ports::pfc_ports(const cfg::config& c, const timing& tm, uint32_t ports, uint32_t prios,
                     uint32_t capacity_blocks, uint64_t staged_bytes)
    : buffer_key_(staged_bytes > 0 ? "switch.buffer_per_vl" : "endpoint.rx_buffer_per_vl"),
      prios_(prios),
      capacity_(capacity_blocks),
      rate_bps_(c.link.rate.bps),
      cycle_ps_(tm.cycle_ps),
      reaction_ps_(c.pfc.reaction_time.ps),
      // The largest frame: an MTU payload with RETH + ImmDt (RDMA WRITE ONLY with immediate).
      max_frame_wire_(golden::roce_wire_bytes(static_cast<uint32_t>(c.hca.mtu.count),
                                              golden::RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE)),
      staged_bytes_(staged_bytes),
      xon_gap_blocks_((c.pfc.xon_gap.count + golden::CREDIT_BLOCK_BYTES - 1) /
                      golden::CREDIT_BLOCK_BYTES),
      frame_beats_((golden::PFC_WIRE_BYTES + tm.block_bytes - 1) / tm.block_bytes),
      reaction_cycles_(ps_to_cycles(c.pfc.reaction_time.ps, tm.cycle_ps, 0)),
      xoff_(ports, capacity_blocks),
      xon_(ports, 0),
      headroom_(ports, 0),
      xoff_sent_(std::size_t{ports} * prios, 0),
      paused_(std::size_t{ports} * prios, 0),
      paused_since_(std::size_t{ports} * prios, 0),
      stats_(std::size_t{ports} * prios) {}

void pfc_ports::configure_port(uint32_t p, uint32_t link_cycles) {
    const uint64_t head = golden::pfc_headroom_bytes(rate_bps_, uint64_t{link_cycles} * cycle_ps_,
                                                     reaction_ps_, max_frame_wire_, staged_bytes_);
    const uint64_t head_blocks =
        (head + golden::CREDIT_BLOCK_BYTES - 1) / golden::CREDIT_BLOCK_BYTES;
    const uint64_t frame_blocks = golden::blocks_for_bytes(max_frame_wire_);
    if (head_blocks + frame_blocks > capacity_) {
        throw cfg::config_error(
            cfg::config_source::merged(), buffer_key_,
            fmt::format(
                "{} B per port and priority cannot hold the PFC headroom of {} B (link delay {} "
                "ns, pfc.reaction_time {} ns) plus one {} B frame: raise it (docs/roce.md)",
                uint64_t{capacity_} * golden::CREDIT_BLOCK_BYTES, head,
                uint64_t{link_cycles} * cycle_ps_ / 1000, reaction_ps_ / 1000, max_frame_wire_));
    }
    headroom_[p] = head;
    xoff_[p] = static_cast<uint32_t>(capacity_ - head_blocks);
    xon_[p] = xoff_[p] > xon_gap_blocks_ ? static_cast<uint32_t>(xoff_[p] - xon_gap_blocks_) : 0;
}

void pfc_ports::on_frame(cycle_t t, uint32_t p, uint32_t prio, bool pause,
                         golden::credit_sender& tx) {
    const uint32_t k = p * prios_ + prio;
    if (pause) {
        ++stats_[k].pause_received;
        if (!paused_[k]) {
            paused_[k] = 1;
            paused_since_[k] = t;
        }
        tx.on_fccl(tx.fctbs());  // nothing may start
        return;
    }
    ++stats_[k].resume_received;
    if (paused_[k]) {
        paused_[k] = 0;
        stats_[k].paused_cycles += t - paused_since_[k];
    }
    refill(tx);
}

void pfc_ports::reset(cycle_t t) {
    for (std::size_t k = 0; k < stats_.size(); ++k) {
        stats_[k] = pfc_port_stats{};
        if (paused_[k]) paused_since_[k] = t;
    }
}

void pfc_ports::close(cycle_t t) {
    for (std::size_t k = 0; k < stats_.size(); ++k) {
        if (paused_[k]) {
            stats_[k].paused_cycles += t - paused_since_[k];
            paused_since_[k] = t;
        }
    }
}

}  // namespace ndr::cycle
