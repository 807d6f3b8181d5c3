#include <fmt/format.h>

#include <cmath>
#include <memory>
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
    unsigned jobs = 0;
    bool quiet = false;
};

double parse_number(const std::string& s, const std::string& what) {
    std::size_t used = 0;
    double v = 0.0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != s.size() || s.empty()) {
        throw cfg::config_error(cfg::config_source::flag("--load"), "traffic.load",
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

int run(const traffic_options& o) {
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
    auto results = run_points(points, jobs, [level](const cfg::config& c) {
        nlohmann::json j = traffic_point_json(c, run_traffic_at_level(c));
        if (level != "cycle") j["sim"]["level"] = level;  // cycle-level reports stay unchanged
        j["sim"]["peak_rss_MiB"] = peak_rss_mib();
        return j;
    });
    for (std::size_t i = 0; i < results.size(); ++i) {
        rethrow_point_error(results[i], fmt::format("load {}: ", points[i].traffic.load));
    }
    if (!o.quiet) {
        fmt::print(
            "ndrsim traffic{}: {}-port switch, pattern {}, size {}, queueing {}, allocator {}\n",
            level == "tlm"   ? " (TLM level)"
            : level == "rtl" ? " (RTL level)"
                             : "",
            base.sw.ports, base.traffic.pattern, base.traffic.size, base.sw.queueing,
            base.sw.allocator);
        fmt::print("{}", traffic_table(results));
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
