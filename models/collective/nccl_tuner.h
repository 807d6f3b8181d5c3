// NCCL's tuner: the cost model NCCL uses to pick an algorithm and protocol per collective and
// size (NVIDIA/nccl src/graph/tuning.cc ncclTopoTuneModel and ncclTopoGetAlgoTime, src/enqueue.cc
// topoGetAlgoInfo; constants in docs/domain.md §13 "NCCL's tuner"). For every candidate
//   time = latency + bytes / (1000 * bandwidth)        [us, bytes, GB/s]
// with latency = base latency + per-hop latencies over the algorithm's steps, and bandwidth the
// bus bandwidth of the topology times the algorithm x protocol efficiency, converted to
// algorithm bandwidth; the least time wins. Candidates are the algorithms ndrsim runs: ring and
// tree (allreduce), ring (reduce_scatter, allgather, broadcast, reduce), nvls (allreduce with
// node.nvls: on one node, or across nodes with CollNet), nvls_tree (allreduce with node.nvls on
// several nodes), collnet_direct and collnet_chain (allreduce with CollNet: nccl.collnet and
// SHARP on the fabric) and pat (reduce_scatter and allgather with Simple, one rank per node,
// as ncclPatEnable allows); docs/architecture.md "NCCL's tuner". SystemC-free.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "collective/coll_types.h"
#include "collective/nccl_proto.h"

namespace ndr::coll {

enum class gpu_arch : uint8_t { volta, ampere, hopper, blackwell };

/// What NCCL's topology search would have found, from the model's configuration.
struct tuner_topology {
    uint32_t nranks = 2;
    uint32_t nnodes = 2;
    uint32_t channels = 1;     ///< ring/tree channels (graphs[a]->nChannels)
    double bw_intra_GBps = 0;  ///< bus bandwidth of one rank inside a node (nChannels x bwIntra)
    double bw_inter_GBps = 0;  ///< bus bandwidth across nodes (nChannels x bwInter)
    bool nvlink = false;       ///< the GPUs of a node talk over NVLink (else PCI)
    gpu_arch arch = gpu_arch::hopper;
    bool amd_cpu = false;  ///< AMD hosts (NCCL's llMaxBws row and net overhead)
    bool nvls = false;     ///< NVLink SHARP available (node.nvls)
    /// CollNet enabled (NCCL_COLLNET_ENABLE=1, nccl.collnet) and the fabric runs SHARP: CollNet
    /// Direct/Chain and NVLS across nodes are candidates.
    bool collnet = false;
    /// One GPU's NVLink bus bandwidth (nChannels x the NVLS and CollNet graphs' bwIntra); 0 =
    /// bw_intra_GBps.
    double bw_nvlink_GBps = 0;
    bool ll128 = true;  ///< LL128 enabled (NCCL enables it on NVLink/PCIe-switch paths)
    /// The collective may run PAT: NCCL excludes a reduce_scatter whose sum is pre-multiplied
    /// or post-divided (avg; enqueue.cc topoGetAlgoInfo).
    bool pat_redop = true;
};

/// One candidate's estimate.
struct tuner_estimate {
    algo_kind algo = algo_kind::ring;
    proto_kind proto = proto_kind::simple;
    double latency_us = 0;
    double bw_GBps = 0;  ///< algorithm bandwidth the estimate divides by
    double time_us = 0;
};

/// The estimate of one algorithm x protocol for `op` of `bytes`; nullopt if NCCL would not run
/// it (not a candidate for the op, disabled, zero bandwidth).
std::optional<tuner_estimate> tuner_time(op_kind op, algo_kind algo, proto_kind proto,
                                         uint64_t bytes, const tuner_topology& t);

/// Every candidate of `op` of `bytes`, in NCCL's order (tree, ring, collnet_direct,
/// collnet_chain, nvls, nvls_tree, pat; ll, ll128, simple).
std::vector<tuner_estimate> tuner_table(op_kind op, uint64_t bytes, const tuner_topology& t);

/// NCCL's pick: the candidate of least time (the first on a tie, as NCCL's strict <), limited
/// to `algo` and `proto` where they are not auto. nullopt when no candidate runs (an op NCCL
/// does not tune: alltoall, barrier, point-to-point).
std::optional<tuner_estimate> tuner_pick(op_kind op, uint64_t bytes, const tuner_topology& t,
                                         algo_kind algo = algo_kind::auto_,
                                         proto_kind proto = proto_kind::auto_);

}  // namespace ndr::coll
