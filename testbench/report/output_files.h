// Writing report files and measuring the process, for every command that writes output.
#pragma once
#include <functional>
#include <ostream>
#include <string>

namespace ndr::tb {

/// Writes text to DIR/name, creating DIR; throws std::runtime_error naming the path on failure.
void write_file(const std::string& dir, const std::string& name, const std::string& text);

/// Opens DIR/name (creating DIR) and lets `fill` write to it as it goes (a streamed report);
/// throws std::runtime_error naming the path if the directory, the file or a write fails.
void write_file_with(const std::string& dir, const std::string& name,
                     const std::function<void(std::ostream&)>& fill);

/// Removes DIR/name if it exists; throws std::runtime_error naming the path if that fails.
void remove_file(const std::string& dir, const std::string& name);

/// Peak resident set size of this process, MiB.
double peak_rss_mib();

}  // namespace ndr::tb
