#include "common/node_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

namespace ndr::common {

node_layout::node_layout(uint32_t gpus, uint32_t hcas, uint32_t nranks,
                         const std::vector<std::array<uint32_t, 2>>& placement)
    : gpus_(std::max<uint32_t>(1, gpus)), hcas_(hcas == 0 ? std::max<uint32_t>(1, gpus) : hcas) {
    ranks_.resize(nranks);
    if (placement.empty()) {
        for (uint32_t r = 0; r < nranks; ++r) ranks_[r] = gpu_ref{r / gpus_, r % gpus_};
    } else {
        if (placement.size() != nranks) {
            throw std::invalid_argument(
                fmt::format("placement: {} entries for {} ranks (one [node, gpu] per rank)",
                            placement.size(), nranks));
        }
        std::unordered_map<uint64_t, uint32_t> owner;
        for (uint32_t r = 0; r < nranks; ++r) {
            const auto [node, gpu] = placement[r];
            if (gpu >= gpus_) {
                throw std::invalid_argument(
                    fmt::format("placement[{}]: gpu {} out of range (node.gpus {}: gpus 0..{})", r,
                                gpu, gpus_, gpus_ - 1));
            }
            if (node > 0xBFFF) {
                throw std::invalid_argument(fmt::format(
                    "placement[{}]: node {} out of range (0..49151, the unicast LIDs)", r, node));
            }
            const uint64_t key = (uint64_t{node} << 32) | gpu;
            if (const auto [it, fresh] = owner.emplace(key, r); !fresh) {
                throw std::invalid_argument(
                    fmt::format("placement[{}]: node {} gpu {} already holds rank {}", r, node, gpu,
                                it->second));
            }
            ranks_[r] = gpu_ref{node, gpu};
        }
    }
    for (const gpu_ref& g : ranks_) nodes_ = std::max(nodes_, g.node + 1);
}

std::vector<std::vector<uint32_t>> node_layout::node_groups(
    const std::vector<uint32_t>& members) const {
    std::vector<std::vector<uint32_t>> nodes;  // per node (first-appearance order): positions
    std::vector<uint32_t> slot;                // node index -> its entry in `nodes`, or NONE
    constexpr uint32_t NONE = UINT32_MAX;
    for (uint32_t i = 0; i < members.size(); ++i) {
        const uint32_t node = ranks_[members[i]].node;
        if (node >= slot.size()) slot.resize(node + 1, NONE);
        if (slot[node] == NONE) {
            slot[node] = static_cast<uint32_t>(nodes.size());
            nodes.emplace_back();
        }
        nodes[slot[node]].push_back(i);
    }
    size_t widest = 0;
    for (std::vector<uint32_t>& m : nodes) {
        std::stable_sort(m.begin(), m.end(), [&](uint32_t a, uint32_t b) {
            return ranks_[members[a]].gpu < ranks_[members[b]].gpu;
        });
        widest = std::max(widest, m.size());
    }
    if (nodes.size() < 2 || widest < 2) return {};
    return nodes;
}

}  // namespace ndr::common
