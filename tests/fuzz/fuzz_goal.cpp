// Fuzz target: the GOAL importer (models/trace/goal_import.h, docs/trace_format.md "GOAL
// schedules"). The input is a schedule's text; an accepted trace must write and load back the
// same. Expected: success, or trace_error with one line naming the schedule (`fuzz.goal:...`).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_check.h"
#include "trace/goal_import.h"
#include "trace/trace.h"
#include "trace/trace_writer.h"
#include "trace_compare.h"

namespace {

const std::string goal_path = "fuzz.goal";
const std::string trace_path = "fuzz.jsonl";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        ndr::trace::goal_import imp = ndr::trace::import_goal(in, goal_path);
        std::istringstream text(ndr::trace::to_jsonl(imp.t));
        const ndr::trace::trace back = ndr::trace::parse_trace(text, trace_path);
        const std::string diff = ndr::fuzz::trace_difference(imp.t, back);
        if (!diff.empty()) ndr::fuzz::finding("the imported trace loads back different: " + diff);
    } catch (const ndr::trace::trace_error& e) {
        ndr::fuzz::check_message(e.what(), {goal_path + ":", trace_path + ":"});
    }
    return 0;
}
