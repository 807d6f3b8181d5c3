// Fuzz target: the NCCL-log importer (models/trace/nccl_import.h, docs/trace_format.md
// "Importing NCCL logs"). The input is a log's bytes; like `ndrsim import nccl-log` the target
// imports it from memory, writes the trace text and loads it back (the validation step).
// Expected: both succeed, or trace_error with one line naming the log (`fuzz.log:LINE: ...`) or
// the trace it would write (`fuzz.jsonl:LINE: ...`). A trace that loads must equal the import.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_check.h"
#include "trace/nccl_import.h"
#include "trace/trace.h"
#include "trace/trace_writer.h"
#include "trace_compare.h"

namespace {

const std::string log_path = "fuzz.log";
const std::string trace_path = "fuzz.jsonl";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        ndr::trace::nccl_import imp = ndr::trace::import_nccl_log(in, log_path);
        // An excerpt replays on every rank of its communicator ([nranks=N], up to 65,536): a
        // few lines of a large one make a trace of 10^5 records, whose text round trip takes
        // seconds in this instrumented build (a 2.6 KB input with [nranks=21024] took 9.9 s,
        // libFuzzer's timeout is 10). The import itself ran; the round trip is checked on
        // traces up to 20,000 records.
        if (imp.t.records.size() > 20'000) return 0;
        std::istringstream text(ndr::trace::to_jsonl(imp.t, imp.comments));
        const ndr::trace::trace back = ndr::trace::parse_trace(text, trace_path);
        // The importer's trace carries no line numbers and no collectives (parse_trace derives
        // them): compare records, not the whole trace.
        imp.t.collectives = back.collectives;
        const std::string diff = ndr::fuzz::trace_difference(imp.t, back);
        if (!diff.empty()) ndr::fuzz::finding("the imported trace loads back different: " + diff);
    } catch (const ndr::trace::trace_error& e) {
        ndr::fuzz::check_message(e.what(), {log_path + ":", trace_path + ":"});
    }
    return 0;
}
