// One printed line of user-supplied text, cut at a sane length: a 5 MB op name or sweep value
// must not become a 5 MB line of output.
#pragma once
#include <fmt/format.h>

#include <cstddef>
#include <string>

namespace ndr::tb {

/// `s` on one line (newlines become spaces), cut after `max` characters with the cut marked as
/// `... (N characters)`.
inline std::string clip_text(std::string s, std::size_t max) {
    for (char& c : s) {
        if (c == '\n' || c == '\r') c = ' ';
    }
    if (s.size() > max) s = s.substr(0, max) + fmt::format("... ({} characters)", s.size());
    return s;
}

}  // namespace ndr::tb
