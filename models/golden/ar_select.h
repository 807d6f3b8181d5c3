// Adaptive routing (AR): the per-packet output choice among the ports of an AR group
// (docs/routing.md, docs/domain.md §4 "Adaptive routing (AR)"). SystemC-free; the cycle switch
// (models/cycle/ib_switch) and the TLM switch (tlm/ib_switch_tlm) call it for every packet (TLM:
// every transaction) whose LFT port is in the group of its destination.
//
// The rule, for a packet needing `need_blocks` credits, LFT port L, and per candidate port its
// queued blocks (packets routed to it, not yet through the crossbar) and free credits on the
// packet's output VL:
//  1. L not in the group (a down route): L.
//  2. L's queued blocks <= threshold and L has the credits: L (AR leaves a quiet LFT port alone,
//     so an idle fabric routes exactly as the LFT does).
//  3. Otherwise, among the candidates that have the credits (all candidates if none has), the
//     least load = queued blocks - free credits (blocks waiting here plus blocks held by the
//     next switch, the credit limits of a group being equal); ties go to L if it is among
//     them, else to the (tie mod n)-th of the n tied ports in port order, `tie` being a
//     deterministic draw from the run seed (ar_tie_draw).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

/// One port of an AR group as the switch sees it when the packet's header arrives.
struct ar_candidate {
    uint8_t port = 0;
    uint32_t queued_blocks = 0;  ///< 64 B blocks queued for this output (not yet crossed)
    uint32_t free_credits = 0;   ///< credits (64 B blocks) available on the packet's output VL
};

/// The output port for a packet (rule above). `c[0..n)` are the group's ports in port order.
[[nodiscard]] uint8_t ar_choose(uint8_t lft_port, const ar_candidate* c, std::size_t n,
                                uint32_t need_blocks, uint32_t threshold_blocks, uint64_t tie);

/// Fast link fault recovery (SHIELD's FLFR, docs/routing.md 'Link faults'): the LFT port is down
/// (or, after a reroute, no longer leads to the destination), so the switch picks among the
/// other ports of the group c[0..n): rule 3 above without an LFT port to prefer. With n == 0
/// (no alternative) the LFT port, into the loss.
[[nodiscard]] uint8_t ar_choose_alternative(uint8_t lft_port, const ar_candidate* c, std::size_t n,
                                            uint32_t need_blocks, uint64_t tie);

/// The tie-break draw of decision number `decision` of switch `sw` in a run seeded `seed`
/// (one SplitMix64 step from seed * 0xBF58476D1CE4E5B9 + (sw << 40) + decision): same seed,
/// same choices.
[[nodiscard]] uint64_t ar_tie_draw(uint64_t seed, uint32_t sw, uint64_t decision);

}  // namespace ndr::golden
