// Runs independent simulation points, each in its own child process (SystemC elaborates once
// per process), up to `jobs` at a time. Results come back as JSON; a failed point carries
// {"error": message}. A single point runs in this process.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "config/sim_config.h"

namespace ndr::tb {

using point_fn = std::function<nlohmann::json(const cfg::config&)>;

std::vector<nlohmann::json> run_points(const std::vector<cfg::config>& points, unsigned jobs,
                                       const point_fn& fn);

}  // namespace ndr::tb
