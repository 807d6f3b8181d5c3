// Import of NCCL_DEBUG=INFO logs (docs/domain.md §12.1) into a trace: INIT lines give communicator
// membership and the node placement (host name, nvmlDev/cudaDev), COLL lines give one op record
// each. Mapping rules: docs/trace_format.md, "Importing NCCL logs".
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace {

struct nccl_import {
    trace t;                            ///< validated; records carry their log line
    std::vector<std::string> comments;  ///< provenance lines for the written file (rank map)
    uint64_t coll_lines = 0;            ///< COLL lines imported (= op records)
    uint64_t init_lines = 0;            ///< INIT lines read (repeats included)
    uint64_t skipped = 0;               ///< non-blank lines that are neither COLL nor INIT
    uint64_t unrecognised = 0;          ///< of those, lines without an `NCCL <LEVEL>` marker
    /// No INIT line in the log: an excerpt; every rank of a communicator replays the sequence
    /// its lines show (nccl_import.cpp, import_excerpt).
    bool excerpt = false;
    uint64_t torn = 0;         ///< excerpt: COLL lines with a field missing, skipped
    uint64_t p2p_skipped = 0;  ///< excerpt: Send/Recv lines, skipped (their rank is unknown)
    /// Header placement written (some host holds several ranks): the nodes (hosts) and the
    /// node.gpus a replay needs (highest GPU index + 1); both 0 when no placement was written.
    uint32_t nodes = 0;
    uint32_t gpus_per_node = 0;
    /// Full log: communicators on which a rank shows an opCount twice; their ops are numbered
    /// by each rank's lines in log order instead of by opCount (nccl_import.cpp,
    /// renumber_repeated_op_counts).
    uint32_t repeated_op_count_comms = 0;
};

struct nccl_import_options {
    /// Write the header `placement` (rank -> [node, GPU]) when a host holds several ranks, and
    /// check the INIT lines' nNodes/localRanks/localRank against the hosts. false: one host
    /// per rank, as before placement existed.
    bool placement = true;
};

/// Reads the log and validates the result as a trace; throws trace_error(`LOG:LINE: FIELD:
/// REASON`, always a line of the log) for a malformed COLL or INIT line, a COLL line of a
/// communicator without INIT lines, an unsupported operation, datatype or reduction, a count
/// beyond the trace format's (2^48 elements; an alltoall's per-peer count times the ranks),
/// conflicting INIT lines, a communicator whose ranks are not all present, anything the trace
/// loader refuses (members that disagree, ...), a line over 16 MiB, or a byte-order mark that
/// does not start the file. With opts.placement also for a malformed nvmlDev, nNodes,
/// localRanks or localRank, an INIT line whose nNodes/localRanks/localRank disagree with the
/// hosts the log names, and two ranks of one host on one GPU.
nccl_import import_nccl_log(std::istream& in, const std::string& path,
                            const nccl_import_options& opts = {});
nccl_import import_nccl_log(const std::string& path, const nccl_import_options& opts = {});

}  // namespace ndr::trace
