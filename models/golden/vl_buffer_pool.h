// The input buffer of one switch port organised as per-VL reserved blocks plus one pool shared by
// the port's data VLs (switch.buffer_model = shared; docs/architecture.md "Buffer organisation").
// IB flow control is per VL and receiver-advertised (IB Vol.1 ch.7.9): whatever a receiver
// advertises (FCCL - ABR) it must be able to hold, and it cannot take an advertisement back. So
// a VL's capacity here is what it holds plus what it was last promised (the credit_receiver's
// capacity = occupied + window), and blocks move between VLs only through that capacity:
//   - blocks the crossbar reads out of VL v return to the pool (v's capacity shrinks by them);
//   - an FC update for VL v first re-grants: while v holds data it may claim unclaimed pool
//     blocks up to a dynamic threshold (Choudhury & Hahne, "Dynamic queue length thresholds for
//     shared-memory packet switches", IEEE/ACM ToN 6(2), 1998): its pool blocks at most `alpha`
//     times the pool blocks still unclaimed, so one busy VL gets alpha / (1 + alpha) of the pool
//     and a VL that drains slowly cannot take what a fast one needs; an idle VL falls back to
//     its reservation and keeps the promise it already made, nothing more;
//   - a VL's window (credits beyond what it holds) is at most `window` (its static share,
//     switch.buffer_per_vl): a promise cannot be taken back, so an idle VL never sits on more
//     than a static buffer would give it, and the others always keep at least their static
//     share;
//   - every VL can always claim its reservation (`reserved`, at least one MTU packet), so no VL
//     starves however busy the others are.
// The rule is the same at every level (common::ib_ports calls it). SystemC-free.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "golden/credit_fc.h"

namespace ndr::golden {

struct vl_buffer_pool {
    uint32_t total = 0;     ///< blocks per port (switch.vls x switch.buffer_per_vl); 0 = static
    uint32_t reserved = 0;  ///< blocks each VL can always claim (switch.vl_reserved)
    double alpha = 8.0;     ///< dynamic threshold (switch.pool_alpha)
    uint32_t window = FC_MAX_OUTSTANDING;  ///< most blocks promised beyond those held

    bool enabled() const { return total != 0; }
    /// A VL's claim on the pool: its capacity, but never less than its reservation.
    uint32_t claim(uint32_t capacity) const { return std::max(capacity, reserved); }
    /// The capacity VL v gets at an FC update: `claimed` = the sum of claim() over the port's
    /// VLs (v included), `capacity`/`occupied` = v's now. Busy (occupied > 0): its claim plus d
    /// unclaimed blocks, the most that keeps its pool blocks s + d <= alpha x (unclaimed - d),
    /// i.e. d = floor((alpha x unclaimed - s) / (1 + alpha)), and at most min(window, 2048)
    /// beyond what it holds (2048: the FCCL window limit); idle: its claim. Never below
    /// `capacity` (a promise stands). E.g. total 1024, reserved 128, alpha 8, window 512, both
    /// VLs at 128: a busy VL0 holding 300 goes to 128 + floor(8 x 768 / 9) = 810, holding 65
    /// to 65 + 512 = 577; an idle one stays at 128.
    uint32_t grant(uint32_t claimed, uint32_t capacity, uint32_t occupied) const {
        const uint32_t mine = claim(capacity);
        if (occupied == 0) return mine;
        const uint32_t unclaimed = total > claimed ? total - claimed : 0;
        const double held = static_cast<double>(mine - reserved);
        const double d = (alpha * static_cast<double>(unclaimed) - held) / (1.0 + alpha);
        const uint32_t more =
            d <= 0.0 ? 0 : std::min(unclaimed, static_cast<uint32_t>(std::floor(d)));
        const uint32_t ahead = std::min(window, FC_MAX_OUTSTANDING);
        return std::max(capacity, std::min(mine + more, occupied + ahead));
    }
    /// The most one VL reaches when the port's other VLs are idle at their reservations: the
    /// fixed point of grant() from the empty port with the VL full (each re-grant after blocks
    /// are read out gives them back). E.g. total 1024, reserved 128, 2 VLs, alpha 8: 810.
    uint32_t one_vl_capacity(uint32_t vls) const {
        uint32_t cap = reserved;
        const uint32_t others = (vls - 1U) * reserved;
        for (;;) {
            const uint32_t next = grant(others + claim(cap), cap, cap);
            if (next == cap) return cap;
            cap = next;
        }
    }
};

}  // namespace ndr::golden
