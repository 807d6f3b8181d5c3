// The jobs file of `ndrsim run --jobs FILE` (docs/formats/jobs_file.md): YAML or JSON, a list of
// jobs, each a trace and optionally the hosts (nodes) it runs on.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ndr::tb {

/// One job of a jobs file.
struct job_entry {
    std::string trace;                           ///< path, relative ones from the file's folder
    std::optional<std::vector<uint32_t>> hosts;  ///< nodes given; none: jobs.placement
    int line = 0;                                ///< line of the job in the file (messages)
};

/// Reads the jobs file `path`; throws cfg::config_error `FILE:LINE: jobs[i].FIELD: REASON`.
std::vector<job_entry> load_jobs_file(const std::string& path);
/// As load_jobs_file, from the file's text.
std::vector<job_entry> parse_jobs_file(const std::string& text, const std::string& path);

}  // namespace ndr::tb
