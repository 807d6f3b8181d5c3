// report.json and the stdout table of `ndrsim run` (fields documented in docs/report.md). The
// report is written once, to a json_out: streamed to the file by `run --out`, or built in memory
// (run_report_json) for the commands and tests that read it.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "config/sim_config.h"
#include "json_out.h"
#include "run_outcome.h"
#include "trace/trace.h"

namespace ndr::tb {

/// What the command adds to the report's sim section.
struct run_report_notes {
    bool tlm = false;                  ///< sim.level "tlm" (cycle-level reports have no sim.level)
    std::string tlm_burst_note;        ///< sim.tlm_burst_note, if not empty
    std::string tlm_sharp_burst_note;  ///< sim.tlm_sharp_burst_note, if not empty
    nlohmann::json level_choice;       ///< sim.level_choice (sim_level.h), if not null
    /// Sections a command appends after the others (multi-job runs: jobs[], jobs_report.h).
    std::function<void(json_out&)> extra;
};

/// One entry of report.json collectives[] (and of jobs[].collectives): collective `r` of `tr`,
/// its communicator reported as `comm`.
void write_collective(json_out& w, const trace::trace& tr, const collective_result& r, double ns,
                      uint32_t comm);

void write_run_report(json_out& w, const cfg::config& c, const trace::trace& tr,
                      const run_outcome& o, const run_report_notes& notes = {});
nlohmann::json run_report_json(const cfg::config& c, const trace::trace& tr, const run_outcome& o);
/// The stdout table: one row per collective (algbw, busbw) and the totals.
std::string run_table(const trace::trace& tr, const run_outcome& o);

}  // namespace ndr::tb
