// The contract between `ndrsim verify` and one block's RTL check (issue #6): what a check is
// given, and what it reports. Every block (rtl/<block>) has one check function of type check_fn,
// registered by name in the verify registry; `switch` is the check of rtl/ib_switch_core.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ndr::verify {

/// What `ndrsim verify BLOCK|switch [--seed N] [--cycles N] [--wave FILE.fst]` passes to a check.
struct check_options {
    std::uint64_t seed = 1;
    std::uint64_t cycles = 20000;  ///< bound on the cycles of stimulus
    std::string wave_path;         ///< empty: no waveform; otherwise an FST file GTKWave opens
    std::string fault;  ///< empty: the real RTL; otherwise the name of a fault-injected build
};

/// The first disagreement between the RTL and its reference.
struct mismatch {
    std::uint64_t cycle = 0;
    int port = -1;     ///< -1 when the compared item has no port
    int vl = -1;       ///< -1 when the compared item has no VL
    std::string what;  ///< the compared signal or field, e.g. "gnt", "fccl", "payload"
    std::string expected;
    std::string got;
};

/// Verilator coverage of the run (--coverage points of the block's model).
struct coverage_summary {
    std::uint64_t points = 0;
    std::uint64_t hit = 0;
};

struct check_result {
    std::string block;
    std::uint64_t cycles = 0;       ///< cycles simulated
    std::uint64_t comparisons = 0;  ///< individual comparisons made
    std::optional<mismatch> first_mismatch;
    coverage_summary coverage;
    [[nodiscard]] bool ok() const { return !first_mismatch.has_value(); }
};

using check_fn = check_result (*)(const check_options&);

}  // namespace ndr::verify
