// `ndrsim compare TRACE --preset A --preset B ...`: the same trace on each preset, each in its
// own child process, one side-by-side table (docs/presets.md). Several traces: the jobs run
// together on each preset's fabric, with per-job times and slowdowns (compare_jobs.h).
#include <fmt/format.h>

#include <memory>
#include <thread>

#include "cli.h"
#include "compare_jobs.h"
#include "config/config_dump.h"
#include "config/config_error.h"
#include "job_setup.h"
#include "point_runner.h"
#include "preset.h"
#include "run_report.h"
#include "run_sim.h"
#include "sim_level.h"
#include "trace/trace.h"

namespace ndr::tb {

using nlohmann::json;

namespace {

struct compare_cli_options {
    config_options cfg;  ///< --config, --set, --hosts, --topology: applied on top of every preset
    std::vector<std::string> presets;
    std::vector<std::string> traces;  ///< one: one job; several: a multi-job run per preset
    std::string out;
    unsigned jobs = 0;
};

double pct_diff(double v, double base) {
    return base != 0.0 ? (v - base) / base * 100.0 : 0.0;
}

/// The parts of a run report that compare needs (keeps the child-to-parent JSON small).
json slim_report(const json& r) {
    return json{{"config", r["config"]},
                {"fabric", r["fabric"]},
                {"sim", r["sim"]},
                {"collectives", r["collectives"]},
                {"totals", r["totals"]}};
}

/// Totals row: time = span; algbw = bytes / span; busbw = sum(bytes * busbw_factor) / span.
json totals_of(const json& r) {
    double bus_bytes = 0.0;
    for (const json& c : r["collectives"]) {
        bus_bytes += c["bytes"].get<double>() * c["busbw_factor"].get<double>();
    }
    const double span = r["totals"]["span_ns"].get<double>();
    const double bytes = r["totals"]["bytes"].get<double>();
    return json{{"time_ns", span},
                {"algbw_GBps", span > 0 ? bytes / span : 0.0},
                {"busbw_GBps", span > 0 ? bus_bytes / span : 0.0}};
}

json entry(const std::string& preset, const json& c, const json& first) {
    json e{{"preset", preset},
           {"algo", c.value("algo", "")},
           {"time_ns", c["time_ns"]},
           {"algbw_GBps", c["algbw_GBps"]},
           {"busbw_GBps", c["busbw_GBps"]}};
    e["time_diff_pct"] = pct_diff(c["time_ns"].get<double>(), first["time_ns"].get<double>());
    e["busbw_diff_pct"] =
        pct_diff(c["busbw_GBps"].get<double>(), first["busbw_GBps"].get<double>());
    return e;
}

std::string fmt_bytes(double b) {
    if (b >= 1024.0 * 1024.0 * 1024.0)
        return fmt::format("{:g}GiB", b / (1024.0 * 1024.0 * 1024.0));
    if (b >= 1024.0 * 1024.0) return fmt::format("{:g}MiB", b / (1024.0 * 1024.0));
    if (b >= 1024.0) return fmt::format("{:g}KiB", b / 1024.0);
    return fmt::format("{:g}B", b);
}

std::string table(const json& report) {
    const json& names = report["presets"];
    std::string head1 = fmt::format("{:>4} {:<14} {:>9} |", "", "", "");
    std::string head2 = fmt::format("{:>4} {:<14} {:>9} |", "#", "op", "bytes");
    for (size_t p = 0; p < names.size(); ++p) {
        const std::string n = names[p]["name"].get<std::string>();
        const int w = p == 0 ? 33 : 41;
        head1 += fmt::format(" {:^{}} |", n + (p == 0 ? " (base)" : ""), w);
        head2 += fmt::format(" {:<6} {:>10} {:>7} {:>7}", "algo", "time_us", "algbw", "busbw");
        head2 += p == 0 ? " |" : fmt::format(" {:>7} |", "dtime%");
    }
    std::string s = head1 + "\n" + head2 + "\n";
    auto row = [&](const std::string& idx, const std::string& op, const std::string& bytes,
                   const json& per) {
        std::string line = fmt::format("{:>4} {:<14} {:>9} |", idx, op, bytes);
        for (size_t p = 0; p < per.size(); ++p) {
            const json& e = per[p];
            line += fmt::format(" {:<6} {:>10.3f} {:>7.2f} {:>7.2f}", e.value("algo", ""),
                                e["time_ns"].get<double>() / 1000.0, e["algbw_GBps"].get<double>(),
                                e["busbw_GBps"].get<double>());
            line += p == 0 ? " |" : fmt::format(" {:>+7.1f} |", e["time_diff_pct"].get<double>());
        }
        return line + "\n";
    };
    size_t i = 0;
    for (const json& c : report["collectives"]) {
        s += row(std::to_string(i++), c["op"].get<std::string>(),
                 fmt_bytes(c["bytes"].get<double>()), c["per_preset"]);
    }
    s += row("", "total (span)", fmt_bytes(report["totals"]["bytes"].get<double>()),
             report["totals"]["per_preset"]);
    s += "algbw, busbw in GB/s; dtime% = time vs the first preset (negative = faster)\n";
    return s;
}

std::string csv(const json& report) {
    std::string s =
        "index,op,bytes,ranks,preset,algo,time_ns,algbw_GBps,busbw_GBps,time_diff_pct,"
        "busbw_diff_pct\n";
    auto rows = [&](const std::string& idx, const std::string& op, const json& bytes,
                    const json& ranks, const json& per) {
        for (const json& e : per) {
            s += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", idx, op, bytes.dump(),
                             ranks.dump(), e["preset"].get<std::string>(), e.value("algo", ""),
                             e["time_ns"].dump(), e["algbw_GBps"].dump(), e["busbw_GBps"].dump(),
                             e["time_diff_pct"].dump(), e["busbw_diff_pct"].dump());
        }
    };
    size_t i = 0;
    for (const json& c : report["collectives"]) {
        rows(std::to_string(i++), c["op"].get<std::string>(), c["bytes"], c["ranks"],
             c["per_preset"]);
    }
    rows("total", "total", report["totals"]["bytes"], json(""), report["totals"]["per_preset"]);
    return s;
}

int run(const compare_cli_options& o) {
    if (o.presets.empty()) throw cfg::config_error("--preset: give at least one preset");
    const bool multi = o.traces.size() > 1;
    trace::trace tr;
    std::vector<cfg::config> points;
    std::vector<job_setup> setups;  // several traces: per preset, the placed and merged jobs
    if (!multi) {
        try {
            tr = trace::load_trace(o.traces.front());
        } catch (const trace::trace_error& e) {
            throw cfg::config_error(e.what());
        }
    }
    for (const std::string& name : o.presets) {
        config_options c = o.cfg;
        c.preset = name;
        points.push_back(c.resolve());  // config errors surface here, before any simulation
        if (multi) {
            setups.push_back(prepare_jobs(points.back(), o.traces, ""));
            points.back() = setups.back().config;
            tr = setups.back().merged.t;
        }
        replay_level(points.back(), tr.nranks);  // so does a level that cannot replay the trace
    }
    if (!multi && points.front().jobs.baseline) {
        fmt::print(stderr, "ndrsim compare: note: --baseline acts on several traces only\n");
    }
    const unsigned jobs = o.jobs != 0
                              ? o.jobs
                              : std::max(1u, std::min(std::thread::hardware_concurrency(),
                                                      static_cast<unsigned>(points.size())));
    std::vector<json> results;
    if (multi) {
        // run_points calls fn(points[p]): the point's address names its setup.
        results = run_points(points, jobs, [&setups, &points](const cfg::config& c) {
            for (std::size_t p = 0; p < points.size(); ++p) {
                if (&points[p] == &c) return compare_jobs_point(setups[p]);
            }
            throw std::logic_error("compare: unknown point");
        });
    } else {
        results = run_points(points, jobs, [&tr](const cfg::config& c) {
            const sim_level lv = choose_replay_level(c, tr).level;
            const run_outcome out = run_trace_at(lv, c, tr);
            json r = run_report_json(c, tr, out);
            if (lv != sim_level::cycle) r["sim"]["level"] = level_name(lv);
            return slim_report(r);
        });
    }
    for (size_t p = 0; p < results.size(); ++p) {
        rethrow_point_error(results[p], "preset " + o.presets[p] + ": ");
    }

    json report{{"ndrsim", {{"command", "compare"}, {"report_version", 1}}},
                {"trace", {{"path", tr.path}, {"nranks", tr.nranks}}}};
    report["presets"] = json::array();
    for (size_t p = 0; p < results.size(); ++p) {
        const preset& pr = find_preset(o.presets[p]);
        report["presets"].push_back(json{{"name", pr.name},
                                         {"description", pr.description},
                                         {"soft", pr.soft},
                                         {"fabric", results[p]["fabric"]},
                                         {"sim", results[p]["sim"]},
                                         {"config", results[p]["config"]}});
    }
    const json& base = results[0];
    report["collectives"] = json::array();
    for (size_t i = 0; i < base["collectives"].size(); ++i) {
        const json& c0 = base["collectives"][i];
        json c{{"op", c0["op"]},
               {"bytes", c0["bytes"]},
               {"ranks", c0["ranks"]},
               {"comm", c0.value("comm", json())},
               {"seq", c0.value("seq", json())}};
        c["per_preset"] = json::array();
        for (size_t p = 0; p < results.size(); ++p) {
            c["per_preset"].push_back(entry(o.presets[p], results[p]["collectives"][i], c0));
        }
        report["collectives"].push_back(std::move(c));
    }
    const json t0 = totals_of(base);
    report["totals"] = json{{"bytes", base["totals"]["bytes"]}, {"per_preset", json::array()}};
    for (size_t p = 0; p < results.size(); ++p) {
        report["totals"]["per_preset"].push_back(entry(o.presets[p], totals_of(results[p]), t0));
        report["totals"]["per_preset"].back().erase("algo");
    }
    if (multi) {
        report["trace"]["traces"] = o.traces;
        report["jobs"] = compare_jobs_section(o.presets, results);
    }

    fmt::print("ndrsim compare: {} ({} ranks) on", tr.path, tr.nranks);
    for (const std::string& n : o.presets) fmt::print(" {}", n);
    fmt::print("\n{}", table(report));
    if (multi) fmt::print("{}", compare_jobs_table(o.presets, report["jobs"]));
    if (!o.out.empty()) {
        write_file(o.out, "report.json", report.dump(2) + "\n");
        write_file(o.out, "compare.csv", csv(report));
        fmt::print("report: {0}/report.json, table: {0}/compare.csv\n", o.out);
    }
    return 0;
}

}  // namespace

void add_compare_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand(
        "compare", "replay one trace on several presets and print them side by side");
    auto o = std::make_shared<compare_cli_options>();
    cmd->add_option("trace", o->traces,
                    "trace file (JSON Lines, docs/trace_format.md); several: one job each, run "
                    "together on every preset's fabric (docs/multijob.md)")
        ->required()
        ->check(CLI::ExistingFile);
    o->cfg.add_key_flag(*cmd, "--placement", "jobs.placement",
                        "several traces: packed|spread|random placement of the jobs' hosts");
    cmd->add_flag_function(
        "--baseline",
        [o](std::int64_t) {
            o->cfg.flags.push_back({"--baseline", "jobs.baseline", "true"});
        },
        "several traces: run each job alone on its hosts too and report its slowdown per "
        "preset (= --set jobs.baseline=true)");
    cmd->add_option("--preset", o->presets,
                    "preset to run (repeatable, the first is the baseline; `ndrsim config presets` "
                    "lists them)")
        ->required()
        ->allow_extra_args(false);
    cmd->add_option("--config", o->cfg.file, "YAML config file applied on top of every preset");
    cmd->add_option("--set", o->cfg.sets, "override one config key on every preset (repeatable)")
        ->allow_extra_args(false);
    o->cfg.add_key_flag(*cmd, "--hosts", "fabric.hosts", "hosts (default: the trace's ranks)");
    o->cfg.add_key_flag(*cmd, "--topology", "fabric.topology", "single_switch|fat_tree");
    o->cfg.add_key_flag(*cmd, "--level", "sim.level",
                        "model level of every preset: cycle, tlm or auto (docs/fidelity_tlm.md)");
    cmd->add_option("--out", o->out, "write DIR/report.json and DIR/compare.csv")->check(non_empty);
    cmd->add_option(
        "-j,--jobs", o->jobs,
        "presets simulated in parallel, one child process each (default: min(cores, presets))");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
