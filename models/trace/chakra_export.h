// Export of a trace as Chakra execution traces, one `<PREFIX>.<rank>.et` per rank, for
// ASTRA-sim's feeder. Mapping rules: docs/trace_format.md, "Chakra execution traces".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace {

struct chakra_export {
    std::vector<std::string> files;  ///< per rank: the .et file's bytes (uncompressed)
    uint64_t nodes = 0;              ///< Node messages, all ranks
    /// Records whose gap_ns or nonzero issue_ns has no Chakra equivalent (dropped, counted).
    uint64_t dropped_gaps = 0;
    /// Compute records whose duration_ns is not a whole number of microseconds (rounded to
    /// the nearest; Chakra's duration_micros).
    uint64_t rounded_durations = 0;
};

/// Maps a loaded trace; throws trace_error(`TRACE:LINE: op: REASON`) for an rdma_write or
/// rdma_read record (no Chakra node type) and for a count too large for Chakra's int64 sizes.
chakra_export to_chakra(const trace& t);

/// to_chakra(t), written to `<prefix>.<rank>.et`; throws trace_error naming a file that cannot
/// be written. Returns the result with the file names in place of the bytes.
chakra_export write_chakra(const trace& t, const std::string& prefix);

}  // namespace ndr::trace
