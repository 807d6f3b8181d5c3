// Crossbar switch allocation, SystemC-free: the one statement of the rule. The cycle model
// (models/cycle/ib_switch_alloc.cpp, ib_switch::allocate) runs it with the switch's grant oracle;
// the RTL check (rtl/switch_alloc/switch_alloc_check.cpp) runs it with a plain round-robin oracle
// and compares rtl/switch_alloc/ibs_switch_alloc.sv against it cycle by cycle
// (docs/architecture.md, "The switch pipeline", step 5; docs/style.md §15).
//
// Ports 0..N-1 (N <= 64), masks with one bit per port (port_mask.h). Per output o a grant
// pointer gptr[o], per input i an accept pointer aptr[i], both 0 at construction.
// rr_pick(m, p) = the first set bit of m at or after p, wrapping.
//
// The grant oracle is the output's side of the rule: grant(o, avail, gptr[o]) returns the input
// that output o grants among the inputs in `avail`, or MASK_PORTS (64) for none. It must return
// an input of `avail`. gptr[o] is passed as the pointer itself (a uint16_t lvalue): the oracle
// takes it by value, or by const reference to read it only when it needs it. Round robin from
// gptr[o] over the inputs requesting o is the plain oracle (the RTL block); the cycle model's also
// applies the VLs, credits, the egress staging budget and the VL arbiter (ib_switch::output_grant).
// The oracle may have side effects of its own (the cycle model keeps the granted packet); it must
// not read the pointers through this object.
//
// iSLIP (N. McKeown, "The iSLIP scheduling algorithm for input-queued switches", IEEE/ACM ToN
// 7(2), 1999), `iterations` iterations k = 0, 1, ..., among the free inputs and outputs not
// matched yet:
//  * grant: every unmatched free output o, lowest first, is granted grant(o, unmatched free
//    inputs, gptr[o]);
//  * if no output granted, stop;
//  * accept: every input i with grants, lowest first, accepts rr_pick(its granting outputs,
//    aptr[i]); the pair is matched. Only on iteration 0: gptr[o] := (i + 1) mod N and
//    aptr[i] := (o + 1) mod N;
//  * if no grant was lost (every granted input had exactly one grant), stop: no further match
//    is possible. If grants were still lost in the last iteration, `retry` is set (the caller
//    allocates again next cycle).
//
// Separable input-first round robin (one pass):
//  * every free input i with requests to free outputs, lowest first, picks
//    rr_pick(requests(i) & free outputs, aptr[i]);
//  * every free output o picked by some inputs, lowest first, is granted grant(o, the inputs that
//    picked it, gptr[o]); for a grant to input i the pair is matched, gptr[o] := (i + 1) mod N
//    and aptr[i] := (o + 1) mod N, and if other inputs had picked o, `retry` is set.
//
// match(i, o, k) is called once per matched pair, in the order above (iSLIP: by iteration, then
// input; input-first: by output), before the pointers move. If grant or match throws, the
// object is left unusable (its scratch is not cleared).
//
// Priority packets (switch.xbar_priority_blocks = N > 0, VOQ switches): a packet of at most N
// credit blocks at the head of its VOQ (ACK, NAK, CNP, READ request: 1 block) does not wait for
// its input and output to be free. Each cycle, before the allocation above, a second allocator
// of this class (its own pointers, the switch's rule: iSLIP or input-first) matches the VOQs
// with a priority head packet over every input and output, busy or not, so that an input and an
// output each take at most one priority packet per cycle; the grant oracle is the switch's own
// (VL arbiter among the VLs with a priority head, credits, egress staging). Only it serves a
// priority head packet, and the ports it matched take no other grant in that cycle. A matched packet
// crosses at once in cell slots taken from the ports' transfers (common::xbar_clock::interleave:
// the ports' crossbar time moves on by its beats / speedup) and is booked on the output link
// after what is booked there. A cell crossbar (fixed-size cells, interleaved per input) does
// the same: a 1-cell packet crosses within a cell time. Without it an input and an output each
// ~80 % busy with 4 KiB transfers in unrelated phases (a ring) leave an ACK waiting tens of us.
// is_priority_packet is the size rule, shared by the cycle and TLM switches.
//
// Hot path: both rules are header templates on the callables, so the cycle model's lambdas
// inline (no std::function, no virtual call); no allocation per call (docs/performance.md).
#pragma once
#include <cstdint>
#include <vector>

#include "golden/port_mask.h"
#include "golden/vl_arb.h"

namespace ndr::golden {

/// The output VL step of a switch's grant oracle, shared by the cycle and TLM switches: among
/// the VLs in `eligible` (each has a packet that may go), the VL the output's arbiter picks, or
/// -1. A single eligible VL with a weighted table entry is that VL without running the arbiter
/// (the arbiter would pick it: it is the only eligible entry's VL).
inline int pick_output_vl(const vl_arbiter& arb, uint32_t eligible) {
    return ((eligible & (eligible - 1)) == 0 && (eligible & arb.weighted_vls()) != 0)
               ? __builtin_ctz(eligible)
               : arb.pick(eligible);
}

/// Whether a packet of `blocks` credit blocks is a priority packet at
/// switch.xbar_priority_blocks = `max_blocks` (see the file comment; 0: none is).
constexpr bool is_priority_packet(uint32_t blocks, uint32_t max_blocks) {
    return blocks <= max_blocks;
}

/// The outcome of one allocation.
struct switch_alloc_result {
    uint64_t matched_in = 0;   ///< inputs matched
    uint64_t matched_out = 0;  ///< outputs matched
    bool retry = false;        ///< grants were lost at the end: allocate again next cycle
};

class switch_alloc {
public:
    /// Throws std::invalid_argument unless 1 <= ports <= 64.
    explicit switch_alloc(uint32_t ports);

    uint32_t ports() const { return ports_; }
    uint32_t grant_ptr(uint32_t out) const { return grant_ptr_[out]; }
    uint32_t accept_ptr(uint32_t in) const { return accept_ptr_[in]; }

    /// iSLIP over the free inputs and outputs (see the file comment).
    template <typename Grant, typename Match>
    switch_alloc_result islip(uint64_t free_in, uint64_t free_out, uint32_t iterations,
                              Grant&& grant, Match&& match) {
        switch_alloc_result r;
        for (uint32_t it = 0; it < iterations; ++it) {
            uint64_t granted_in = 0;
            const uint64_t avail = free_in & ~r.matched_in;
            for_each_bit(free_out & ~r.matched_out, [&](uint32_t o) {
                const uint32_t i = grant(o, avail, grant_ptr_[o]);
                if (i >= MASK_PORTS) return;
                grants_[i] |= bit(o);
                granted_in |= bit(i);
            });
            if (granted_in == 0) break;
            bool lost = false;
            for_each_bit(granted_in, [&](uint32_t i) {
                const uint64_t m = grants_[i];
                grants_[i] = 0;
                const uint32_t o = rr_pick(m, accept_ptr_[i]);
                lost = lost || (m & ~bit(o)) != 0;
                r.matched_in |= bit(i);
                r.matched_out |= bit(o);
                match(i, o, it);
                if (it == 0) {  // pointers move only on first-iteration accepts
                    grant_ptr_[o] = next_port(i);
                    accept_ptr_[i] = next_port(o);
                }
            });
            if (!lost) break;
            if (it + 1 == iterations) r.retry = true;
        }
        return r;
    }

    /// Separable input-first round robin; requests(i) = the outputs input i requests (any
    /// superset of the free ones; it is masked with free_out here).
    template <typename Requests, typename Grant, typename Match>
    switch_alloc_result input_first(uint64_t free_in, uint64_t free_out, Requests&& requests,
                                    Grant&& grant, Match&& match) {
        switch_alloc_result r;
        for_each_bit(free_in, [&](uint32_t i) {
            const uint64_t m = requests(i) & free_out;
            if (m == 0) return;
            grants_[rr_pick(m, accept_ptr_[i])] |= bit(i);  // here: inputs that picked output o
        });
        for_each_bit(free_out, [&](uint32_t o) {
            const uint64_t picks = grants_[o];
            if (picks == 0) return;
            grants_[o] = 0;
            const uint32_t i = grant(o, picks, grant_ptr_[o]);
            if (i >= MASK_PORTS) return;
            if ((picks & ~bit(i)) != 0) r.retry = true;
            r.matched_in |= bit(i);
            r.matched_out |= bit(o);
            match(i, o, 0U);
            grant_ptr_[o] = next_port(i);
            accept_ptr_[i] = next_port(o);
        });
        return r;
    }

private:
    /// (p + 1) mod ports without a division.
    uint16_t next_port(uint32_t p) const {
        return static_cast<uint16_t>(p + 1 == ports_ ? 0 : p + 1);
    }

    uint32_t ports_;
    std::vector<uint16_t> grant_ptr_;   ///< per output
    std::vector<uint16_t> accept_ptr_;  ///< per input
    /// Scratch, all zero between calls. iSLIP: per input, the outputs granting it; input-first:
    /// per output, the inputs that picked it.
    std::vector<uint64_t> grants_;
};

}  // namespace ndr::golden
