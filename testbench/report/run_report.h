// report.json, the stdout table and the Perfetto/Chrome trace-event timeline of `ndrsim run`
// (fields documented in docs/report.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "config/sim_config.h"
#include "run_outcome.h"
#include "trace/trace.h"

namespace ndr::tb {

nlohmann::json run_report_json(const cfg::config& c, const trace::trace& tr, const run_outcome& o);
std::string run_table(const nlohmann::json& report);
/// Chrome trace-event JSON (ui.perfetto.dev opens it): one track per rank with its ops and
/// compute as slices, and one counter track per link (utilisation, 0..1).
nlohmann::json run_timeline_json(const trace::trace& tr, const run_outcome& o);

}  // namespace ndr::tb
