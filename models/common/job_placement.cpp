#include "common/job_placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "common/rng.h"

namespace ndr::common {

namespace {

/// Free nodes per leaf, lowest first, leaves in order of their id.
std::vector<std::vector<uint32_t>> free_by_leaf(const std::vector<uint32_t>& leaf_of_node,
                                                const std::vector<bool>& used) {
    std::map<uint32_t, std::vector<uint32_t>> by_leaf;
    for (uint32_t n = 0; n < leaf_of_node.size(); ++n) {
        if (!used[n]) by_leaf[leaf_of_node[n]].push_back(n);
    }
    std::vector<std::vector<uint32_t>> out;
    for (auto& [leaf, nodes] : by_leaf) out.push_back(std::move(nodes));
    return out;
}

}  // namespace

std::vector<std::vector<uint32_t>> place_jobs(const std::string& policy,
                                              const std::vector<uint32_t>& leaf_of_node,
                                              const std::vector<job_request>& jobs, uint64_t seed) {
    if (policy != "packed" && policy != "spread" && policy != "random")
        throw std::invalid_argument(fmt::format("unknown placement '{}'", policy));
    const auto total = static_cast<uint32_t>(leaf_of_node.size());
    std::vector<bool> used(total, false);
    std::vector<std::vector<uint32_t>> out(jobs.size());
    std::vector<int> owner(total, -1);
    uint64_t wanted = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        wanted += jobs[j].nodes;
        if (!jobs[j].fixed) continue;
        for (uint32_t n : *jobs[j].fixed) {
            if (n >= total) {
                throw placement_error(
                    static_cast<int>(j),
                    fmt::format("host {} out of range (the fabric has hosts 0..{})", n, total - 1));
            }
            if (used[n]) {
                throw placement_error(
                    static_cast<int>(j),
                    fmt::format("host {} is already used by job {}", n, owner[n]));
            }
            used[n] = true;
            owner[n] = static_cast<int>(j);
        }
        out[j] = *jobs[j].fixed;
    }
    if (wanted > total) {
        throw placement_error(
            -1, fmt::format("the jobs need {} hosts, the fabric has {}", wanted, total));
    }
    std::vector<uint32_t> order;  // packed and random: the free nodes in taking order
    for (uint32_t n = 0; n < total; ++n) {
        if (!used[n]) order.push_back(n);
    }
    if (policy == "random") {
        tb::rng r(seed, 0x6A6F6273);
        for (std::size_t i = order.size(); i > 1; --i) {
            std::swap(order[i - 1], order[r.below(i)]);
        }
    }
    std::size_t next = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
        if (jobs[j].fixed) continue;
        if (policy != "spread") {
            out[j].assign(order.begin() + static_cast<std::ptrdiff_t>(next),
                          order.begin() + static_cast<std::ptrdiff_t>(next + jobs[j].nodes));
            next += jobs[j].nodes;
            continue;
        }
        std::vector<std::vector<uint32_t>> leaves = free_by_leaf(leaf_of_node, used);
        std::vector<std::size_t> taken(leaves.size(), 0);
        std::size_t leaf = 0;
        while (out[j].size() < jobs[j].nodes) {
            while (taken[leaf] == leaves[leaf].size()) leaf = (leaf + 1) % leaves.size();
            const uint32_t n = leaves[leaf][taken[leaf]++];
            used[n] = true;
            out[j].push_back(n);
            leaf = (leaf + 1) % leaves.size();
        }
    }
    return out;
}

}  // namespace ndr::common
