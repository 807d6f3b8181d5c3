// NCCL logs without INIT lines (excerpts pasted into issues): docs/trace_format.md "Excerpts
// without INIT lines". Internal to models/trace (called by import_nccl_log).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace/nccl_import.h"

namespace ndr::trace::nccl_detail {

/// A log with COLL lines and no INIT line at all: an excerpt, as pasted into issues. Which rank
/// printed a line is unknown, so (docs/trace_format.md "Excerpts without INIT lines"):
///  * a view is one process's handle on a communicator (process, cudaDev, comm pointer) with the
///    `[nranks=N]` its lines print; its ops are keyed by (opCount, how often that opCount came
///    before in the view), so opCounts that repeat stay separate ops;
///  * views of the same N whose ops agree wherever their keys meet are one communicator (the
///    first such one in log order), others start a new one;
///  * every rank 0..N-1 of a communicator replays the union of its views' ops, in the order of
///    their first log line, numbered 0, 1, ... as `seq`; communicators share ranks 0..N-1 of
///    the largest;
///  * torn COLL lines (a field missing) and point-to-point lines (the peer's rank is relative
///    to a rank the excerpt does not name) are counted and skipped;
///  * with `placement`, when the excerpt shows every rank of its one communicator (one view
///    per rank, each naming its host and a distinct [cudaDev] there) and some host holds
///    several, rank r is the r-th view by (host in order of first appearance, cudaDev) and the
///    header places it on node = that host, GPU = its cudaDev.
nccl_import import_excerpt(const std::vector<std::string>& lines,
                           const std::vector<uint32_t>& coll_line_nos, const std::string& path,
                           nccl_import res, bool placement);

}  // namespace ndr::trace::nccl_detail
