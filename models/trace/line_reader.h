// Line input shared by the trace loader and the NCCL-log importer: bounded line length, `\r\n`
// line ends, and the byte-order-mark rule (golden/utf8_bom.h). Internal to models/trace.
#pragma once
#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

namespace ndr::trace::detail {

/// The longest line accepted: a comm record listing 131,072 ranks is about 1 MiB.
inline constexpr std::size_t MAX_LINE_BYTES = std::size_t{16} << 20;

/// Reads line `line_no` (1-based) into `out` without its `\n` or `\r\n`; false at the end of the
/// input with nothing read. Stops at MAX_LINE_BYTES (a file without newlines, such as /dev/zero,
/// must not fill memory), drops a byte-order mark at the start of line 1 and refuses one at the
/// start of any later line; both errors are trace_error(`PATH:LINE: FIELD: REASON`).
bool read_line(std::istream& in, std::string& out, const std::string& path, uint32_t line_no,
               std::string_view field);

}  // namespace ndr::trace::detail
