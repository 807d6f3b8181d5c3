// `ndrsim compare A.jsonl B.jsonl ... --preset X --preset Y`: several jobs on one fabric per
// preset (placed and merged as a multi-job `ndrsim run`, job_setup.h), and per job and preset
// its collective times, span and, with jobs.baseline, its slowdown against the job alone
// (docs/cli.md 'ndrsim compare'). The per-preset simulation runs in compare's child process.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/sim_config.h"
#include "job_setup.h"

namespace ndr::tb {

/// In a child process: runs `s` (its baselines first if s.config.jobs.baseline) and returns
/// the parts of the report compare needs: config, fabric, sim, collectives, totals and jobs.
nlohmann::json compare_jobs_point(job_setup s);

/// report.json `jobs[]` of a compare: per job its trace and nranks and, per preset (in
/// `presets` order, results[p] from compare_jobs_point), hosts, span, alone span, slowdown and
/// per collective {op, bytes, time_ns, alone_time_ns, slowdown, time_diff_pct}.
nlohmann::json compare_jobs_section(const std::vector<std::string>& presets,
                                    const std::vector<nlohmann::json>& results);

/// The stdout table of that section: one row per job collective (for a job of at most 16) and
/// one span row per job.
std::string compare_jobs_table(const std::vector<std::string>& presets, const nlohmann::json& jobs);

}  // namespace ndr::tb
