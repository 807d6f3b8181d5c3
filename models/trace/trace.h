// Collective-communication traces: JSON Lines, one record per line (docs/trace_format.md).
// Loading validates everything and reports the first problem as `FILE:LINE: FIELD: REASON`.
#pragma once
#include <array>
#include <cstdint>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "collective/coll_types.h"
#include "collective/nccl_proto.h"

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
    uint32_t line = 0;         ///< line in the file (for messages)
    uint32_t id = 0;           ///< unique per rank (defaults to the per-rank index)
    uint32_t rank = 0;         ///< global rank
    bool compute = false;      ///< a compute record: busy for `duration_ns`
    uint64_t duration_ns = 0;  ///< compute records
    uint32_t comm = 0;
    uint64_t seq = 0;  ///< same (comm, seq) = the same collective on all members
    coll::op_kind op = coll::op_kind::allreduce;
    uint64_t count = 0;  ///< elements, as passed to the API (NCCL semantics)
    coll::dtype dt = coll::dtype::fp32;
    coll::redop rop = coll::redop::sum;
    uint32_t root = 0;  ///< root (broadcast/reduce) or peer (send/recv/rdma_*)
    coll::algo_kind algo = coll::algo_kind::auto_;
    coll::proto_kind proto = coll::proto_kind::auto_;  ///< NCCL protocol (nccl_proto.h)
    std::vector<uint32_t> deps;        ///< ids of this rank's records that must finish first;
                                       ///< empty = the previous record of this rank
    uint64_t gap_ns = 0;               ///< idle time after the deps finish, before issue
    std::optional<uint64_t> issue_ns;  ///< absolute issue time (instead of deps + gap)
};

/// The members' view of one collective: the records sharing (comm, seq).
/// Point-to-point records form instances too: a send/recv pair is one instance with op send,
/// ranks {sender, receiver}, records {send record, recv record} and root = the receiver's
/// communicator rank; an rdma_write/rdma_read is one instance with ranks {initiator, target},
/// records {initiator record} (the target has none) and root = the target's communicator rank.
struct collective_instance {
    uint32_t comm = 0;
    uint64_t seq = 0;
    coll::op_kind op = coll::op_kind::allreduce;
    coll::algo_kind algo = coll::algo_kind::auto_;
    coll::proto_kind proto = coll::proto_kind::auto_;
    uint64_t bytes = 0;             ///< S as nccl-tests defines it (see coll_params)
    uint32_t root = 0;              ///< communicator-relative
    std::vector<uint32_t> ranks;    ///< global ranks, communicator order
    std::vector<uint32_t> records;  ///< index into trace::records, per member
    uint32_t line = 0;              ///< line of the first record (for messages)
};

struct trace {
    std::string path;
    uint32_t version = 1;
    uint32_t nranks = 0;  ///< global ranks 0..nranks-1
    std::string name;
    /// Header `placement`: one [node, gpu] per rank (empty: rank r on node r / node.gpus, GPU
    /// r % node.gpus; checked against node.gpus by common::node_layout when the run starts).
    std::vector<std::array<uint32_t, 2>> placement;
    std::vector<communicator> comms;
    std::vector<op_record> records;                ///< all records, file order
    std::vector<collective_instance> collectives;  ///< in order of first appearance
};

/// Reads and validates a trace; throws trace_error("FILE:LINE: FIELD: REASON").
trace load_trace(const std::string& path);
/// As load_trace, from a stream; `path` is only used in messages and stored in trace::path.
trace parse_trace(std::istream& in, const std::string& path);

/// One record as a JSON object's text, with the line of the source it came from.
struct numbered_record {
    uint32_t line = 0;
    std::string json;
};
/// As parse_trace, from records that carry their own line numbers: an importer's records, each
/// numbered by the line of the foreign file it came from, so that every message names `path`
/// (that file) and those lines. Records are checked in the order given.
trace parse_records(const std::vector<numbered_record>& records, const std::string& path);

/// Largest accepted nranks (global ranks) in a header.
inline constexpr uint32_t max_ranks = 65536;
/// Largest accepted `count` (elements), 2^48.
inline constexpr uint64_t max_count = uint64_t{1} << 48;
/// Largest accepted time in ns (`duration_ns`, `gap_ns`, `issue_ns`): 10^15 ns, about 11.6 days.
inline constexpr uint64_t max_time_ns = 1'000'000'000'000'000;

/// S in bytes as nccl-tests defines it (docs/domain.md §9) for `count` elements of `dt` on a
/// communicator of `comm_size` ranks: allreduce/broadcast/reduce/alltoall/send/recv/rdma_*:
/// count * size; reduce_scatter/allgather: count * size * comm_size; barrier: 0.
uint64_t collective_bytes(coll::op_kind op, uint64_t count, coll::dtype dt, uint32_t comm_size);

/// True for records paired or addressed by `peer`: send, recv, rdma_write, rdma_read.
bool is_point_to_point(coll::op_kind op);
/// True for ops that take a `redop`: allreduce, reduce_scatter, reduce.
bool has_redop(coll::op_kind op);
/// True for ops that take a `root`: broadcast, reduce.
bool has_root(coll::op_kind op);

}  // namespace ndr::trace
