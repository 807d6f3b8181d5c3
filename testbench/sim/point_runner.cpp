#include "point_runner.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "common/invariant_error.h"
#include "config/config_error.h"

namespace ndr::tb {

using nlohmann::json;

namespace {

json run_guarded(const cfg::config& c, const point_fn& fn) {
    try {
        return fn(c);
    } catch (const cfg::config_error& e) {
        return json{{"error", e.what()}, {"error_kind", "config"}};
    } catch (const common::invariant_error& e) {
        return json{{"error", e.what()}, {"error_kind", "invariant"}};
    } catch (const std::exception& e) {
        return json{{"error", e.what()}, {"error_kind", "runtime"}};
    }
}

}  // namespace

std::vector<json> run_points(const std::vector<cfg::config>& points, unsigned jobs,
                             const point_fn& fn, bool always_fork) {
    std::vector<json> results(points.size());
    if (points.size() == 1 && !always_fork) {
        results[0] = fn(points[0]);  // in this process: exceptions keep their type
        return results;
    }
    if (jobs == 0) jobs = 1;
    std::map<pid_t, std::pair<std::size_t, std::string>> running;
    std::size_t next = 0;
    auto reap_one = [&] {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, 0);
        if (pid <= 0) return;
        auto it = running.find(pid);
        if (it == running.end()) return;
        const auto [idx, path] = it->second;
        running.erase(it);
        std::ifstream in(path);
        std::stringstream ss;
        ss << in.rdbuf();
        ::unlink(path.c_str());
        try {
            results[idx] = json::parse(ss.str());
        } catch (const std::exception&) {
            results[idx] = json{{"error", "simulation process died without a result (status " +
                                              std::to_string(status) + ")"}};
        }
    };
    while (next < points.size() || !running.empty()) {
        while (next < points.size() && running.size() < jobs) {
            std::string tmpl_s =
                (std::filesystem::temp_directory_path() / "ndrsim-point-XXXXXX").string();
            char* tmpl = tmpl_s.data();
            const int fd = ::mkstemp(tmpl);
            if (fd < 0) {
                throw std::runtime_error("cannot create a temporary file in " +
                                         std::filesystem::temp_directory_path().string());
            }
            ::close(fd);
            const pid_t pid = ::fork();
            if (pid < 0) throw std::runtime_error("fork failed");
            if (pid == 0) {
                int code = 0;
                {
                    const json r = run_guarded(points[next], fn);
                    code = r.contains("error") ? 1 : 0;
                    std::ofstream out(tmpl);
                    out << r.dump();
                }
                std::_Exit(code);
            }
            running[pid] = {next, tmpl};
            ++next;
        }
        reap_one();
    }
    return results;
}

void rethrow_point_error(const json& result, const std::string& context) {
    if (!result.contains("error")) return;
    const std::string msg = context + result["error"].get<std::string>();
    const std::string kind = result.value("error_kind", "runtime");
    if (kind == "config") throw cfg::config_error(msg);
    if (kind == "invariant") throw common::invariant_error(msg);
    throw std::runtime_error(msg);
}

}  // namespace ndr::tb
