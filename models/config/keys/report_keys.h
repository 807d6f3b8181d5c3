// The `report` section: what the output files of `ndrsim run` hold.
// Each parameter is one field here, with its default as the initialiser, and one row in
// report_rows() below (key, range, help with its source), in the order `ndrsim config keys`
// lists them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Output of `ndrsim run`.
struct report_config {
    time_ps_t utilisation_interval{0};  ///< link-utilisation sample period; 0 = automatic
    /// Detail of timeline.json: off|collectives|transfers|packets, each adding to the one before.
    std::string timeline = "collectives";
};

namespace detail {

/// The rows of the `report` section; `s` is a section_keys<report_config>
/// (config/keys/key_builders.h).
template <class Rows>
void report_rows(Rows& s) {
    s.unit_key("report.utilisation_interval", &report_config::utilisation_interval, "any", nullptr,
               "period of the link-utilisation samples of ndrsim run (timeline.json counters, "
               "report.json links[].peak_utilisation and sim.utilisation_interval_ns), rounded "
               "to whole cycles (at least one); 0 = automatic: 1 us, doubled (pairs of samples "
               "averaged) whenever a link would hold more than 2000 samples (fewer on fabrics of "
               "more than 4,096 one-way links: 8.2 M samples in all, at least 250 per link), so "
               "the files and the memory stay small for any run length and fabric; a set period "
               "is doubled the same way past 1,000,000 samples (fewer beyond 128 links: 128 M in "
               "all, at least 4,000 per link) (model choice)");
    s.choice_key("report.timeline", &report_config::timeline,
                 {"off", "collectives", "transfers", "packets"},
                 "detail of ndrsim run --out's timeline.json, each level adding to the one "
                 "before: off = no timeline.json; collectives = one slice per rank per record "
                 "(collective or compute); transfers = + one slice per RDMA transfer of a host "
                 "algorithm (post to arrival); packets = + the link-utilisation counters (the "
                 "beats packets put on each wire per report.utilisation_interval). Default "
                 "collectives keeps writing under 10 % of a run's wall time (measured, "
                 "docs/performance.md; model choice)");
}

}  // namespace detail
}  // namespace ndr::cfg
