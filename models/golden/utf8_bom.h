// The one rule for a UTF-8 byte-order mark (EF BB BF) in an input file (trace, config, sweep,
// NCCL log): at the very start of the file it is skipped (editors on Windows write one); at the
// start of any later line it is an error naming that line (a concatenation of files, each with
// its mark, would otherwise give a garbled first word or a silently different key).
#pragma once
#include <string>
#include <string_view>

namespace ndr::golden {

inline constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

/// The reason given for a byte-order mark at the start of a line other than the first.
inline constexpr std::string_view misplaced_bom_reason =
    "a UTF-8 byte-order mark (EF BB BF) is allowed only at the start of the file";

inline bool starts_with_utf8_bom(std::string_view s) {
    return s.substr(0, utf8_bom.size()) == utf8_bom;
}

/// Removes a byte-order mark from the front of `s` (a file's first line or whole text); true if
/// there was one.
inline bool strip_utf8_bom(std::string& s) {
    if (!starts_with_utf8_bom(s)) return false;
    s.erase(0, utf8_bom.size());
    return true;
}

/// The 1-based line of the first byte-order mark that starts a line after the first in `text`
/// (a whole file, its leading mark already stripped); 0 if there is none.
inline int misplaced_bom_line(std::string_view text) {
    int line = 1;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n') continue;
        ++line;
        if (starts_with_utf8_bom(text.substr(i + 1))) return line;
    }
    return 0;
}

}  // namespace ndr::golden
