// report.json jobs[] of a multi-job run (`ndrsim run A.jsonl B.jsonl ...`, docs/report.md
// "jobs"): per job its trace, hosts, collectives (as the top-level collectives[] lists them),
// span and, with jobs.baseline, its span alone on the same hosts and the slowdown.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json_out.h"
#include "run_outcome.h"
#include "trace/trace_merge.h"

namespace ndr::tb {

/// What one job did when it ran alone (jobs.baseline).
struct job_alone {
    double span_ns = 0;
    std::vector<double> time_ns;  ///< per collective of the job, in its order
};

/// One job's identity and, after the run, its measured span.
struct job_info {
    std::string trace;  ///< path
    std::string name;   ///< the trace header's name
    uint32_t nranks = 0;
    std::vector<uint32_t> hosts;  ///< the fabric nodes its node 0, 1, ... run on
    std::optional<job_alone> alone;
};

/// The collectives of job `j` of `m` in `o`, in run order.
std::vector<const collective_result*> job_collectives(const trace::merged_trace& m,
                                                      const run_outcome& o, uint32_t j);
/// First start to last end of job j's collectives, in ns (0 without collectives).
double job_span_ns(const trace::merged_trace& m, const run_outcome& o, uint32_t j);

/// Writes `jobs`: one object per job.
void write_jobs_section(json_out& w, const trace::merged_trace& m, const run_outcome& o,
                        const std::vector<job_info>& jobs);

/// The stdout lines of a multi-job run: per job its span and, with a baseline, its slowdown.
std::string jobs_table(const trace::merged_trace& m, const run_outcome& o,
                       const std::vector<job_info>& jobs);

}  // namespace ndr::tb
