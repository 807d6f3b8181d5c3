// Verilator coverage summary (coverage_reader.h).
#include "verify/coverage_reader.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <verilated.h>
#include <verilated_cov.h>

namespace ndr::verify {

coverage_summary parse_coverage_dat(const std::string& text) {
    coverage_summary s;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("C '", 0) != 0) continue;
        const std::size_t quote = line.rfind('\'');
        if (quote == std::string::npos || quote < 3) continue;
        ++s.points;
        const std::string count = line.substr(quote + 1);
        if (count.find_first_of("123456789") != std::string::npos) ++s.hit;
    }
    return s;
}

coverage_summary read_coverage(VerilatedContext& ctx) {
    std::string tmpl = (std::filesystem::temp_directory_path() / "ndrsim_cov_XXXXXX").string();
    char* path = tmpl.data();
    const int fd = ::mkstemp(path);
    if (fd < 0) throw std::runtime_error("verify: cannot create a temporary coverage file");
    ::close(fd);
    ctx.coveragep()->write(path);
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    std::remove(path);
    return parse_coverage_dat(text.str());
}

}  // namespace ndr::verify
