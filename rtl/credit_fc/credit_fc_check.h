// `ndrsim verify credit_fc`: rtl/credit_fc/ib_credit_fc.sv against the golden credit_sender /
// credit_receiver (models/golden/credit_fc.h), cycle by cycle (issue #6 part 3).
#pragma once

#include <cstdint>
#include <vector>

#include "verify/check_result.h"
#include "verify/model_build.h"

namespace ndr::verify {

/// What the stimulus reached, so a test can assert that the corners were exercised.
struct credit_fc_stats {
    std::vector<int> wraps;  ///< FCTBS wraps past 4096, per VL
    std::uint64_t sends = 0;
    std::uint64_t stalled_cycles = 0;  ///< send request waiting for credit (starvation)
    std::uint64_t fc_updates = 0;
    std::uint64_t fc_filtered = 0;  ///< stale updates the golden sender would reject, not sent
    std::uint64_t out_of_sync = 0;  ///< FCTBS syncs that repaired ABR after a lost packet
    std::uint64_t clamped = 0;      ///< cycles some VL advertised a clamped (2048-ahead) FCCL
};

/// Fault names of the credit_fc check (`--fault`): "drop_credit" (NDR_FAULT_CREDIT build).
/// Throws std::invalid_argument for another fault name or a wave with a fault build.
check_result check_credit_fc(const check_options& opt);
/// The same run, with its stimulus statistics, on the given build (check_credit_fc: coverage).
check_result run_credit_fc(const check_options& opt, credit_fc_stats& stats,
                           model_build build = model_build::coverage);

}  // namespace ndr::verify
