// Comparison of two loaded traces, for the round-trip check of the trace and NCCL fuzz targets:
// to_jsonl() of an accepted trace must load back to the same trace (trace_writer.h).
#pragma once
#include <fmt/format.h>

#include <string>

#include "trace/trace.h"

namespace ndr::fuzz {

/// "" if `a` and `b` hold the same header, communicators, records and collectives (source lines
/// and paths aside, which the writer does not keep), else the first difference.
inline std::string trace_difference(const trace::trace& a, const trace::trace& b) {
    if (a.version != b.version || a.nranks != b.nranks || a.name != b.name) return "header";
    if (a.comms.size() != b.comms.size()) return "number of communicators";
    for (std::size_t i = 0; i < a.comms.size(); ++i) {
        if (a.comms[i].id != b.comms[i].id || a.comms[i].ranks != b.comms[i].ranks)
            return fmt::format("communicator {}", i);
    }
    if (a.records.size() != b.records.size()) return "number of records";
    for (std::size_t i = 0; i < a.records.size(); ++i) {
        const trace::op_record& x = a.records[i];
        const trace::op_record& y = b.records[i];
        if (x.id != y.id || x.rank != y.rank || x.compute != y.compute ||
            x.duration_ns != y.duration_ns || x.comm != y.comm || x.seq != y.seq || x.op != y.op ||
            x.count != y.count || x.dt != y.dt || x.rop != y.rop || x.root != y.root ||
            x.algo != y.algo || x.deps != y.deps || x.gap_ns != y.gap_ns ||
            x.issue_ns != y.issue_ns) {
            return fmt::format("record {} (line {})", i, x.line);
        }
    }
    if (a.collectives.size() != b.collectives.size()) return "number of collectives";
    for (std::size_t i = 0; i < a.collectives.size(); ++i) {
        const trace::collective_instance& x = a.collectives[i];
        const trace::collective_instance& y = b.collectives[i];
        if (x.comm != y.comm || x.seq != y.seq || x.op != y.op || x.algo != y.algo ||
            x.bytes != y.bytes || x.root != y.root || x.ranks != y.ranks ||
            x.records != y.records) {
            return fmt::format("collective {} (line {})", i, x.line);
        }
    }
    return {};
}

}  // namespace ndr::fuzz
