// A multi-job `ndrsim run` (several traces or --jobs FILE, docs/multijob.md): the jobs loaded,
// placed on the fabric's nodes (jobs.placement or the file's hosts) and merged into one trace,
// and, with jobs.baseline, each job run alone on the same hosts in a child process.
#pragma once
#include <string>
#include <vector>

#include "config/sim_config.h"
#include "jobs_report.h"
#include "sim_level.h"
#include "trace/trace.h"
#include "trace/trace_merge.h"

namespace ndr::tb {

struct job_setup {
    cfg::config config;  ///< the run's config, fabric.hosts set to the placed fabric's hosts
    std::vector<trace::trace> traces;          ///< per job
    std::vector<std::vector<uint32_t>> nodes;  ///< per job: its fabric nodes
    trace::merged_trace merged;
    std::vector<job_info> info;  ///< per job (report.json jobs[])
};

/// Loads the jobs (`traces`, or the jobs file `jobs_file` if not empty), places them and merges
/// them. Throws cfg::config_error naming the trace, the jobs file's line and field, or the key.
job_setup prepare_jobs(const cfg::config& c, const std::vector<std::string>& traces,
                       const std::string& jobs_file);

/// jobs.baseline: runs every job alone on its hosts at `level`, one child process each (one
/// SystemC elaboration per process), and fills info[j].alone.
void run_baselines(job_setup& s, sim_level level);

}  // namespace ndr::tb
