// Fuzz target: the sweep-file parser (testbench/sweep/sweep_spec.h, docs/sweeps.md). The input is
// a sweep file's bytes, parsed from memory by parse_sweep (the parser behind load_sweep; nothing
// is read or run: expansion into points needs the simulator and is not fuzzed). Expected: a
// sweep that keeps the documented limits, or config_error with one line naming the file
// (`fuzz/sweep.yaml:LINE: FIELD: REASON`). Anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "config/config_error.h"
#include "fuzz_check.h"
#include "sweep_spec.h"

namespace {

const std::string path = "fuzz/sweep.yaml";

/// The limits docs/sweeps.md states for an accepted sweep file.
void check_sweep(const ndr::tb::sweep_spec& s) {
    if (s.name.empty() || s.name.find_first_of("/\\") != std::string::npos || s.name[0] == '.')
        ndr::fuzz::finding("accepted a sweep name that is not a file name: '" + s.name + "'");
    if (s.kind != "traffic" && s.kind != "run")
        ndr::fuzz::finding("accepted kind '" + s.kind + "'");
    if (s.repeats < 1 || (s.seeds.empty() && s.repeats > 10000) ||
        (!s.seeds.empty() && s.repeats != s.seeds.size())) {
        ndr::fuzz::finding("accepted " + std::to_string(s.repeats) + " repeats with " +
                           std::to_string(s.seeds.size()) + " seeds");
    }
    for (const ndr::tb::sweep_axis& a : s.axes) {
        if (a.keys.empty() || a.keys.size() != a.values.size())
            ndr::fuzz::finding("accepted an axis without a list per key");
        for (const auto& v : a.values) {
            if (v.empty() || v.size() != a.size())
                ndr::fuzz::finding("accepted an empty or unequal axis (" + a.keys[0] + ")");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        check_sweep(
            ndr::tb::parse_sweep(std::string(reinterpret_cast<const char*>(data), size), path));
    } catch (const ndr::cfg::config_error& e) {
        ndr::fuzz::check_message(e.what(), {path + ":"});
    }
    return 0;
}
