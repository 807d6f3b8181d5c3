// The check of `ndrsim verify sharp_alu` (issue #6): the Verilated rtl/sharp_alu/ibs_sharp_alu.sv
// against the golden reduction (models/golden/reduce_op.h, reduce_elementwise with count 1).
//
// Stimulus: seeded random operand pairs (sharp_alu_operands.h: specials, subnormals, signed
// zeros, overflow, cancellation) on every (op, dtype) pair the golden model supports (108),
// visited in a shuffled round-robin so a short run covers them all; random input bubbles and
// output back-pressure, in phases of 1000 cycles (the first at full rate). The run lasts exactly
// options.cycles cycles after reset: the last Stages + 2 cycles take no new operands and never
// stall the output, so every accepted beat is delivered.
//
// Compared every cycle (port and VL are -1 in a mismatch: the ALU has neither):
//   "in_ready_o"   == out_ready_i || fewer than Stages beats in flight;
//   "out_valid_o"  == the oldest beat in flight was accepted at least Stages cycles ago (the
//                     latency is exactly Stages cycles without back-pressure);
//   "res_o", "res_idx_o" of each delivered beat == golden, bit for bit, in order;
//   an RTL assertion that fires is reported as "assertion";
//   at the end, "in_flight" == 0.
// The first mismatch stops the run. `what` names the signal, op, dtype and operands, e.g.
// "res_o sum fp32 a=0x3f800000 b=0x33800000". wave_path writes an FST of the run. coverage is
// the Verilator --coverage summary of the real model (0/0 for fault builds, which are built
// without coverage).
//
// options.fault: "" = the real RTL; "rounding" = the build with NDR_FAULT_ROUNDING (float sums
// truncate instead of rounding to nearest even); "latency" = the RTL built with Stages + 1
// registers (results right, one cycle late). Any other name throws std::invalid_argument.
#pragma once

#include <string>
#include <vector>

#include "verify/check_result.h"

namespace ndr::verify {

check_result check_sharp_alu(const check_options& options);

/// The fault names check_sharp_alu accepts besides "" (the real RTL).
const std::vector<std::string>& sharp_alu_faults();

}  // namespace ndr::verify
