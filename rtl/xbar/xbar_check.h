// `ndrsim verify xbar`: rtl/xbar/ibs_xbar.sv, driven by the Verilated allocator
// (rtl/switch_alloc/ibs_switch_alloc.sv), against the trivial reference "every beat arrives at
// the matched output unchanged, nothing else moves" (issue #6 part 3).
#pragma once

#include <cstdint>

#include "verify/check_result.h"
#include "verify/model_build.h"

namespace ndr::verify {

/// What the stimulus reached, so a test can assert that the corners were exercised.
struct xbar_stats {
    std::uint64_t beats = 0;    ///< beats moved
    std::uint64_t stalls = 0;   ///< matched, valid, not ready (output back-pressure)
    std::uint64_t bubbles = 0;  ///< matched, not valid
};

/// Fault names of the xbar check (`--fault`): "stuck_bit" (NDR_FAULT_XBAR build: bit 0 of output
/// 0's data stuck at 0). Throws std::invalid_argument for another name. The waveform (--wave)
/// holds the crossbar only.
check_result check_xbar(const check_options& opt);
/// The same run, with its stimulus statistics, on the given build (check_xbar: coverage).
check_result run_xbar(const check_options& opt, xbar_stats& stats,
                      model_build build = model_build::coverage);

}  // namespace ndr::verify
