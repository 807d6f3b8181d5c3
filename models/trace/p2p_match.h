// Pairing of imported point-to-point records by (source, destination, tag), shared by the
// importers of formats that match messages MPI-style (Chakra, GOAL).
#pragma once
#include <cstdint>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace {

/// Gives every send/recv of `records` (communicator 0 = every rank in rank order, the peer's
/// global rank in `root`) its seq: the k-th send of (src, dst, tag) in record order and the
/// k-th recv of it share one seq, `first_seq` + the pair's index, pairs numbered in order of
/// first appearance (sends before receives). `tags[i]` is the tag of records[i]. A send or recv
/// left without partner gets a seq of its own (the trace loader then names it).
void pair_point_to_point(std::vector<op_record>& records, const std::vector<uint64_t>& tags,
                         uint64_t first_seq);

}  // namespace ndr::trace
