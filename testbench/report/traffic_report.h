// report.json of `ndrsim traffic` (documented field by field in docs/report.md) and the table
// printed on stdout.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/sim_config.h"
#include "traffic_outcome.h"

namespace ndr::tb {

/// Nearest-rank percentile (p in (0,1]) of a histogram: hist[v] = how many samples equal v.
/// Returns the smallest v such that at least ceil(p * n) samples are <= v (0 if empty).
uint64_t percentile_hist(const std::vector<uint64_t>& hist, double p);

/// mean/min/p50/p99/p999/max (ns, null without samples) and samples of a latency histogram.
nlohmann::json latency_summary(const std::vector<uint64_t>& hist, double cycle_ns);

/// One load point: every field except config (see docs/report.md).
nlohmann::json traffic_point_json(const cfg::config& c, const traffic_outcome& o);

/// The resolved config as {key: value-with-unit}.
nlohmann::json config_json(const cfg::config& c);

/// Full report: config + points; with one point its fields are also at the top level.
nlohmann::json traffic_report_json(const cfg::config& base,
                                   const std::vector<nlohmann::json>& points);

/// Human-readable table, one row per point.
std::string traffic_table(const std::vector<nlohmann::json>& points);

}  // namespace ndr::tb
