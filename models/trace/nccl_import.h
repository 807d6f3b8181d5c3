// Import of NCCL_DEBUG=INFO logs (docs/domain.md §12.1) into a trace: INIT lines give communicator
// membership, COLL lines give one op record each. Mapping rules: docs/trace_format.md,
// "Importing NCCL logs".
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace {

struct nccl_import {
    trace t;                            ///< not yet validated: pass it through parse_trace
    std::vector<std::string> comments;  ///< provenance lines for the written file (rank map)
    uint64_t coll_lines = 0;            ///< COLL lines imported (= op records)
    uint64_t init_lines = 0;            ///< INIT lines read (repeats included)
    uint64_t skipped = 0;               ///< non-blank lines that are neither COLL nor INIT
    uint64_t unrecognised = 0;          ///< of those, lines without an `NCCL <LEVEL>` marker
};

/// Reads the log; throws trace_error(`FILE:LINE: FIELD: REASON`) for a malformed COLL or INIT
/// line, a COLL line of a communicator without INIT lines, an unsupported operation, datatype
/// or reduction, conflicting INIT lines, or a communicator whose ranks are not all present.
nccl_import import_nccl_log(std::istream& in, const std::string& path);
nccl_import import_nccl_log(const std::string& path);

}  // namespace ndr::trace
