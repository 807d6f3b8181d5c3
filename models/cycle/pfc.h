// Priority flow control (IEEE 802.1Qbb) for the cycle models, fabric.technology = roce.
//
// Receiver side, per (port, priority) ingress buffer: when the occupancy reaches XOFF the port
// sends a PAUSE for that priority to its link partner; when it falls to XON it sends a resume
// (PAUSE with quanta 0). XOFF = buffer - headroom, the headroom sized per port from its link
// delay (golden::pfc_headroom_bytes, docs/roce.md). A PAUSE carries the maximum quanta and is
// taken to last until the resume (the refresh of a long pause is not modelled).
// Sender side: the engines keep their golden::credit_sender per (port, VL) and PFC sets its
// limit: paused = 0 blocks available, running = FC_MAX_OUTSTANDING blocks available (more than
// any frame), topped up after every send. The allocation code therefore needs no change: a
// paused priority looks like a priority without credits.
#pragma once
#include <cstdint>
#include <vector>

#include "common/pfc_port_stats.h"
#include "common/timing.h"
#include "config/sim_config.h"
#include "cycle/event.h"
#include "golden/credit_fc.h"

namespace ndr::cycle {

class pfc_ports {
public:
    /// `capacity_blocks`: ingress buffer per (port, priority); `staged_bytes`: what the upstream
    /// may already have committed to its egress (enters the headroom).
    pfc_ports(const cfg::config& c, const common::timing& tm, uint32_t ports, uint32_t prios,
              uint32_t capacity_blocks, uint64_t staged_bytes);

    /// Sets port p's XOFF/XON from its link latency in cycles. Throws cfg::config_error if the
    /// buffer cannot hold the headroom plus one maximum frame.
    void configure_port(uint32_t p, uint32_t link_cycles);
    /// Receiver: the occupancy of (p, prio) changed. Returns +1 = send PAUSE, -1 = send resume.
    int on_occupancy(uint32_t p, uint32_t prio, uint32_t occupied_blocks) {
        const uint32_t k = p * prios_ + prio;
        if (!xoff_sent_[k]) {
            if (occupied_blocks < xoff_[p]) return 0;
            xoff_sent_[k] = 1;
            ++stats_[k].pause_sent;
            return 1;
        }
        if (occupied_blocks > xon_[p]) return 0;
        xoff_sent_[k] = 0;
        ++stats_[k].resume_sent;
        return -1;
    }
    /// Sender: a PFC frame for (p, prio) arrived (and the reaction time has passed).
    void on_frame(cycle_t t, uint32_t p, uint32_t prio, bool pause, golden::credit_sender& tx);
    bool paused(uint32_t p, uint32_t prio) const { return paused_[p * prios_ + prio] != 0; }
    /// Sender: after a send on a running priority, tops the limit up again.
    static void refill(golden::credit_sender& tx) {
        if (tx.available() < golden::FC_MAX_OUTSTANDING) {
            tx.on_fccl(golden::fc_add(tx.fctbs(), golden::FC_MAX_OUTSTANDING));
        }
    }
    /// Initial sender limit of a running priority.
    static golden::credit_sender running_sender() {
        return golden::credit_sender(golden::FC_MAX_OUTSTANDING);
    }
    uint32_t frame_beats() const { return frame_beats_; }
    uint32_t reaction_cycles() const { return reaction_cycles_; }
    uint32_t xoff_blocks(uint32_t p) const { return xoff_[p]; }
    uint32_t xon_blocks(uint32_t p) const { return xon_[p]; }
    uint64_t headroom_bytes(uint32_t p) const { return headroom_[p]; }
    /// Statistics window: counts and paused time from t on / closed at t.
    void reset(cycle_t t);
    void close(cycle_t t);
    const std::vector<common::pfc_port_stats>& stats() const {
        return stats_;
    }  ///< [p * prios + prio]
    uint32_t prios() const { return prios_; }

private:
    const char* buffer_key_;  ///< the config key of the ingress buffer, for errors
    uint32_t prios_;
    uint32_t capacity_;
    uint64_t rate_bps_;
    uint64_t cycle_ps_;
    uint64_t reaction_ps_;
    uint32_t max_frame_wire_;
    uint64_t staged_bytes_;
    uint64_t xon_gap_blocks_;
    uint32_t frame_beats_;
    uint32_t reaction_cycles_;
    std::vector<uint32_t> xoff_;
    std::vector<uint32_t> xon_;
    std::vector<uint64_t> headroom_;
    std::vector<uint8_t> xoff_sent_;
    std::vector<uint8_t> paused_;
    std::vector<cycle_t> paused_since_;
    std::vector<common::pfc_port_stats> stats_;
};

}  // namespace ndr::cycle
