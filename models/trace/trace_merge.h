// Several jobs' traces as one trace on one fabric (`ndrsim run A.jsonl B.jsonl ...`,
// docs/multijob.md): job j's ranks follow those of jobs 0..j-1, its communicators get fresh ids,
// and the header placement puts each rank on the job's own nodes. Records, collectives and their
// line numbers are otherwise the job's own (messages still name its lines). SystemC-free.
#pragma once
#include <cstdint>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace {

/// Nodes a trace occupies with `gpus` GPUs per node: its placement's highest node + 1, else
/// ceil(nranks / gpus).
uint32_t nodes_of(const trace& t, uint32_t gpus);

/// One job of a merged trace.
struct merged_job {
    uint32_t first_rank = 0;  ///< its rank 0 in the merged trace
    uint32_t first_comm = 0;  ///< its first communicator's index (= id) in the merged trace
    uint32_t comms = 0;
    std::vector<uint32_t> comm_ids;  ///< per communicator of the job: its id in the job's trace
};

struct merged_trace {
    trace t;
    std::vector<merged_job> jobs;
    std::vector<uint32_t> job_of_instance;  ///< per collective instance of t: its job
};

/// Merges `jobs` (non-empty); job j runs on `nodes[j]` (as many as nodes_of(*jobs[j], gpus),
/// distinct across jobs: the caller checks that): its node k is fabric node nodes[j][k]. The
/// result's path is the jobs' paths joined by '+', its name "jobs". Communicator i of the result
/// has id i. Throws std::invalid_argument if a job's node list has the wrong size.
merged_trace merge_traces(const std::vector<const trace*>& jobs,
                          const std::vector<std::vector<uint32_t>>& nodes, uint32_t gpus);

}  // namespace ndr::trace
