// Names shared by traces, collective schedules and reports: operations, algorithms, data types
// and reduction operators (NCCL enums, docs/domain.md §12.1). SystemC-free.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ndr::coll {

enum class op_kind : uint8_t {
    allreduce,
    reduce_scatter,
    allgather,
    alltoall,
    broadcast,
    reduce,
    barrier,
    send,
    recv,
    rdma_write,
    rdma_read,
};

/// Collective algorithms; names, the ops each runs and where it runs are in ALGORITHMS below.
enum class algo_kind : uint8_t {
    auto_,
    ring,
    tree,
    rhd,
    pairwise,
    direct,
    sharp,
    nvls,
    rd,
    pat,
    collnet_direct,
    collnet_chain,
    nvls_tree,
    p2p
};

/// How `auto` picks a host algorithm (choose_algo, schedule.h). host.stack chooses it
/// (config/keys/host_keys.h): plain (none) the model's NCCL-like defaults; nccl NCCL's own
/// choices where they differ (alltoall as grouped send/recv, algo p2p); mpich MPICH's
/// allreduce selection.
enum class auto_rule : uint8_t { plain, nccl, mpich };

enum class dtype : uint8_t {
    int8,
    uint8,
    int32,
    uint32,
    int64,
    uint64,
    fp16,
    fp32,
    fp64,
    bf16,
    fp8e4m3,
    fp8e5m2,
    int16,
    uint16
};
enum class redop : uint8_t { sum, prod, max, min, avg };

/// A set of op_kinds, one bit per enumerator.
using op_set = uint16_t;
constexpr op_set op_bit(op_kind k) {
    return static_cast<op_set>(1U << static_cast<unsigned>(k));
}
inline constexpr op_set ALL_OPS = static_cast<op_set>(op_bit(op_kind::rdma_read) * 2 - 1);

/// Where an algorithm runs.
enum class algo_class : uint8_t {
    automatic,     ///< `auto`: choose_algo (schedule.h) resolves it to a host algorithm
    host,          ///< a transfer schedule the hosts run (build_schedule, schedule.h)
    in_network,    ///< reduced in the switches' aggregation nodes; falls back to `auto` where
                   ///< it cannot run (docs/architecture.md "SHARP in-network reduction")
    hierarchical,  ///< NCCL's two-level algorithms: a phase inside every node (NVLink or NVLS),
                   ///< one across the nodes (SHARP per rail or a tree), one inside again
                   ///< (testbench/host/replay_hier.cpp, docs/architecture.md "CollNet")
};

/// One collective algorithm.
struct algo_info {
    algo_kind kind;
    std::string_view name;  ///< as traces, `ndrsim gen --algo` and reports spell it
    algo_class where;
    op_set ops;  ///< the ops it runs
    std::string_view summary;
};

/// THE list of algorithms, in algo_kind order: name(), parse_algo(), algo_names(), the loader's
/// and the CLI's "allowed:" lists and the op checks of build_schedule and of SHARP all read it.
/// docs/architecture.md "Collective algorithms", docs/trace_format.md (`algo`) and docs/cli.md
/// (`--algo`) list the same rows (tests/collective/algo_table_test.cpp).
inline constexpr algo_info ALGORITHMS[] = {
    {algo_kind::auto_, "auto", algo_class::automatic, ALL_OPS,
     "chosen by op, size and rank count (choose_algo)"},
    {algo_kind::ring, "ring", algo_class::host,
     op_bit(op_kind::allreduce) | op_bit(op_kind::reduce_scatter) | op_bit(op_kind::allgather) |
         op_bit(op_kind::broadcast) | op_bit(op_kind::reduce),
     "NCCL ring, pipelined by chunks; chain broadcast and reduce"},
    {algo_kind::tree, "tree", algo_class::host,
     op_bit(op_kind::allreduce) | op_bit(op_kind::broadcast) | op_bit(op_kind::reduce),
     "NCCL double binary tree allreduce; binomial broadcast and reduce"},
    {algo_kind::rhd, "rhd", algo_class::host,
     op_bit(op_kind::allreduce) | op_bit(op_kind::reduce_scatter) | op_bit(op_kind::allgather) |
         op_bit(op_kind::barrier),
     "recursive halving/doubling (Rabenseifner allreduce); dissemination barrier"},
    {algo_kind::pairwise, "pairwise", algo_class::host, op_bit(op_kind::alltoall),
     "pairwise exchange, one peer in flight per rank (MPI)"},
    {algo_kind::direct, "direct", algo_class::host,
     op_bit(op_kind::send) | op_bit(op_kind::recv) | op_bit(op_kind::rdma_write) |
         op_bit(op_kind::rdma_read),
     "one point-to-point transfer, never chunked"},
    {algo_kind::sharp, "sharp", algo_class::in_network,
     op_bit(op_kind::allreduce) | op_bit(op_kind::reduce) | op_bit(op_kind::broadcast) |
         op_bit(op_kind::barrier),
     "SHARP in-network reduction in the switches"},
    {algo_kind::nvls, "nvls", algo_class::in_network, op_bit(op_kind::allreduce),
     "NVLink SHARP: NVSwitch reduction in one node; across nodes with SHARP (nccl.collnet)"},
    {algo_kind::rd, "rd", algo_class::host, op_bit(op_kind::allreduce),
     "recursive doubling allreduce (MPICH short messages): log2 n whole-buffer exchanges"},
    {algo_kind::pat, "pat", algo_class::host,
     op_bit(op_kind::allgather) | op_bit(op_kind::reduce_scatter),
     "NCCL PAT (Parallel Aggregated Trees): a binomial tree per block, one GPU per node"},
    {algo_kind::collnet_direct, "collnet_direct", algo_class::hierarchical,
     op_bit(op_kind::allreduce),
     "NCCL CollNet Direct: NVLink reduce-scatter to every GPU, SHARP per rail, NVLink allgather"},
    {algo_kind::collnet_chain, "collnet_chain", algo_class::hierarchical,
     op_bit(op_kind::allreduce),
     "NCCL CollNet Chain: NVLink chain up to the rail's GPU, SHARP across, chain back down"},
    {algo_kind::nvls_tree, "nvls_tree", algo_class::hierarchical, op_bit(op_kind::allreduce),
     "NCCL NVLSTree: NVLS reduce-scatter, a double binary tree per rail, NVLS multicast"},
    {algo_kind::p2p, "p2p", algo_class::host, op_bit(op_kind::alltoall),
     "NCCL grouped send/recv: every peer in flight, batches of 8 peers on p2p channels"},
};

/// The row of `k`; nullptr for a value outside the enum.
const algo_info* find_algo(algo_kind k);
/// True if `algo` runs `op` (auto: every op). Whether a host algorithm can build a schedule is
/// algo_supported (schedule.h); whether SHARP can take a given dtype, redop or tree is decided
/// when the collective starts.
bool algo_runs(algo_kind algo, op_kind op);
/// Every algorithm name, in table order, joined by ", ": `auto, ring, tree, ...`.
const std::string& algo_names();

/// Lowercase enumerator names ("allreduce", "reduce_scatter", ...; algo_kind::auto_ is
/// "auto"); "?" for a value outside the enum. parse_* accept exactly these names.
std::string_view name(op_kind k);
std::string_view name(algo_kind k);
std::string_view name(dtype t);
std::string_view name(redop r);
std::optional<op_kind> parse_op(std::string_view s);
std::optional<algo_kind> parse_algo(std::string_view s);  ///< "auto" -> auto_
std::optional<dtype> parse_dtype(std::string_view s);
std::optional<redop> parse_redop(std::string_view s);
uint32_t dtype_bytes(dtype t);  ///< element size in bytes (fp8: 1, fp16/bf16: 2, ...)
/// NCCL's numeric enums (ncclDataType_t 0..11, ncclRedOp_t 0..4), docs/domain.md §12.1.
std::optional<dtype> dtype_from_nccl(int v);
std::optional<redop> redop_from_nccl(int v);
/// Inverse of dtype_from_nccl; nullopt for int16/uint16 (no NCCL number).
std::optional<int> dtype_to_nccl(dtype t);
/// Inverse of redop_from_nccl (every redop has an NCCL number).
int redop_to_nccl(redop r);

/// nccl-tests busbw factor (docs/domain.md §9): busbw = algbw * factor. allreduce 2(n-1)/n, with
/// in-network reduction (algo sharp) (n-1)/(n+1); reduce_scatter, allgather, alltoall
/// (n-1)/n; broadcast, reduce 1; barrier, send, recv, rdma_write, rdma_read 1 (no nccl-tests
/// definition: algbw is reported as is). nranks 0 gives 0.
double busbw_factor(op_kind op, algo_kind algo, uint32_t nranks);

}  // namespace ndr::coll
