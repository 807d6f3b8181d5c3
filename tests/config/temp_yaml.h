// Test helper: writes YAML text to a uniquely named temporary file, removed on destruction.
#pragma once
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace ndr::cfg::test {

class temp_yaml {
public:
    explicit temp_yaml(const std::string& text, const std::string& stem = "cfg") {
        static std::atomic<int> counter{0};
        path_ =
            std::filesystem::temp_directory_path() /
            (stem + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ".yaml");
        std::ofstream(path_) << text;
    }
    ~temp_yaml() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    temp_yaml(const temp_yaml&) = delete;
    temp_yaml& operator=(const temp_yaml&) = delete;

    std::string path() const { return path_.string(); }

private:
    std::filesystem::path path_;
};

}  // namespace ndr::cfg::test
