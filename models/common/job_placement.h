// Where the jobs of a multi-job run go (jobs.placement, docs/multijob.md): which fabric nodes
// each job's node 0, 1, ... occupy. Level-neutral and SystemC-free: it sees the fabric only as
// the leaf switch of every node.
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ndr::common {

/// A placement that cannot be made; `job` is the job whose given nodes are wrong, or -1 when the
/// jobs do not fit.
struct placement_error : std::invalid_argument {
    placement_error(int j, const std::string& what) : std::invalid_argument(what), job(j) {}
    int job = -1;
};

/// One job to place: how many nodes it needs, or the nodes it was given (a jobs file's `hosts`).
struct job_request {
    uint32_t nodes = 0;
    std::optional<std::vector<uint32_t>> fixed;  ///< given nodes (size == nodes)
};

/// Places `jobs` on the nodes 0..leaf_of_node.size()-1 (leaf_of_node[n]: the leaf switch of
/// node n). Jobs with fixed nodes keep them; the others, in order, take free nodes by `policy`:
///  * packed: the lowest free nodes, in order;
///  * spread: node k of the job on the next leaf (cyclically, from the first leaf for every job)
///    that has a free node, its lowest free node;
///  * random: the free nodes shuffled (Fisher-Yates, common::rng(seed, stream 0x6A6F6273)),
///    each job taking the next ones in that order.
/// Throws placement_error with a message (no file names) if a fixed node is out of range or used
/// twice, or if the jobs need more nodes than the fabric has; std::invalid_argument for an
/// unknown policy.
std::vector<std::vector<uint32_t>> place_jobs(const std::string& policy,
                                              const std::vector<uint32_t>& leaf_of_node,
                                              const std::vector<job_request>& jobs, uint64_t seed);

}  // namespace ndr::common
