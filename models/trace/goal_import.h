// Import of GOAL schedules (the text input of SPCL's LogGOPSim and ATLAHS: `num_ranks N`,
// `rank R { ... }`, `lX: send/recv/calc ...`, `lX requires lY`, `lX irequires lY`) into a trace.
// Mapping rules: docs/trace_format.md, "GOAL schedules".
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace {

struct goal_import {
    trace t;                 ///< validated; records carry the schedule's line numbers
    uint64_t sends = 0;      ///< send operations
    uint64_t recvs = 0;      ///< recv operations
    uint64_t calcs = 0;      ///< calc operations (compute records)
    uint64_t requires_ = 0;  ///< `requires` lines
    uint64_t irequires = 0;  ///< `irequires` lines
    uint64_t cpu_nic = 0;    ///< operations with a `cpu` or `nic` qualifier (not modelled)
};

/// Reads a schedule; throws trace_error(`FILE:LINE: FIELD: REASON`) for a syntax error, an
/// undefined or duplicate label, a rank outside num_ranks or given twice, a wildcard source or
/// tag (-1: ndrsim pairs by peer and tag), a dependency cycle, or anything the trace loader
/// refuses (a send without its receive, sizes that disagree, ...).
goal_import import_goal(std::istream& in, const std::string& path);
goal_import import_goal(const std::string& path);

}  // namespace ndr::trace
