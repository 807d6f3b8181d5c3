// Verilator coverage of one VerilatedContext, summarised as points and points hit
// (ndrsim verify's coverage summary; models built with --coverage).
#pragma once

#include <string>

#include "verify/check_result.h"

class VerilatedContext;

namespace ndr::verify {

/// Points and points hit (count > 0) of every coverage item the context's models registered.
/// Writes the context's coverage database to a temporary file and parses it (Verilator 5.006
/// has no in-memory iteration); 0/0 for models built without --coverage.
coverage_summary read_coverage(VerilatedContext& ctx);

/// Parses Verilator coverage.dat text: every line `C '<item>' <count>` is one point.
coverage_summary parse_coverage_dat(const std::string& text);

}  // namespace ndr::verify
