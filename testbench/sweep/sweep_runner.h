// Local backend of `ndrsim sweep`: runs the pending points as child processes
// (`ndrsim sweep --run-point DIR`, the same command a Slurm array task runs), up to `jobs` at a
// time, and records each finished point in the database from this (the only writing) process.
// SIGINT/SIGTERM stop the launching, terminate the running children and leave the database with
// exactly the points that finished.
#pragma once
#include <string>
#include <vector>

#include "sweep_db.h"
#include "sweep_spec.h"

namespace ndr::tb {

struct sweep_run_stats {
    std::size_t launched = 0;
    std::size_t done = 0;
    std::size_t failed = 0;
    bool interrupted = false;
    int signal = 0;
};

/// Path of the running ndrsim executable (/proc/self/exe).
std::string self_exe();

sweep_run_stats run_local(const sweep_spec& s, const std::vector<const sweep_point*>& todo,
                          const std::string& work_dir, unsigned jobs, sweep_db& db,
                          bool progress_bar);

}  // namespace ndr::tb
