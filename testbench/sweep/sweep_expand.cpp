// Expansion of a sweep into its points (sweep_spec.h): the grid, repeats and seeds, each point's
// resolved configuration and the key that hashes it.
#include "sweep_spec.h"

#include <fmt/format.h>

#include <set>

#include "config/config_dump.h"
#include "config/config_error.h"
#include "config/config_loader.h"
#include "sim_level.h"

namespace ndr::tb {

using nlohmann::json;

std::vector<sweep_point> expand(const sweep_spec& s) {
    std::vector<std::string> base_sets;
    for (const auto& [k, v] : s.sets) base_sets.push_back(k + "=" + v);
    // Values of the file are applied as `--set`s; their errors name the file's line instead.
    const auto from_file = [&s](const cfg::config_error& e) {
        const auto it = s.lines.find(e.key);
        if (e.source.type != cfg::config_source::kind::command_line || it == s.lines.end()) {
            return e;
        }
        return cfg::config_error(cfg::config_source::file(s.path, it->second), e.key, e.reason);
    };
    // The base alone must be valid: its errors are the sweep's, not a point's.
    cfg::config base;
    try {
        base = cfg::load_config(s.config_file, base_sets);
    } catch (const cfg::config_error& e) {
        throw from_file(e);
    }
    std::size_t grid = 1;
    for (const sweep_axis& a : s.axes) {
        // Checked before multiplying: 64 axes of 2 values must not wrap to 0 points.
        if (a.size() > 1000000 / grid) {
            throw cfg::config_error(fmt::format("{}: axes: more than 1000000 points", s.path));
        }
        grid *= a.size();
    }
    if (grid * s.repeats > 1000000) {
        throw cfg::config_error(fmt::format("{}: axes: more than 1000000 points", s.path));
    }
    std::vector<sweep_point> points;
    std::vector<std::size_t> pos(s.axes.size(), 0);
    for (std::size_t g = 0; g < grid; ++g) {
        // Mixed-radix digits, last axis fastest.
        std::size_t rest = g;
        for (std::size_t a = s.axes.size(); a-- > 0;) {
            pos[a] = rest % s.axes[a].size();
            rest /= s.axes[a].size();
        }
        json params = json::object();
        std::vector<std::string> sets = base_sets;
        std::string trace = s.trace;
        for (std::size_t a = 0; a < s.axes.size(); ++a) {
            for (std::size_t k = 0; k < s.axes[a].keys.size(); ++k) {
                const std::string& key = s.axes[a].keys[k];
                const std::string& val = s.axes[a].values[k][pos[a]];
                params[key] = val;
                if (key == "trace") {
                    trace = sweep_relative_path(s.path, val);
                } else {
                    sets.push_back(key + "=" + val);
                }
            }
        }
        for (unsigned r = 0; r < s.repeats; ++r) {
            sweep_point p;
            p.index = points.size();
            p.repeat = r;
            p.seed = s.seeds.empty() ? base.sim.seed + r : s.seeds[r];
            p.params = params;
            if (s.repeats > 1) p.params["repeat"] = r;
            p.trace = trace;
            std::vector<std::string> ps = sets;
            ps.push_back(fmt::format("sim.seed={}", p.seed));
            json canon = json::object();
            canon["kind"] = s.kind;
            try {
                const cfg::config c = cfg::load_config(s.config_file, ps);
                // A level that cannot do this kind of job makes the point invalid (one line).
                if (s.kind == "run") {
                    replay_level(c, 0);
                } else {
                    traffic_level(c);
                }
                json flat = json::object();
                for (const auto& [k, v] : cfg::flatten(c)) flat[k] = v;
                p.config = flat;
                canon["config"] = flat;
            } catch (const cfg::config_error& e) {
                p.error = from_file(e).what();
                canon["invalid"] = {{"base", base_sets}, {"params", params}, {"seed", p.seed}};
            }
            if (s.kind == "run") {
                std::string content;
                try {
                    content = read_sweep_input(trace);
                } catch (const cfg::config_error& e) {
                    if (p.error.empty()) p.error = e.what();
                }
                canon["trace"] = fnv1a_hex(content);
            }
            p.canonical = canon.dump();
            p.key = fnv1a_hex(p.canonical);
            points.push_back(std::move(p));
        }
    }
    std::set<std::string> keys;
    for (const sweep_point& p : points) {
        if (!keys.insert(p.key).second) {
            throw cfg::config_error(fmt::format(
                "{}: point {} ({}) resolves to the same configuration as an earlier point", s.path,
                p.index, p.params.dump()));
        }
    }
    return points;
}

}  // namespace ndr::tb
