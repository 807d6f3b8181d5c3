// `ndrsim verify switch_alloc`: rtl/switch_alloc/ibs_switch_alloc.sv against the golden
// allocation rule that the cycle model runs (models/golden/switch_alloc.h), cycle by cycle
// (issue #6 part 3).
#pragma once

#include <cstdint>

#include "verify/check_result.h"
#include "verify/model_build.h"

namespace ndr::verify {

/// What the stimulus reached, so a test can assert that the corners were exercised.
struct switch_alloc_stats {
    std::uint64_t matches = 0;
    std::uint64_t late_matches = 0;  ///< iSLIP matches after the first iteration
    std::uint64_t full_cycles = 0;   ///< cycles with a perfect matching of all ports
    std::uint64_t islip_cycles = 0;  ///< cycles in iSLIP mode (the others: input-first)
};

/// Fault names of the switch_alloc check (`--fault`): "freeze_ptr" (NDR_FAULT_ARB build: the
/// round-robin pointers never move). Throws std::invalid_argument for another name.
check_result check_switch_alloc(const check_options& opt);
/// The same run, with its stimulus statistics, on the given build (check_switch_alloc: coverage).
check_result run_switch_alloc(const check_options& opt, switch_alloc_stats& stats,
                              model_build build = model_build::coverage);

}  // namespace ndr::verify
