// What every fuzz target checks about a rejected input, and how it reports a finding: the
// project's rule for bad input (one line naming the file, line and field; docs/fuzzing.md).
// Header-only, for the targets in tests/fuzz.
#pragma once
#include <fmt/format.h>

#include <cstdlib>
#include <string>
#include <string_view>

namespace ndr::fuzz {

/// Reports a finding on stderr and aborts, so libFuzzer saves the input as a crash.
[[noreturn]] inline void finding(std::string_view what) {
    fmt::print(stderr, "ndr fuzz finding: {}\n", what);
    std::abort();
}

/// The message of an expected input error: not empty, one line, starting with one of
/// `prefixes` (the source it names, e.g. "fuzz.jsonl:"); an empty prefix allows any start.
inline void check_message(std::string_view msg, std::initializer_list<std::string_view> prefixes) {
    if (msg.empty()) finding("an input error with an empty message");
    if (msg.find('\n') != std::string_view::npos || msg.find('\r') != std::string_view::npos) {
        finding(fmt::format("an input error message of more than one line: '{}'", msg));
    }
    for (std::string_view p : prefixes) {
        if (msg.substr(0, p.size()) == p) return;
    }
    finding(fmt::format("an input error message that names no source: '{}'", msg));
}

}  // namespace ndr::fuzz
