// Which Verilated build of a block a check runs (rtl/<block>/block.cmake) when no fault is set.
#pragma once

namespace ndr::verify {

enum class model_build {
    /// V<module>_cov: --coverage and --trace-fst; what `ndrsim verify` runs (coverage reported,
    /// --wave available).
    coverage,
    /// V<module>: neither; about 7x faster, for long equivalence runs (coverage 0/0, no --wave).
    plain,
};

}  // namespace ndr::verify
