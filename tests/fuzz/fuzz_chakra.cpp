// Fuzz target: the Chakra importer (models/trace/chakra_import.h, docs/trace_format.md
// "Chakra execution traces"). The input is one rank's .et bytes (gzipped or not), imported as a
// one-rank trace; an accepted trace must write and load back the same, and export again.
// Expected: success, or trace_error with one line naming the file (`fuzz.0.et: ...`).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_check.h"
#include "trace/chakra_export.h"
#include "trace/chakra_import.h"
#include "trace/trace.h"
#include "trace/trace_writer.h"
#include "trace_compare.h"

namespace {

const std::string et_path = "fuzz.0.et";
const std::string trace_path = "fuzz.jsonl";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        ndr::trace::chakra_import imp = ndr::trace::import_chakra(
            {{et_path, std::string(reinterpret_cast<const char*>(data), size)}});
        std::istringstream text(ndr::trace::to_jsonl(imp.t, imp.comments));
        const ndr::trace::trace back = ndr::trace::parse_trace(text, trace_path);
        const std::string diff = ndr::fuzz::trace_difference(imp.t, back);
        if (!diff.empty()) ndr::fuzz::finding("the imported trace loads back different: " + diff);
        (void)ndr::trace::to_chakra(back);
    } catch (const ndr::trace::trace_error& e) {
        ndr::fuzz::check_message(e.what(), {et_path + ":", trace_path + ":"});
    }
    return 0;
}
