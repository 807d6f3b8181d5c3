// The syntax of one `fault.link_down` entry: `LINK@TIME`, LINK a directed link as report.json
// `links[]` names it (`sw0.p4->sw4.p0`; either direction names the cable), TIME a time with its
// unit (`50us`). Whether LINK exists is the fabric's question (testbench/fabric/fabric_faults.h).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "config/units.h"

namespace ndr::cfg {

struct link_down_spec {
    std::string link;  ///< e.g. "sw0.p4->sw4.p0"
    time_ps_t at{0};   ///< simulated time the cable goes down
};

/// Parses one `LINK@TIME` entry (whitespace around it ignored). Throws `config_error` with a
/// reason only: missing `@`, empty link, a link without `->`, a bad time.
link_down_spec parse_link_down(std::string_view text);

/// Every entry of a `fault.link_down` value list, in order.
std::vector<link_down_spec> parse_link_downs(const std::vector<std::string>& entries);

}  // namespace ndr::cfg
