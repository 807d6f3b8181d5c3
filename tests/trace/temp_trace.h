// Test helper: writes trace text to a uniquely named temporary file, removed on destruction.
#pragma once
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

namespace ndr::trace::test {

class temp_trace {
public:
    explicit temp_trace(const std::string& text, const std::string& ext = ".jsonl") {
        static std::atomic<int> counter{0};
        path_ = std::filesystem::temp_directory_path() /
                ("ndr_trace_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + ext);
        std::ofstream(path_) << text;
    }
    ~temp_trace() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    temp_trace(const temp_trace&) = delete;
    temp_trace& operator=(const temp_trace&) = delete;

    std::string path() const { return path_.string(); }

private:
    std::filesystem::path path_;
};

}  // namespace ndr::trace::test
