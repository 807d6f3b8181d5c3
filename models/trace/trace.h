// Collective-communication traces: JSON Lines, one record per line (docs/trace_format.md).
// Loading validates everything and reports the first problem as `FILE:LINE: FIELD: REASON`.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "collective/coll_types.h"

namespace ndr::trace {

struct trace_error : std::runtime_error {
    explicit trace_error(const std::string& what) : std::runtime_error(what) {}
};

struct communicator {
    uint32_t id = 0;
    std::vector<uint32_t> ranks;  ///< global ranks (= hosts), in communicator rank order
};

/// One record of a rank's program, in file order per rank.
struct op_record {
    uint32_t line = 0;                ///< line in the file (for messages)
    uint32_t id = 0;                  ///< unique per rank (defaults to the per-rank index)
    uint32_t rank = 0;                ///< global rank
    bool compute = false;             ///< a compute record: busy for `duration_ns`
    uint64_t duration_ns = 0;         ///< compute records
    uint32_t comm = 0;
    uint64_t seq = 0;                 ///< same (comm, seq) = the same collective on all members
    coll::op_kind op = coll::op_kind::allreduce;
    uint64_t count = 0;               ///< elements, as passed to the API (NCCL semantics)
    coll::dtype dt = coll::dtype::fp32;
    coll::redop rop = coll::redop::sum;
    uint32_t root = 0;                ///< root (broadcast/reduce) or peer (send/recv/rdma_*)
    coll::algo_kind algo = coll::algo_kind::auto_;
    std::vector<uint32_t> deps;       ///< ids of this rank's records that must finish first;
                                      ///< empty = the previous record of this rank
    uint64_t gap_ns = 0;              ///< idle time after the deps finish, before issue
    std::optional<uint64_t> issue_ns; ///< absolute issue time (instead of deps + gap)
};

/// The members' view of one collective: the records sharing (comm, seq).
struct collective_instance {
    uint32_t comm = 0;
    uint64_t seq = 0;
    coll::op_kind op = coll::op_kind::allreduce;
    coll::algo_kind algo = coll::algo_kind::auto_;
    uint64_t bytes = 0;                  ///< S as nccl-tests defines it (see coll_params)
    uint32_t root = 0;                   ///< communicator-relative
    std::vector<uint32_t> ranks;         ///< global ranks, communicator order
    std::vector<uint32_t> records;       ///< index into trace::records, per member
};

struct trace {
    std::string path;
    uint32_t version = 1;
    uint32_t nranks = 0;                 ///< global ranks 0..nranks-1
    std::string name;
    std::vector<communicator> comms;
    std::vector<op_record> records;      ///< all records, file order
    std::vector<collective_instance> collectives;  ///< in order of first appearance
};

/// Reads and validates a trace; throws trace_error("FILE:LINE: FIELD: REASON").
trace load_trace(const std::string& path);

}  // namespace ndr::trace
