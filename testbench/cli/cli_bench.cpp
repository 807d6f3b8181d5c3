// `ndrsim bench`: simulator speed on the default 64-port switch under uniform traffic.
// Each scenario runs in its own process, one at a time (single-core figures).
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "cli.h"
#include "config/config_loader.h"
#include "config/config_source.h"
#include "point_runner.h"
#include "traffic_report.h"
#include "traffic_sim.h"

namespace ndr::tb {

namespace {

struct bench_options {
    config_options cfg;
    uint64_t cycles = 0;
    unsigned repeat = 3;
    std::string out;
};

struct scenario {
    const char* name;
    const char* load;
    const char* size;  ///< payload bytes; 36 B payload = 62 B on the wire = 1 credit block
    uint64_t cycles;
};

int run(const bench_options& o) {
    const scenario scenarios[] = {
        {"uniform 50% 4KiB", "0.5", "4096", 1'000'000},
        {"uniform 100% 4KiB", "1.0", "4096", 1'000'000},
        {"uniform 50% 64B", "0.5", "36", 200'000},
        {"uniform 100% 64B", "1.0", "36", 200'000},
        {"saturated 64B", "backlogged", "36", 200'000},
    };
    std::vector<cfg::config> points;
    for (const scenario& s : scenarios) {
        cfg::config c = o.cfg.resolve();
        const auto flag = cfg::config_source::flag("bench");
        cfg::set_value(c, "traffic.pattern", "uniform", flag);
        if (std::string(s.load) == "backlogged") {
            cfg::set_value(c, "traffic.arrivals", "backlogged", flag);
        } else {
            cfg::set_value(c, "traffic.load", s.load, flag);
        }
        cfg::set_value(c, "traffic.size", s.size, flag);
        const uint64_t cycles = o.cycles != 0 ? o.cycles : s.cycles;
        c.sim.warmup_cycles = cycles / 10;
        c.sim.measure_cycles = cycles - cycles / 10;
        c.sim.drain_cycles = 0;
        points.push_back(c);
    }
    // Passes over all scenarios, one after the other: a slow spell of the host then spreads
    // over every scenario instead of hitting the repeats of one.
    std::vector<cfg::config> runs;
    for (unsigned r = 0; r < o.repeat; ++r) runs.insert(runs.end(), points.begin(), points.end());
    auto results = run_points(runs, 1, [](const cfg::config& c) {
        nlohmann::json j = traffic_point_json(c, run_traffic(c));
        j["sim"]["peak_rss_MiB"] = peak_rss_mib();
        return j;
    });
    fmt::print("{:<24} {:>10} {:>8} {:>14} {:>16} {:>9} {:>9}{}\n", "scenario", "cycles", "wall s",
               "cycles/wall s", "delivered pkt/s", "accepted", "RSS MiB",
               o.repeat > 1 ? fmt::format("  pkt/s over {} runs (min-max)", o.repeat) : "");
    nlohmann::json rows = nlohmann::json::array();
    const std::size_t n = points.size();
    for (std::size_t i = 0; i < n; ++i) {
        // The median run by wall time (the lower middle one for an even count).
        std::vector<const nlohmann::json*> mine;
        for (unsigned r = 0; r < o.repeat; ++r) {
            const auto& res = results[r * n + i];
            rethrow_point_error(res, std::string(scenarios[i].name) + ": ");
            mine.push_back(&res);
        }
        std::sort(mine.begin(), mine.end(), [](const nlohmann::json* a, const nlohmann::json* b) {
            return (*a)["sim"]["wall_s"].get<double>() < (*b)["sim"]["wall_s"].get<double>();
        });
        const auto& r = *mine[(mine.size() - 1) / 2];
        const auto rate = [](const nlohmann::json* j) {
            return (*j)["sim"]["packets_per_wall_s"].get<double>();
        };
        fmt::print(
            "{:<24} {:>10} {:>8.2f} {:>14.0f} {:>16.0f} {:>9.3f} {:>9.1f}{}\n", scenarios[i].name,
            r["sim"]["cycles"].get<uint64_t>(), r["sim"]["wall_s"].get<double>(),
            r["sim"]["cycles_per_wall_s"].get<double>(), rate(&r),
            r["traffic"]["accepted_load"].get<double>(), r["sim"]["peak_rss_MiB"].get<double>(),
            o.repeat > 1 ? fmt::format("  {:.0f}-{:.0f}", rate(mine.back()), rate(mine.front()))
                         : "");
        nlohmann::json all = nlohmann::json::array();
        for (unsigned k = 0; k < o.repeat; ++k) all.push_back(results[k * n + i]["sim"]);
        rows.push_back({{"scenario", scenarios[i].name},
                        {"sim", r["sim"]},
                        {"accepted_load", r["traffic"]["accepted_load"]},
                        {"runs", all}});
    }
    if (!o.out.empty()) write_file(o.out, "bench.json", rows.dump(2) + "\n");
    return 0;
}

}  // namespace

void add_bench_command(CLI::App& app, command_action& action) {
    CLI::App* cmd =
        app.add_subcommand("bench",
                           "simulator speed: the configured switch (64 ports by default), uniform "
                           "traffic, 50%/100% load and saturation, 4 KiB and 64 B packets");
    auto o = std::make_shared<bench_options>();
    o->cfg.add_to(*cmd);
    cmd->add_option("--cycles", o->cycles, "simulated cycles per scenario (default 1M / 200k)")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1000000000000}));
    cmd->add_option("--repeat", o->repeat,
                    "runs of each scenario; the table shows the median (by wall time)")
        ->check(CLI::Range(1U, 100U));
    cmd->add_option("--out", o->out, "write DIR/bench.json")->check(non_empty);
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
