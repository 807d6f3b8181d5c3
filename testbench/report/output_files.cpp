#include "output_files.h"

#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace ndr::tb {

void write_file(const std::string& dir, const std::string& name, const std::string& text) {
    write_file_with(dir, name, [&](std::ostream& out) { out << text; });
}

void write_file_with(const std::string& dir, const std::string& name,
                     const std::function<void(std::ostream&)>& fill) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot create directory '" + dir + "': " + ec.message());
    const std::string path = (std::filesystem::path(dir) / name).string();
    std::vector<char> buffer(std::size_t{1} << 20);  // fewer, larger writes of a streamed file
    std::ofstream out;
    out.rdbuf()->pubsetbuf(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    out.open(path);
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
    fill(out);
    out.close();
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

void remove_file(const std::string& dir, const std::string& name) {
    const std::string path = (std::filesystem::path(dir) / name).string();
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (ec) throw std::runtime_error("cannot remove '" + path + "': " + ec.message());
}

double peak_rss_mib() {
    rusage ru{};
    ::getrusage(RUSAGE_SELF, &ru);
    return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

}  // namespace ndr::tb
