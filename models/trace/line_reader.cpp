#include "trace/line_reader.h"

#include <fmt/format.h>

#include "golden/utf8_bom.h"
#include "trace/trace.h"

namespace ndr::trace::detail {

bool read_line(std::istream& in, std::string& out, const std::string& path, uint32_t line_no,
               std::string_view field) {
    out.clear();
    std::streambuf* sb = in.rdbuf();
    bool any = false;
    for (;;) {
        const int c = sb->sbumpc();
        if (c == std::char_traits<char>::eof()) {
            in.setstate(std::ios::eofbit);
            if (!any) return false;
            break;
        }
        any = true;
        if (c == '\n') break;
        if (out.size() >= MAX_LINE_BYTES) {
            throw trace_error(fmt::format("{}:{}: {}: line longer than {} MiB", path, line_no,
                                          field, MAX_LINE_BYTES >> 20));
        }
        out.push_back(static_cast<char>(c));
    }
    if (!out.empty() && out.back() == '\r') out.pop_back();
    if (line_no == 1) {
        golden::strip_utf8_bom(out);
    } else if (golden::starts_with_utf8_bom(out)) {
        throw trace_error(
            fmt::format("{}:{}: {}: {}", path, line_no, field, golden::misplaced_bom_reason));
    }
    return true;
}

}  // namespace ndr::trace::detail
