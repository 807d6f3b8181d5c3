// `ndrsim verify vl_arb`: rtl/vl_arb/ibs_vl_arb.sv against the golden vl_arbiter
// (models/golden/vl_arb.h), cycle by cycle (issue #6 part 3).
#pragma once

#include <cstdint>
#include <vector>

#include "verify/check_result.h"
#include "verify/model_build.h"

namespace ndr::verify {

/// What the stimulus reached, so a test can assert that the corners were exercised.
struct vl_arb_stats {
    std::uint64_t grants = 0;
    std::uint64_t stalls = 0;           ///< cycles a grant was held by back-pressure
    std::uint64_t new_turns = 0;        ///< commits that moved a table's pointer
    std::uint64_t lost_weight = 0;      ///< new turns while the previous entry still had bytes left
    std::uint64_t overshoots = 0;       ///< commits leaving a turn at <= 0 bytes
    std::uint64_t reloads = 0;          ///< tables loaded through the config port
    std::uint64_t high_grants = 0;      ///< grants from the high-priority table
    std::uint64_t limit_preempts = 0;   ///< low granted because LimitOfHighPriority was reached
    std::vector<std::uint64_t> per_vl;  ///< grants per VL
};

/// Fault names of the vl_arb check (`--fault`): "mis_rotate" (NDR_FAULT_ARB build: a new turn
/// leaves the pointer in place). Throws std::invalid_argument for another name.
check_result check_vl_arb(const check_options& opt);
/// The same run, with its stimulus statistics, on the given build (check_vl_arb: coverage).
check_result run_vl_arb(const check_options& opt, vl_arb_stats& stats,
                        model_build build = model_build::coverage);

}  // namespace ndr::verify
