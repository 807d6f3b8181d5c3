// The crossbar's time base, shared by the cycle and TLM switches. The crossbar runs at
// `switch.speedup` times the link rate. A transfer of B beats takes B / speedup cycles, and the
// fraction carries over to the next transfer on the same input or output port, so speedup
// applies to every packet size. (Rounding each packet up to whole cycles gave 1- to 4-beat
// packets no speedup at 1.25.)
//
// Time inside the clock is kept in units of 1/P cycle, where speedup = P/Q, reduced, with
// Q = 1000 before reduction (the speedup is used to 0.001). A beat takes Q units.
//
// The rule for a grant at cycle t from input i to output o:
//   start = the later of the two ports' exact free times, if that falls in the cycle that
//           ends at t (a back-to-back transfer); otherwise t (an idle port: as before);
//   end   = start + beats * Q units, done at the cycle that holds it, but never before t + 1
//           nor before the packet's last beat arrives (cut-through);
//   both ports are free from `end` (or from the done cycle, if a floor applied).
// An isolated packet is timed exactly as ceil(beats / speedup), like the per-packet rule
// cycles() below, which the zero-load paths (TLM express packets, credit pacing) use.
//
// A priority packet (switch.xbar_priority_blocks, golden/switch_alloc.h "Priority packets")
// does not wait for its ports: it crosses in cell slots taken from whatever its input and
// output carry, from t:
//   end   = t + beats * Q units, done at the cycle that holds it, but never before t + 1 nor
//           before its last beat arrives;
//   each port's free time moves on by beats * Q units (from t if the port was idle), so the
//   transfer it interleaved with (or the port's next one) pays for the slots it took.
#pragma once
#include <cstdint>
#include <vector>

namespace ndr::common {

class xbar_clock {
public:
    xbar_clock(double speedup, uint32_t ports);

    /// One granted transfer: its exact start and the cycles its beats are read.
    struct transfer {
        uint64_t t = 0;        ///< grant cycle
        uint64_t start_u = 0;  ///< start in units of 1/P cycle
        uint64_t hdr_in = 0;   ///< cycle the packet's header arrived
        uint64_t done = 0;     ///< cycle the whole transfer is done
    };

    /// Grants `beats` beats from `in` to `out` at cycle `t` (header in at `hdr_in`) and books
    /// both ports until the transfer's exact end.
    transfer grant(uint64_t t, uint32_t in, uint32_t out, uint32_t beats, uint64_t hdr_in);

    /// A priority packet of `beats` beats from `in` to `out` at cycle `t`, interleaved with
    /// the ports' transfers (see the file comment).
    transfer interleave(uint64_t t, uint32_t in, uint32_t out, uint32_t beats, uint64_t hdr_in);

    /// Cycle by which the first `beats` beats of `x` have been read out (credit return).
    uint64_t read_by(const transfer& x, uint32_t beats) const;

    /// Per-packet crossbar time, ceil(beats / speedup), at least 1 (an idle crossbar).
    uint32_t cycles(uint32_t beats) const;

    uint64_t p() const { return p_; }
    uint64_t q() const { return q_; }

private:
    uint64_t ceil_cycles(uint64_t u) const { return (u + p_ - 1) / p_; }

    uint64_t p_ = 1;
    uint64_t q_ = 1;
    std::vector<uint64_t> in_free_u_;   ///< exact time each input is free, in 1/P cycles
    std::vector<uint64_t> out_free_u_;  ///< the same per output
};

}  // namespace ndr::common
