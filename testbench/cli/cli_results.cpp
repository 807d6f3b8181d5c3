// `ndrsim results DB`: list, filter, CSV export and a pivot of one metric over two axes of a
// sweep results database (docs/sweeps.md).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>

#include "cli.h"
#include "config/config_error.h"
#include "sweep_db.h"
#include "sweep_table.h"

namespace ndr::tb {

namespace {

using nlohmann::json;

struct results_options {
    std::string db;
    std::string sweep;
    std::string status;
    std::vector<std::string> where;
    std::string csv;
    std::string pivot;
    std::string rows;
    std::string cols;
    std::vector<std::string> metrics;
};

std::string csv_cell(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (const char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string number_text(const json& v) {
    if (v.is_null()) return "";
    if (v.is_number_float()) return fmt::format("{}", v.get<double>());
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

std::string cell(std::optional<double> v) {
    return v ? fmt::format("{:.6g}", *v) : "-";
}

std::vector<std::string> default_metrics(const std::string& kind) {
    if (kind == "run") return {"span_us", "mean_algbw_GBps", "mean_busbw_GBps", "retransmits"};
    return {"offered_load", "accepted_load", "lat_mean_ns", "lat_p99_ns"};
}

void check_metric(const std::vector<sweep_rows>& sweeps, const std::string& m) {
    if (find_metric(m) != nullptr || m == "wall_s") return;
    for (const sweep_rows& s : sweeps) {
        for (const sweep_row& r : s.rows) {
            if (r.metrics.contains(m)) return;
        }
    }
    std::string names;
    for (const metric_column& c : metric_columns())
        names += std::string(names.empty() ? "" : ", ") + c.name;
    throw cfg::config_error(fmt::format("unknown metric '{}' (columns: {}, wall_s)", m, names));
}

int pivot(const results_options& o, const std::vector<sweep_rows>& sweeps) {
    if (o.rows.empty() || o.cols.empty()) {
        throw cfg::config_error("--pivot METRIC needs --rows AXIS and --cols AXIS");
    }
    check_metric(sweeps, o.pivot);
    bool any = false;
    for (const sweep_rows& s : sweeps) {
        const auto has = [&](const std::string& a) {
            return std::find(s.axes.begin(), s.axes.end(), a) != s.axes.end();
        };
        if (!has(o.rows) || !has(o.cols)) continue;  // another sweep of the same database
        any = true;
        const std::vector<std::string> rv = axis_values(s, o.rows);
        const std::vector<std::string> cv = axis_values(s, o.cols);
        // Mean and 95 % Student-t interval over the done points of each cell (repeats and any
        // other axis).
        std::map<std::pair<std::string, std::string>, std::vector<double>> acc;
        for (const sweep_row& r : s.rows) {
            if (r.status != "done") continue;
            const auto v = metric_value(r, o.pivot);
            if (!v) continue;
            acc[{param_text(r, o.rows), param_text(r, o.cols)}].push_back(*v);
        }
        std::size_t max_n = 0;
        for (const auto& [k, v] : acc) max_n = std::max(max_n, v.size());
        const int w = max_n > 1 ? 26 : 14;
        fmt::print("sweep {}: {} (rows {}, columns {})\n", s.sweep_id, o.pivot, o.rows, o.cols);
        std::size_t w0 = o.rows.size();
        for (const std::string& v : rv) w0 = std::max(w0, v.size());
        fmt::print("{:<{}}", o.rows, w0);
        for (const std::string& c : cv) fmt::print(" {:>{}}", c, w);
        fmt::print("\n");
        for (const std::string& rvv : rv) {
            fmt::print("{:<{}}", rvv, w0);
            for (const std::string& c : cv) {
                const auto it = acc.find({rvv, c});
                fmt::print(" {:>{}}",
                           it == acc.end() ? "-" : summary_text(common::mean_ci95(it->second)), w);
            }
            fmt::print("\n");
        }
        if (max_n > 1) {
            fmt::print("(each cell: mean ± 95 % CI half-width (Student t) over n done points)\n");
        }
    }
    if (!any) {
        throw cfg::config_error(
            fmt::format("--pivot: no sweep has both axes {} and {}", o.rows, o.cols));
    }
    return 0;
}

int write_csv(const results_options& o, const std::vector<sweep_rows>& sweeps) {
    std::vector<std::string> axes;
    for (const sweep_rows& s : sweeps) {
        for (const std::string& a : s.axes) {
            if (std::find(axes.begin(), axes.end(), a) == axes.end()) axes.push_back(a);
        }
    }
    std::string t = "sweep_id,point_key,idx,status,seed";
    for (const std::string& a : axes) t += "," + csv_cell(a);
    t += ",wall_s";
    for (const metric_column& m : metric_columns()) t += std::string(",") + m.name;
    for (const metric_column& m : metric_columns())
        t += fmt::format(",{0}_mean,{0}_ci95,{0}_n", m.name);
    t += ",error\n";
    std::size_t n = 0;
    for (const sweep_rows& s : sweeps) {
        for (const sweep_row& r : s.rows) {
            t +=
                fmt::format("{},{},{},{},{}", csv_cell(s.sweep_id), r.key, r.idx, r.status, r.seed);
            for (const std::string& a : axes) t += "," + csv_cell(param_text(r, a));
            t += "," + (r.wall_s ? fmt::format("{}", *r.wall_s) : std::string());
            for (const metric_column& m : metric_columns())
                t += "," + number_text(r.metrics[m.name]);
            for (const metric_column& m : metric_columns()) {
                const common::mean_ci c = repeat_summary(s, r, m.name);
                t += c.n == 0   ? std::string(",,,0")
                     : c.n == 1 ? fmt::format(",{},,1", c.mean)
                                : fmt::format(",{},{},{}", c.mean, c.half_width, c.n);
            }
            t += "," + csv_cell(r.error) + "\n";
            ++n;
        }
    }
    std::ofstream out(o.csv);
    out << t;
    if (!out) throw std::runtime_error("cannot write '" + o.csv + "'");
    fmt::print("wrote {}: {} points, {} columns\n", o.csv, n,
               7 + axes.size() + 4 * metric_columns().size());
    return 0;
}

/// One line per cell (the points that differ only in their seed): each metric as mean ± 95 %
/// Student-t half-width over the done repeats, and n.
void list_repeat_summary(const sweep_rows& s, const std::vector<std::string>& ms) {
    fmt::print("over repeats (mean ± 95 % CI half-width, Student t, n done repeats):\n");
    std::vector<std::string> seen;
    for (const sweep_row& r : s.rows) {
        const std::string cell = cell_of(r);
        if (std::find(seen.begin(), seen.end(), cell) != seen.end()) continue;
        seen.push_back(cell);
        std::string line;
        for (const std::string& a : s.axes) {
            if (a != "repeat") line += fmt::format("{}={} ", a, param_text(r, a));
        }
        for (const std::string& m : ms) {
            line += fmt::format(" {}: {}", m, summary_text(repeat_summary(s, r, m)));
        }
        fmt::print("  {}\n", line);
    }
}

int list(const results_options& o, const std::vector<sweep_rows>& sweeps) {
    for (const std::string& m : o.metrics) check_metric(sweeps, m);
    for (const sweep_rows& s : sweeps) {
        const std::vector<std::string> ms = o.metrics.empty() ? default_metrics(s.kind) : o.metrics;
        std::map<std::string, int> count;
        for (const sweep_row& r : s.rows) ++count[r.status];
        fmt::print("sweep {} ({}): {} points shown: {} done, {} failed, {} pending\n", s.sweep_id,
                   s.kind, s.rows.size(), count["done"], count["failed"], count["pending"]);
        std::vector<std::size_t> w;
        for (const std::string& a : s.axes) {
            std::size_t x = a.size();
            for (const std::string& v : axis_values(s, a)) x = std::max(x, v.size());
            w.push_back(x);
        }
        fmt::print("{:>5} {:<7}", "point", "status");
        for (std::size_t i = 0; i < s.axes.size(); ++i) fmt::print(" {:>{}}", s.axes[i], w[i]);
        for (const std::string& m : ms)
            fmt::print(" {:>{}}", m, std::max<std::size_t>(12, m.size()));
        fmt::print(" {:>8}\n", "wall_s");
        for (const sweep_row& r : s.rows) {
            fmt::print("{:>5} {:<7}", r.idx, r.status);
            for (std::size_t i = 0; i < s.axes.size(); ++i) {
                fmt::print(" {:>{}}", param_text(r, s.axes[i]), w[i]);
            }
            for (const std::string& m : ms) {
                fmt::print(" {:>{}}", cell(metric_value(r, m)),
                           std::max<std::size_t>(12, m.size()));
            }
            fmt::print(" {:>8}{}\n", r.wall_s ? fmt::format("{:.2f}", *r.wall_s) : "-",
                       r.error.empty() ? "" : "  error: " + r.error);
        }
        if (std::find(s.axes.begin(), s.axes.end(), "repeat") != s.axes.end()) {
            list_repeat_summary(s, ms);
        }
    }
    return 0;
}

int run(const results_options& o) {
    if (!std::filesystem::exists(o.db)) {
        throw cfg::config_error(fmt::format("results: no database '{}'", o.db));
    }
    sweep_db db(o.db, true);
    std::string where = "1";
    std::vector<std::string> binds;
    int n = 2;
    if (!o.status.empty()) {
        where += fmt::format(" AND status = ?{}", n++);
        binds.push_back(o.status);
    }
    for (const std::string& w : o.where) {
        const std::size_t eq = w.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw cfg::config_error(fmt::format("--where: expected AXIS=VALUE, got '{}'", w));
        }
        // Axis names contain dots: quote them in the JSON path.
        where += fmt::format(" AND CAST(json_extract(params, ?{}) AS TEXT) = ?{}", n, n + 1);
        n += 2;
        binds.push_back("$.\"" + w.substr(0, eq) + "\"");
        binds.push_back(w.substr(eq + 1));
    }
    const std::vector<sweep_rows> sweeps = load_sweeps(db, o.sweep, where, binds);
    if (!o.pivot.empty()) return pivot(o, sweeps);
    if (!o.csv.empty()) return write_csv(o, sweeps);
    return list(o, sweeps);
}

}  // namespace

void add_results_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand(
        "results", "list, filter, export (CSV) and pivot the results database of ndrsim sweep");
    auto o = std::make_shared<results_options>();
    cmd->add_option("db", o->db, "results database (SQLite)")->required();
    cmd->add_option("--sweep", o->sweep, "only this sweep_id");
    cmd->add_option("--status", o->status, "only points with this status")
        ->check(CLI::IsMember({"done", "failed", "pending"}));
    cmd->add_option("--where", o->where,
                    "only points whose axis has this value: AXIS=VALUE (repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--metric", o->metrics, "metric column to list (repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--csv", o->csv, "write the (filtered) points to a CSV file");
    cmd->add_option("--pivot", o->pivot, "print METRIC as a table over --rows AXIS x --cols AXIS");
    cmd->add_option("--rows", o->rows, "pivot: axis of the rows");
    cmd->add_option("--cols", o->cols, "pivot: axis of the columns");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
