// The directory for the tests' scratch files: the system's temporary directory (TMPDIR, else the
// platform default), with a trailing separator, so no test names a machine path.
#pragma once
#include <filesystem>
#include <string>

namespace ndr::test {

inline std::string temp_dir() {
    return (std::filesystem::temp_directory_path() / "").string();
}

}  // namespace ndr::test
