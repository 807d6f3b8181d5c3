// NCCL's hierarchical allreduce algorithms (algo_class::hierarchical, coll_types.h): CollNet
// Direct, CollNet Chain, NVLSTree and NVLS across nodes. Each runs three phases, one after the
// other (docs/architecture.md "CollNet and NVLSTree"):
//   1. inside every node, the buffer S is reduced onto its "heads": block r of S
//      (block_range(S, dtype, G, r), G GPUs per node) ends reduced at local GPU r, the GPU
//      whose HCA is on rail r;
//   2. across the nodes, the G heads of rail r (local GPU r of every node) allreduce block r:
//      on one SHARP tree per rail (collnet_direct, collnet_chain, nvls) or on NCCL's double
//      binary tree over the nodes (nvls_tree);
//   3. inside every node, block r goes from head r back to every GPU.
// Phases 1 and 3 of collnet_* and phase 2 of nvls_tree are host schedules built here (NVLink
// transfers and the inter-node tree); phases 1 and 3 of nvls* are NVLS flows (nvls_flows) and
// phase 2 of collnet_* and nvls is SHARP, both run by the replay (testbench/host/replay_hier.cpp).
// Data movement as NCCL's kernels (src/device/all_reduce.h, runCollNetDirect / runCollNetChain /
// runNvls / runNvlsTree, NVIDIA/nccl 5067397):
//   collnet_direct  phase 1: every GPU sends block r to GPU r (reduce), r != itself; phase 3:
//                   GPU r sends its reduced block r to every other GPU of its node.
//   collnet_chain   phase 1: block r is reduced along the chain r+1, r+2, ..., r+G-1, r (mod G)
//                   of the node's GPUs, ending at its head r, pipelined by chunks; phase 3: it
//                   goes down the chain the other way (r, r+G-1, ..., r+1), pipelined.
//   nvls_tree       phase 2: the heads of rail r run tree allreduce (dtree_node over the nodes,
//                   in node order) of block r, pipelined by chunks.
// SystemC-free.
#pragma once
#include <cstdint>
#include <vector>

#include "collective/coll_types.h"
#include "collective/schedule.h"

namespace ndr::coll {

/// Where a hierarchical allreduce runs: `groups[k][g]` is the communicator rank of local GPU g
/// of node k (coll_params::node_groups order); every node has the same G >= 2 GPUs and there are
/// at least 2 nodes.
struct hier_layout {
    std::vector<std::vector<uint32_t>> groups;
    uint32_t nranks() const;
    uint32_t gpus() const { return groups.empty() ? 0 : static_cast<uint32_t>(groups[0].size()); }
    uint32_t nodes() const { return static_cast<uint32_t>(groups.size()); }
};

/// The phase-1 (up = true) or phase-3 (up = false) schedule of collnet_direct or collnet_chain:
/// NVLink transfers inside the nodes, over communicator ranks. `p` gives bytes, dtype_bytes and
/// chunk_bytes. Throws std::invalid_argument for another algo or a layout that does not fit.
schedule build_collnet_intra(algo_kind algo, bool up, const coll_params& p, const hier_layout& l);

/// Phase 2 of nvls_tree: every rail's double binary tree allreduce of its block, over
/// communicator ranks, the rails' transfers one after the other in the list.
schedule build_rail_trees(const coll_params& p, const hier_layout& l);

/// One GPU's NVLS flows of phase 1 (reduce-scatter: multimem.ld_reduce) or 3 (multicast:
/// multimem.st), in bytes per direction. Reduce-scatter: every GPU's egress carries its whole
/// buffer S (the switch reads every block from every GPU), its ingress its reduced block r;
/// multicast: its egress block r, its ingress every block (S).
struct nvls_phase_bytes {
    uint64_t egress = 0;
    uint64_t ingress = 0;
};
nvls_phase_bytes nvls_flows(bool reduce_scatter, uint64_t bytes, uint32_t dtype_bytes,
                            uint32_t gpus, uint32_t gpu);

}  // namespace ndr::coll
