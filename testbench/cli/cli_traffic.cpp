#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <optional>
#include <thread>

#include "cli.h"
#include "common/timing.h"
#include "config/config_error.h"
#include "config/config_loader.h"
#include "config/unit_parse.h"
#include "config/validate.h"
#include "point_runner.h"
#include "sim_level.h"
#include "traffic_report.h"
#include "traffic_sim.h"

namespace ndr::tb {

namespace {

struct traffic_options {
    config_options cfg;
    std::string load;
    std::string time;
    std::string out;
    std::string precision;
    unsigned jobs = 0;
    bool quiet = false;
};

/// --precision P: the window doubles up to this many times (64 x the configured window).
constexpr int precision_doublings = 6;

double parse_number(const std::string& s, const std::string& what,
                    const std::string& flag = "--load", const std::string& key = "traffic.load") {
    std::size_t used = 0;
    double v = 0.0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != s.size() || s.empty()) {
        throw cfg::config_error(cfg::config_source::flag(flag), key,
                                fmt::format("expected a number, got '{}' in '{}'", s, what));
    }
    return v;
}

/// "0.5" or "first:last:step".
std::vector<double> parse_loads(const std::string& text) {
    const std::size_t c1 = text.find(':');
    if (c1 == std::string::npos) return {parse_number(text, text)};
    const std::size_t c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos) {
        throw cfg::config_error(cfg::config_source::flag("--load"), "traffic.load",
                                fmt::format("expected L or FIRST:LAST:STEP, got '{}'", text));
    }
    const double a = parse_number(text.substr(0, c1), text);
    const double b = parse_number(text.substr(c1 + 1, c2 - c1 - 1), text);
    const double step = parse_number(text.substr(c2 + 1), text);
    if (!(step > 0.0) || b < a) {
        throw cfg::config_error(cfg::config_source::flag("--load"), "traffic.load",
                                fmt::format("'{}' needs FIRST <= LAST and STEP > 0", text));
    }
    std::vector<double> v;
    for (int i = 0;; ++i) {
        const double x = a + step * i;
        if (x > b + 1e-9) break;
        v.push_back(std::round(x * 1e9) / 1e9);
        if (v.size() > 1000) {
            throw cfg::config_error(cfg::config_source::flag("--load"), "traffic.load",
                                    "more than 1000 load points");
        }
    }
    return v;
}

/// --precision P: a number > 0 (a relative half-width, e.g. 0.01).
double parse_precision(const std::string& text) {
    const double p = parse_number(text, text, "--precision", "precision");
    if (!(p > 0.0) || !std::isfinite(p)) {
        throw cfg::config_error(cfg::config_source::flag("--precision"), "precision",
                                fmt::format("expected a relative half-width > 0, got '{}'", text));
    }
    return p;
}

/// Relative half-width of a CI (half-width / |estimate|); nullopt if either is missing or 0.
std::optional<double> relative(const nlohmann::json& hw, const nlohmann::json& v) {
    if (!hw.is_number() || !v.is_number() || v.get<double>() == 0.0) return std::nullopt;
    return hw.get<double>() / std::fabs(v.get<double>());
}

/// Whether a point's mean latency and accepted load intervals are below `p` (relative).
bool precise_enough(const nlohmann::json& j, double p) {
    const auto lat = relative(j["latency_ns"]["mean_ci95"], j["latency_ns"]["mean"]);
    const auto acc = relative(j["traffic"]["accepted_load_ci95"], j["traffic"]["accepted_load"]);
    return lat && acc && *lat < p && *acc < p;
}

/// --precision: re-runs every point whose intervals are too wide with its window doubled, at
/// most precision_doublings times; records the outcome in sim.precision of each point.
void refine(std::vector<cfg::config>& points, std::vector<nlohmann::json>& results, double p,
            unsigned jobs, const point_fn& fn) {
    std::vector<std::vector<uint64_t>> tried(points.size());
    std::vector<uint64_t> cap(points.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        tried[i].push_back(points[i].sim.measure_cycles);
        cap[i] = points[i].sim.measure_cycles << precision_doublings;
    }
    for (int round = 0; round < precision_doublings; ++round) {
        std::vector<std::size_t> again;
        std::vector<cfg::config> cfgs;
        for (std::size_t i = 0; i < points.size(); ++i) {
            if (results[i].contains("error") || precise_enough(results[i], p)) continue;
            points[i].sim.measure_cycles *= 2;
            tried[i].push_back(points[i].sim.measure_cycles);
            again.push_back(i);
            cfgs.push_back(points[i]);
        }
        if (again.empty()) break;
        std::vector<nlohmann::json> r = run_points(cfgs, jobs, fn, true);
        for (std::size_t k = 0; k < again.size(); ++k) results[again[k]] = std::move(r[k]);
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        nlohmann::json& j = results[i];
        if (j.contains("error")) continue;
        const auto lat = relative(j["latency_ns"]["mean_ci95"], j["latency_ns"]["mean"]);
        const auto acc =
            relative(j["traffic"]["accepted_load_ci95"], j["traffic"]["accepted_load"]);
        const auto num = [](std::optional<double> v) {
            return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
        };
        j["sim"]["precision"] = {{"target", p},
                                 {"reached", precise_enough(j, p)},
                                 {"latency_mean_rel_ci95", num(lat)},
                                 {"accepted_load_rel_ci95", num(acc)},
                                 {"windows_cycles", tried[i]},
                                 {"cap_cycles", cap[i]}};
    }
}

/// The warm-up check's warning on stderr (always, also with -q).
void warn_about(const nlohmann::json& j) {
    const nlohmann::json& w = j["warmup_check"];
    if (w["verdict"] != "too_short") return;
    fmt::print(stderr,
               "ndrsim traffic: warning: load {}: warm-up of {} cycles looks too short: MSER-5 "
               "puts the end of the transient at cycle {} (try --warmup {})\n",
               j["traffic"]["configured_load"].get<double>(),
               j["sim"]["warmup_cycles"].get<uint64_t>(), w["truncation_cycle"].get<uint64_t>(),
               w["suggested_warmup_cycles"].get<uint64_t>());
}

/// One line per point: the relative half-widths reached and the window that reached them.
std::string precision_lines(const std::vector<nlohmann::json>& results) {
    std::string s;
    const auto pct = [](const nlohmann::json& v) {
        return v.is_number() ? fmt::format("{:.2f} %", 100.0 * v.get<double>()) : std::string("-");
    };
    for (const nlohmann::json& j : results) {
        const nlohmann::json& p = j["sim"]["precision"];
        s += fmt::format(
            "precision load {}: mean latency +/- {}, accepted load +/- {} (95 % CI, relative) "
            "after {} window cycles: {}\n",
            j["traffic"]["configured_load"].get<double>(), pct(p["latency_mean_rel_ci95"]),
            pct(p["accepted_load_rel_ci95"]), j["sim"]["window_cycles"].get<uint64_t>(),
            p["reached"].get<bool>()
                ? fmt::format("below {}", p["target"].get<double>())
                : fmt::format("target {} NOT reached (cap: {} cycles)", p["target"].get<double>(),
                              p["cap_cycles"].get<uint64_t>()));
    }
    return s;
}

int run(const traffic_options& o) {
    const double precision = o.precision.empty() ? 0.0 : parse_precision(o.precision);  // 0: off
    // traffic_level refuses a level or key this command cannot run; inside resolve() its error
    // names the file line or flag that set the key.
    cfg::config base = o.cfg.resolve([](const cfg::config& c) { traffic_level(c); });
    const sim_level lv = traffic_level(base);
    const std::string level(level_name(lv));
    if (!o.time.empty()) {
        const common::timing tm = common::derive_timing(base);
        cfg::time_ps_t t;
        try {
            t = cfg::parse_time(o.time);
        } catch (const cfg::config_error& e) {
            throw cfg::config_error(cfg::config_source::flag("--time"), "sim.measure_cycles",
                                    e.reason);
        }
        base.sim.measure_cycles = (t.ps + tm.cycle_ps - 1) / tm.cycle_ps;
        cfg::validate(base);
    }
    std::vector<cfg::config> points;
    if (o.load.empty()) {
        points.push_back(base);
    } else {
        for (double l : parse_loads(o.load)) {
            cfg::config c = base;
            cfg::set_value(c, "traffic.load", fmt::format("{}", l),
                           cfg::config_source::flag("--load"));
            points.push_back(c);
        }
    }
    const unsigned jobs = o.jobs != 0 ? o.jobs : std::max(1U, std::thread::hardware_concurrency());
    const point_fn fn = [level](const cfg::config& c) {
        nlohmann::json j = traffic_point_json(c, run_traffic_at_level(c));
        if (level != "cycle") j["sim"]["level"] = level;  // cycle-level reports stay unchanged
        j["sim"]["peak_rss_MiB"] = peak_rss_mib();
        return j;
    };
    auto results = run_points(points, jobs, fn, precision > 0.0);
    if (precision > 0.0) refine(points, results, precision, jobs, fn);
    for (std::size_t i = 0; i < results.size(); ++i) {
        rethrow_point_error(results[i], fmt::format("load {}: ", points[i].traffic.load));
    }
    for (const nlohmann::json& j : results) warn_about(j);
    if (!o.quiet) {
        fmt::print(
            "ndrsim traffic{}: {}-port switch, pattern {}, size {}, queueing {}, allocator {}\n",
            level == "tlm"   ? " (TLM level)"
            : level == "rtl" ? " (RTL level)"
                             : "",
            base.sw.ports, base.traffic.pattern, base.traffic.size, base.sw.queueing,
            base.sw.allocator);
        fmt::print("{}", traffic_table(results));
        if (precision > 0.0) fmt::print("{}", precision_lines(results));
    }
    if (!o.out.empty()) {
        write_file(o.out, "report.json", traffic_report_json(base, results).dump(2) + "\n");
        if (!o.quiet) fmt::print("report: {}/report.json\n", o.out);
    }
    return 0;
}

}  // namespace

void add_traffic_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand(
        "traffic", "synthetic traffic through the cycle-level switch: latency and throughput");
    auto o = std::make_shared<traffic_options>();
    o->cfg.add_to(*cmd);
    o->cfg.add_key_flag(*cmd, "--ports", "switch.ports", "switch radix and endpoint count");
    o->cfg.add_key_flag(*cmd, "--pattern", "traffic.pattern",
                        "uniform|permutation|hotspot|incast|bitcomp");
    cmd->add_option("--load", o->load,
                    "offered load, fraction of line rate: L, or FIRST:LAST:STEP for a curve")
        ->check(non_empty);
    o->cfg.add_key_flag(*cmd, "--size", "traffic.size",
                        "payload bytes: N or N@weight,M@weight (on the wire: padded to 4 B, plus "
                        "26 B of headers and CRCs)");
    o->cfg.add_key_flag(*cmd, "--cycles", "sim.measure_cycles", "measurement window, cycles");
    cmd->add_option("--time", o->time, "measurement window as a time, e.g. 100us");
    o->cfg.add_key_flag(*cmd, "--warmup", "sim.warmup_cycles", "warm-up cycles");
    o->cfg.add_key_flag(*cmd, "--seed", "sim.seed", "random seed");
    o->cfg.add_key_flag(*cmd, "--queueing", "switch.queueing", "voq|fifo");
    o->cfg.add_key_flag(*cmd, "--allocator", "switch.allocator", "islip|rr");
    cmd->add_option("--precision", o->precision,
                    "run until the 95 % CI half-widths of mean latency and accepted load are "
                    "below P (relative, e.g. 0.01), doubling the window up to 64x");
    cmd->add_option("--out", o->out, "write DIR/report.json")->check(non_empty);
    o->cfg.add_key_flag(*cmd, "--level", "sim.level",
                        "model level: cycle (cycle-level switch; also auto), tlm (TLM-2.0 switch "
                        "and links, docs/fidelity_tlm.md) or rtl (the Verilated "
                        "rtl/ib_switch_core, at most its built port count, rtl/README.md)");
    cmd->add_option("-j,--jobs", o->jobs, "load points run in parallel (default: all cores)");
    cmd->add_flag("-q,--quiet", o->quiet, "no table on stdout");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
