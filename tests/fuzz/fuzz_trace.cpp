// Fuzz target: the trace loader (models/trace, docs/trace_format.md). The input is a trace file's
// bytes, read from memory through parse_trace (the parser behind load_trace). Expected: the trace
// loads, or trace_error with a one-line `fuzz.jsonl:LINE: FIELD: REASON`. An accepted trace must
// survive the writer: to_jsonl() loads back to the same trace. Anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_check.h"
#include "trace/trace.h"
#include "trace/trace_writer.h"
#include "trace_compare.h"

namespace {

const std::string path = "fuzz.jsonl";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    ndr::trace::trace t;
    try {
        t = ndr::trace::parse_trace(in, path);
    } catch (const ndr::trace::trace_error& e) {
        ndr::fuzz::check_message(e.what(), {path + ":"});
        return 0;
    }
    std::istringstream again(ndr::trace::to_jsonl(t));
    try {
        const ndr::trace::trace back = ndr::trace::parse_trace(again, path);
        const std::string diff = ndr::fuzz::trace_difference(t, back);
        if (!diff.empty()) ndr::fuzz::finding("the written trace loads back different: " + diff);
    } catch (const ndr::trace::trace_error& e) {
        ndr::fuzz::finding(std::string("the written trace does not load back: ") + e.what());
    }
    return 0;
}
