// The Perfetto/Chrome trace-event timeline of `ndrsim run` (timeline.json, docs/report.md): at
// report.timeline = collectives one track per rank with its ops and compute as slices; transfers
// adds one slice per RDMA transfer on a track of its sending rank; packets adds one counter
// track per link (utilisation, 0..1, per report.utilisation_interval).
#pragma once
#include <string>

#include "json_out.h"
#include "run_outcome.h"
#include "trace/trace.h"

namespace ndr::tb {

enum class timeline_level { off, collectives, transfers, packets };

/// The level named by report.timeline (a checked choice key).
timeline_level timeline_level_of(const std::string& name);

void write_run_timeline(json_out& w, const trace::trace& tr, const run_outcome& o,
                        timeline_level level);

}  // namespace ndr::tb
