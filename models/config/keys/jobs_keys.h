// The `jobs` section: several traces on one fabric (`ndrsim run A.jsonl B.jsonl ...`,
// docs/multijob.md). Each parameter is one field here, with its default as the initialiser, and
// one row in jobs_rows() below (key, range, help with its source), in the order
// `ndrsim config keys` lists them. Adding a key to this section touches no other config file.
#pragma once
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Several jobs sharing one fabric (docs/multijob.md).
struct jobs_config {
    std::string placement = "packed";  ///< `packed` | `spread` | `random`
    bool baseline = false;             ///< run each job alone first (report.json jobs[].slowdown)
};

namespace detail {

/// The rows of the `jobs` section; `s` is a section_keys<jobs_config>
/// (config/keys/key_builders.h).
template <class Rows>
void jobs_rows(Rows& s) {
    s.choice_key("jobs.placement", &jobs_config::placement, {"packed", "spread", "random"},
                 "where a multi-job run (several traces, or a jobs file without hosts) puts each "
                 "job's nodes: packed = the next free nodes in order (a job fills its leaves), "
                 "spread = round-robin over the leaves, random = a shuffle of the free nodes "
                 "seeded by sim.seed; docs/multijob.md (the policies of the Slurm topology/tree "
                 "plugin and of scheduler studies, docs/domain.md 'Job placement')");
    s.bool_key("jobs.baseline", &jobs_config::baseline,
               "multi-job runs: also run each job alone on the same hosts of the same fabric "
               "(one child ndrsim process per job) and report its slowdown, report.json "
               "jobs[].slowdown (= --baseline); docs/multijob.md");
}

}  // namespace detail
}  // namespace ndr::cfg
