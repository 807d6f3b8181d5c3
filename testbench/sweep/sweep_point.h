// One sweep point as a self-contained directory, run by `ndrsim sweep --run-point DIR` in its own
// process, locally (a child of the sweep) or as a Slurm array task:
//   DIR/point.json   what to run: kind, trace, resolved config, params, seed (written by the sweep)
//   DIR/report.json  the point's full report (docs/report.md)
//   DIR/result.json  the result shard: status, error, wall_s, headline metrics (written last,
//                    atomically, so a shard that exists is complete)
//   DIR/launches.log one line per process that ran the point
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "sweep_spec.h"

namespace ndr::tb {

/// DIR of one point inside the sweep's work directory.
std::string point_dir(const std::string& work_dir, const std::string& point_key);

/// Writes DIR/point.json and removes a stale DIR/result.json.
void prepare_point_dir(const std::string& dir, const sweep_spec& s, const sweep_point& p);

/// Runs the point described by DIR/point.json in this process and writes DIR/result.json.
/// Returns 0 if the point succeeded, 1 if it failed (the error is in the shard).
int run_point_dir(const std::string& dir);

/// Reads DIR/result.json; null if it does not exist or is not complete JSON.
nlohmann::json read_result(const std::string& dir);

/// Headline metrics (metric_columns() plus `vl_share` and, for runs, `per_collective`) of a
/// traffic point's or a run's report.
nlohmann::json headline_metrics(const std::string& kind, const nlohmann::json& report);

}  // namespace ndr::tb
