#include "jobs_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "config/config_error.h"
#include "config/yaml_document.h"

namespace ndr::tb {

namespace {

[[noreturn]] void bad(const std::string& path, const YAML::Node& at, const std::string& field,
                      const std::string& why) {
    const int line = at.IsDefined() ? at.Mark().line + 1 : 0;
    throw cfg::config_error(cfg::config_source::file(path, line), field, why);
}

uint32_t host_index(const std::string& path, const YAML::Node& n, const std::string& field) {
    if (!n.IsScalar()) bad(path, n, field, "expected a host index");
    const std::string& s = n.Scalar();
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 9)
        bad(path, n, field, fmt::format("expected a host index (0, 1, ...), got '{}'", s));
    return static_cast<uint32_t>(std::stoul(s));
}

}  // namespace

std::vector<job_entry> load_jobs_file(const std::string& path) {
    return parse_jobs_file(cfg::read_yaml_file(path), path);
}

std::vector<job_entry> parse_jobs_file(const std::string& text, const std::string& path) {
    const YAML::Node root = cfg::load_one_document(text, path);
    if (!root.IsMap() || !root["jobs"])
        bad(path, root, "jobs", "expected a map with a list `jobs` of {trace, hosts}");
    for (const auto& kv : root) {
        if (kv.first.Scalar() != "jobs")
            bad(path, kv.first, kv.first.Scalar(), "unknown field (allowed: jobs)");
    }
    const YAML::Node list = root["jobs"];
    if (!list.IsSequence() || list.size() == 0)
        bad(path, list, "jobs", "expected a non-empty list of jobs");
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    std::vector<job_entry> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node j = list[i];
        const std::string name = fmt::format("jobs[{}]", i);
        if (!j.IsMap()) bad(path, j, name, "expected a map {trace, hosts}");
        for (const auto& kv : j) {
            const std::string& k = kv.first.Scalar();
            if (k != "trace" && k != "hosts")
                bad(path, kv.first, name + "." + k, "unknown field (allowed: trace, hosts)");
        }
        job_entry e;
        e.line = j.Mark().line + 1;
        const YAML::Node t = j["trace"];
        if (!t || !t.IsScalar() || t.Scalar().empty())
            bad(path, t ? t : j, name + ".trace", "missing: the job's trace file");
        const std::filesystem::path tp(t.Scalar());
        e.trace = tp.is_absolute() || dir.empty() ? tp.string() : (dir / tp).string();
        std::error_code ec;
        if (!std::filesystem::is_regular_file(e.trace, ec))
            bad(path, t, name + ".trace", fmt::format("no such file: {}", e.trace));
        if (const YAML::Node h = j["hosts"]) {
            if (!h.IsSequence() || h.size() == 0)
                bad(path, h, name + ".hosts", "expected a non-empty list of host indices");
            std::vector<uint32_t> hosts;
            for (std::size_t k = 0; k < h.size(); ++k)
                hosts.push_back(host_index(path, h[k], fmt::format("{}.hosts[{}]", name, k)));
            e.hosts = std::move(hosts);
        }
        out.push_back(std::move(e));
    }
    return out;
}

}  // namespace ndr::tb
