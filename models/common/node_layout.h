// Where the ranks of a trace run (docs/architecture.md "Node model"): rank r on GPU
// (node, gpu), GPU g of a node driving HCA g * hcas / gpus of that node (the HCA behind its PCIe
// switch), HCA k of node n being fabric host n * hcas + k (its rail k). With node.gpus = 1 and
// no placement, rank r is host r, as before nodes existed. SystemC-free, level-neutral.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ndr::common {

/// A GPU: node index and local GPU index.
struct gpu_ref {
    uint32_t node = 0;
    uint32_t gpu = 0;
};

/// Ring channels of a collective (nccl.channels): `configured`, or 0 = auto: one per GPU of a
/// node (every rail one ring each way; 1 on single-GPU hosts).
inline uint32_t ring_channel_count(uint32_t configured, uint32_t gpus) {
    return configured != 0 ? configured : (gpus == 0 ? 1 : gpus);
}

class node_layout {
public:
    /// `placement` (from the trace header; empty = the default r -> (r / gpus, r % gpus)) has
    /// one [node, gpu] per rank. hcas 0 means as many as gpus. Throws std::invalid_argument
    /// (a message naming `placement`) if an entry has gpu >= gpus, two ranks share a GPU, or
    /// the list does not have nranks entries.
    node_layout(uint32_t gpus, uint32_t hcas, uint32_t nranks,
                const std::vector<std::array<uint32_t, 2>>& placement);

    uint32_t gpus() const { return gpus_; }
    uint32_t hcas() const { return hcas_; }
    /// Nodes the ranks occupy: the highest node index + 1.
    uint32_t nodes() const { return nodes_; }
    /// Fabric hosts (HCAs) of those nodes.
    uint32_t hosts() const { return nodes_ * hcas_; }
    /// More than one GPU per node: intra-node transfers go over NVLink.
    bool multi_gpu() const { return gpus_ > 1; }
    gpu_ref of_rank(uint32_t r) const { return ranks_[r]; }
    /// HCA (rail) of local GPU g: the one behind its PCIe switch.
    uint32_t hca_of_gpu(uint32_t g) const { return g * hcas_ / gpus_; }
    /// Fabric host that carries rank r's inter-node traffic.
    uint32_t host_of_rank(uint32_t r) const {
        return ranks_[r].node * hcas_ + hca_of_gpu(ranks_[r].gpu);
    }
    /// Both ranks on one node (and, with multi_gpu(), on different GPUs: an NVLink transfer).
    bool same_node(uint32_t a, uint32_t b) const { return ranks_[a].node == ranks_[b].node; }

    /// The communicator's ranks (positions in `members`) grouped by node: nodes in the order
    /// their first member appears, each node's members by local GPU
    /// (coll::coll_params::node_groups, from which the collectives derive their rail-spread
    /// ring channels and node-aware trees); none when it spans one node or one GPU per node.
    std::vector<std::vector<uint32_t>> node_groups(const std::vector<uint32_t>& members) const;

private:
    uint32_t gpus_ = 1;
    uint32_t hcas_ = 1;
    uint32_t nodes_ = 0;
    std::vector<gpu_ref> ranks_;
};

}  // namespace ndr::common
