#include "compare_jobs.h"

#include <fmt/format.h>

#include "json_tree.h"
#include "run_report.h"
#include "run_sim.h"
#include "sim_level.h"

namespace ndr::tb {

using nlohmann::json;

namespace {

/// A job with more collectives than this gets only its span row on stdout.
constexpr std::size_t MAX_ROWS = 16;

double ratio(double v, double base) {
    return base > 0.0 ? v / base : 0.0;
}

double pct_diff(double v, double base) {
    return base != 0.0 ? (v - base) / base * 100.0 : 0.0;
}

}  // namespace

json compare_jobs_point(job_setup s) {
    const trace::trace& tr = s.merged.t;
    const sim_level lv = choose_replay_level(s.config, tr).level;
    if (s.config.jobs.baseline) run_baselines(s, lv);
    const run_outcome out = run_trace_at(lv, s.config, tr);
    json r = run_report_json(s.config, tr, out);
    if (lv != sim_level::cycle) r["sim"]["level"] = level_name(lv);
    json_tree w;
    w.begin_object();
    write_jobs_section(w, s.merged, out, s.info);
    w.end_object();
    return json{{"config", r["config"]}, {"fabric", r["fabric"]},
                {"sim", r["sim"]},       {"collectives", r["collectives"]},
                {"totals", r["totals"]}, {"jobs", w.result()["jobs"]}};
}

json compare_jobs_section(const std::vector<std::string>& presets,
                          const std::vector<json>& results) {
    json jobs = json::array();
    const json& base_jobs = results[0]["jobs"];
    for (std::size_t j = 0; j < base_jobs.size(); ++j) {
        json job{{"job", j},
                 {"trace", base_jobs[j]["trace"]},
                 {"nranks", base_jobs[j]["nranks"]},
                 {"per_preset", json::array()}};
        for (std::size_t p = 0; p < results.size(); ++p) {
            const json& rj = results[p]["jobs"][j];
            const json& bj = base_jobs[j];
            json e{{"preset", presets[p]}, {"hosts", rj["hosts"]}, {"span_ns", rj["span_ns"]}};
            e["span_diff_pct"] = pct_diff(rj["span_ns"].get<double>(), bj["span_ns"].get<double>());
            const bool alone = rj.contains("alone");
            if (alone) {
                e["alone_span_ns"] = rj["alone"]["span_ns"];
                e["slowdown"] = rj["slowdown"];
            }
            e["collectives"] = json::array();
            for (std::size_t i = 0; i < rj["collectives"].size(); ++i) {
                const json& c = rj["collectives"][i];
                const double t = c["time_ns"].get<double>();
                json ce{
                    {"op", c["op"]},
                    {"bytes", c["bytes"]},
                    {"algo", c.value("algo", "")},
                    {"time_ns", t},
                    {"time_diff_pct", pct_diff(t, bj["collectives"][i]["time_ns"].get<double>())}};
                if (alone) {
                    const double a = rj["alone"]["time_ns"][i].get<double>();
                    ce["alone_time_ns"] = a;
                    ce["slowdown"] = ratio(t, a);
                }
                e["collectives"].push_back(std::move(ce));
            }
            job["per_preset"].push_back(std::move(e));
        }
        jobs.push_back(std::move(job));
    }
    return jobs;
}

std::string compare_jobs_table(const std::vector<std::string>& presets, const json& jobs) {
    std::string head = fmt::format("{:>3} {:>3} {:<14} {:>10} |", "job", "#", "op", "bytes");
    std::string names = fmt::format("{:>3} {:>3} {:<14} {:>10} |", "", "", "", "");
    for (std::size_t p = 0; p < presets.size(); ++p) {
        names += fmt::format(" {:^{}} |", presets[p] + (p == 0 ? " (base)" : ""), p == 0 ? 30 : 38);
        head += fmt::format(" {:>10} {:>10} {:>8}", "time_us", "alone_us", "slowdown");
        head += p == 0 ? " |" : fmt::format(" {:>7} |", "dtime%");
    }
    std::string s = names + "\n" + head + "\n";
    const auto cell = [](const json& e, const std::string& t, const std::string& a,
                         const std::string& sl) {
        const std::string alone =
            e.contains(a) ? fmt::format("{:.3f}", e[a].get<double>() / 1000.0) : "-";
        const std::string slow = e.contains(sl) ? fmt::format("{:.4f}", e[sl].get<double>()) : "-";
        return fmt::format(" {:>10.3f} {:>10} {:>8}", e[t].get<double>() / 1000.0, alone, slow);
    };
    bool cut = false;
    for (const json& job : jobs) {
        const json& per = job["per_preset"];
        const std::size_t n = per[0]["collectives"].size();
        cut = cut || n > MAX_ROWS;
        for (std::size_t i = 0; i < n && n <= MAX_ROWS; ++i) {
            const json& c0 = per[0]["collectives"][i];
            std::string line =
                fmt::format("{:>3} {:>3} {:<14} {:>10} |", job["job"].get<int>(), i,
                            c0["op"].get<std::string>(), c0["bytes"].get<uint64_t>());
            for (std::size_t p = 0; p < per.size(); ++p) {
                const json& c = per[p]["collectives"][i];
                line += cell(c, "time_ns", "alone_time_ns", "slowdown");
                line +=
                    p == 0 ? " |" : fmt::format(" {:>+7.1f} |", c["time_diff_pct"].get<double>());
            }
            s += line + "\n";
        }
        std::string line =
            fmt::format("{:>3} {:>3} {:<14} {:>10} |", job["job"].get<int>(), "", "span", "");
        for (std::size_t p = 0; p < per.size(); ++p) {
            line += cell(per[p], "span_ns", "alone_span_ns", "slowdown");
            line +=
                p == 0 ? " |" : fmt::format(" {:>+7.1f} |", per[p]["span_diff_pct"].get<double>());
        }
        s += line + "\n";
    }
    if (cut) {
        s += fmt::format(
            "(a job of more than {} collectives: its span row only; every collective "
            "in report.json jobs[])\n",
            MAX_ROWS);
    }
    s += "slowdown = time together / time alone on the same hosts (--baseline); dtime% = time vs "
         "the first preset\n";
    return s;
}

}  // namespace ndr::tb
