// Writing report files and measuring the process, for every command that writes output.
#pragma once
#include <string>

namespace ndr::tb {

/// Writes text to DIR/name, creating DIR; throws std::runtime_error naming the path on failure.
void write_file(const std::string& dir, const std::string& name, const std::string& text);

/// Peak resident set size of this process, MiB.
double peak_rss_mib();

}  // namespace ndr::tb
