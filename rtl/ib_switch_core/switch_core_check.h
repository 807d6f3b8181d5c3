// `ndrsim verify switch`: the Verilated rtl/ib_switch_core against the TLM scoreboard
// (tlm/scoreboard.h). Stimulus: a directed packet list, then uniform random traffic with VL and
// size mixes, random gaps between input beats, random output back-pressure and downstream credit
// starvation (switch_core_bench.h). The scoreboard checks what leaves (payload-exact identity
// fields, order per (input, output, VL), nothing lost or duplicated); the bench checks framing,
// every payload word and the credit invariants, and after the drain the credit state of the
// idle core. Registered by the verify CLI as `switch`.
#pragma once
#include <vector>

#include "core_packet.h"
#include "verify/check_result.h"

namespace ndr::verify {

/// The check of `ndrsim verify switch`. options.cycles bounds the stimulus (a bounded drain
/// follows); options.fault selects a fault-injected build ("drop_credit"); an unknown fault
/// name throws std::invalid_argument naming the known ones, an unwritable options.wave_path
/// std::runtime_error.
check_result check_switch_core(const check_options& options);

/// The same check for a given packet list only: every packet queued at cycle 0 at its source
/// and sent in list order per (source, VL); the check assigns ids, flow sequence numbers and the
/// VL (SL mod VLs), the list gives src, dst, sl, blocks and wire_bytes. Random back-pressure and
/// starvation come from options.seed. Throws std::invalid_argument for a packet that does not
/// fit the core (port beyond it, 0 blocks, more blocks than the input buffer).
check_result check_switch_core_packets(const std::vector<core_packet>& packets,
                                       const check_options& options);

}  // namespace ndr::verify
