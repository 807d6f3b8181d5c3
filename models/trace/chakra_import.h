// Import of MLCommons Chakra execution traces (one `<PREFIX>.<rank>.et` per rank) into a trace.
// Mapping rules: docs/trace_format.md, "Chakra execution traces".
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collective/coll_types.h"
#include "trace/trace.h"

namespace ndr::trace {

struct chakra_import_options {
    /// Ranks to read (files PREFIX.0.et .. PREFIX.(N-1).et); absent: every PREFIX.<r>.et of the
    /// directory, which must then be 0..max without gaps.
    std::optional<uint32_t> ranks;
    /// Element type of the records: Chakra gives sizes in bytes only.
    coll::dtype dt = coll::dtype::fp32;
};

struct chakra_import {
    trace t;                            ///< validated
    std::vector<std::string> comments;  ///< provenance lines for the written file
    uint64_t nodes = 0;                 ///< Node messages read, all ranks
    uint64_t collectives = 0;           ///< COMM_COLL nodes mapped to collective records
    uint64_t p2p = 0;                   ///< COMM_SEND/COMM_RECV nodes mapped to send/recv
    uint64_t computes = 0;              ///< COMP nodes mapped to compute records
    /// Nodes without a trace record, by kind (`MEM_LOAD_NODE`, `COMM_COLL_NODE GATHER`, ...):
    /// their dependencies are passed on to the nodes that depend on them.
    std::map<std::string, uint64_t> unmapped;
    /// Attributes the mapping does not use, by name (e.g. is_cpu_op, num_ops).
    std::map<std::string, uint64_t> ignored_attrs;
};

/// One rank's file: its name (for messages) and its bytes (gzipped or not).
struct chakra_file {
    std::string path;
    std::string bytes;
};

/// The rank files of `prefix` (`<prefix>.<rank>.et`): with `ranks`, exactly 0..ranks-1, else
/// every such file of the directory. Throws trace_error naming a missing file.
std::vector<std::string> chakra_rank_files(const std::string& prefix,
                                           std::optional<uint32_t> ranks);

/// Maps the files (file r = rank r); throws trace_error(`FILE: node ID: FIELD: REASON` or
/// `FILE: message K (byte B): FIELD: REASON`), one line, for anything that is not a Chakra
/// trace ndrsim can replay, including what the trace loader refuses (ranks that disagree on a
/// collective, a send without its receive, dependency cycles, ...).
chakra_import import_chakra(const std::vector<chakra_file>& files,
                            const chakra_import_options& opts = {});
/// Reads chakra_rank_files(prefix, opts.ranks) and imports them.
chakra_import import_chakra(const std::string& prefix, const chakra_import_options& opts = {});

}  // namespace ndr::trace
