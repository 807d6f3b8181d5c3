// Trace writer: a trace as JSON Lines (docs/trace_format.md), the inverse of load_trace.
#pragma once
#include <string>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace {

/// The file text: `# ` + each comment line, then the header, the comm records and the records
/// in order. Fields at their default (algo auto, gap_ns 0, id = the record's index on its rank,
/// deps empty) are left out; load_trace(to_jsonl(t)) gives back t's header, comms and records.
std::string to_jsonl(const trace& t, const std::vector<std::string>& comments = {});

/// The records of to_jsonl without the comments: the header, the comm records and the records,
/// one JSON object text each.
std::vector<std::string> to_json_records(const trace& t);

/// Writes to_jsonl(t, comments) to `path`; throws trace_error naming the path on failure.
void write_trace(const trace& t, const std::string& path,
                 const std::vector<std::string>& comments = {});

}  // namespace ndr::trace
