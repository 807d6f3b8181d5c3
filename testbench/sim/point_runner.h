// Runs independent simulation points, each in its own child process (SystemC elaborates once
// per process), up to `jobs` at a time. Results come back as JSON; a failed point carries
// {"error": message}. A single point runs in this process unless always_fork.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/sim_config.h"

namespace ndr::tb {

using point_fn = std::function<nlohmann::json(const cfg::config&)>;

/// Re-throws a failed point's error with its original kind (config, invariant, runtime) so the
/// exit code matches a single-point run; `context` prefixes the message (e.g. "load 0.7: ").
void rethrow_point_error(const nlohmann::json& result, const std::string& context);

/// `always_fork`: a single point runs in a child process too (so that this process can run
/// further points later: `ndrsim traffic --precision`).
std::vector<nlohmann::json> run_points(const std::vector<cfg::config>& points, unsigned jobs,
                                       const point_fn& fn, bool always_fork = false);

}  // namespace ndr::tb
