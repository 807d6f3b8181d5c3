// `ndrsim nccl-tests`: nccl-tests' own stdout table (src/common.cu of NVIDIA/nccl-tests 2.13:
// the `#` header, one row per size with out-of-place and in-place time, algbw, busbw, #wrong,
// and the closing `# Out of bounds values` and `# Avg bus bandwidth` lines), so that a model
// run diffs line by line against a cluster's log (docs/nccl_tests.md).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ndr::tb {

/// What the header of the table says about the run (nccl-tests' flags and the ranks).
struct nccl_tests_header {
    uint32_t gpus_per_node = 1;  ///< -g (nGpus: one process per node)
    uint32_t nodes = 1;          ///< --nodes (processes)
    uint64_t min_bytes = 0;      ///< -b
    uint64_t max_bytes = 0;      ///< -e
    uint64_t step = 0;           ///< -f when factor > 1, else -i
    bool step_is_factor = true;
    uint32_t warmup_iters = 0;  ///< -w
    uint32_t iters = 0;         ///< -n
    uint32_t check = 1;         ///< -c (validation)
    std::string device;         ///< device name on the `#  Rank` lines
};

/// One pass (out-of-place or in-place) of one size: the mean time of the timed iterations.
struct nccl_tests_pass {
    double time_us = 0.0;
    std::optional<uint64_t> wrong;  ///< nullopt: the model did not check the data (N/A)
};

struct nccl_tests_row {
    uint64_t bytes = 0;  ///< the size column (nccl-tests' S)
    uint64_t count = 0;  ///< elements as passed to the API
    std::string type;    ///< nccl-tests' type name (float, half, ...)
    std::string redop;   ///< sum ... or none
    int64_t root = -1;   ///< -1 for collectives without a root
    double busbw_factor = 1.0;
    nccl_tests_pass out_of_place, in_place;
};

/// algbw in GB/s (10^9 B/s) of `bytes` in `time_us`, as nccl-tests computes it; 0 for time 0.
double nccl_tests_algbw(uint64_t bytes, double time_us);

/// The `# nThread ...` line, the `#  Rank` device lines and the two-line column header.
std::string nccl_tests_header_text(const nccl_tests_header& h);
/// One row: `%12li  %12li  %8s  %6s  %6s` then per pass `  %7s  %6.2f  %6.2f  %5g` (or N/A).
std::string nccl_tests_row_text(const nccl_tests_row& r);
/// `# Out of bounds values : N OK|FAILED` and `# Avg bus bandwidth    : X`: X is the mean busbw
/// of every pass of every row (nccl-tests adds both passes' busbw to its average).
std::string nccl_tests_footer_text(const std::vector<nccl_tests_row>& rows);

}  // namespace ndr::tb
