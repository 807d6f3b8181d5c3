// Slurm backend of `ndrsim sweep` (docs/sweeps.md): an sbatch job array with one task per pending
// point; each task runs `ndrsim sweep --run-point DIR` and leaves its result shard DIR/result.json.
// `ndrsim sweep --collect` (collect_shards) merges the shards into the database.
#pragma once
#include <string>
#include <vector>

#include "sweep_db.h"
#include "sweep_spec.h"

namespace ndr::tb {

/// Writes WORK/slurm/NAME.sh for `todo` (their point directories must be prepared) and returns
/// its path. `max_parallel` > 0 adds the %N array throttle; `extra` lines are added as
/// `#SBATCH EXTRA`. The script also runs one task outside Slurm: `bash SCRIPT TASK_ID`.
std::string write_array_script(const sweep_spec& s, const std::vector<const sweep_point*>& todo,
                               const std::string& work_dir, const std::string& exe,
                               unsigned max_parallel, const std::vector<std::string>& extra);

/// Submits the script with `sbatch --parsable`; returns the job id, throws with sbatch's
/// message on failure.
std::string submit_array(const std::string& script);

struct collect_stats {
    std::size_t done = 0;
    std::size_t failed = 0;
    std::size_t missing = 0;  ///< points still without a shard
};

/// Records every shard of a point not yet done; points without a shard stay pending.
collect_stats collect_shards(const sweep_spec& s, const std::vector<sweep_point>& points,
                             const std::string& work_dir, sweep_db& db);

}  // namespace ndr::tb
