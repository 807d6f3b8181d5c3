#include "output_files.h"

#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ndr::tb {

void write_file(const std::string& dir, const std::string& name, const std::string& text) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot create directory '" + dir + "': " + ec.message());
    const std::string path = (std::filesystem::path(dir) / name).string();
    std::ofstream out(path);
    out << text;
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

double peak_rss_mib() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

}  // namespace ndr::tb
