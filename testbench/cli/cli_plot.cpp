// `ndrsim plot DB -o DIR`: PNG figures of a sweep results database, drawn by matplotlib
// (python3-matplotlib, installed by setup.sh): latency and throughput vs offered load, algbw and
// busbw vs message size per algorithm, metric vs axis lines and heat maps (docs/sweeps.md).
// This file computes every number; the embedded Python script only draws.
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "cli.h"
#include "config/config_error.h"
#include "sweep_db.h"
#include "sweep_table.h"

namespace ndr::tb {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Draws every figure of a JSON list (argv[1]) into PNG files; the layout is built in C++ below.
constexpr const char* plot_script = R"PY(
import json, sys, math
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
figs = json.load(open(sys.argv[1]))
for f in figs:
    if f["type"] == "lines":
        panels = f["panels"]
        fig, axs = plt.subplots(1, len(panels), figsize=(6.4 * len(panels), 4.6), squeeze=False)
        for ax, p in zip(axs[0], panels):
            for s in p["series"]:
                pts = [(x, y) for x, y in zip(s["x"], s["y"]) if y is not None]
                if not pts:
                    continue
                ax.plot([a for a, _ in pts], [b for _, b in pts], marker="o", label=s["label"])
            if p.get("diagonal"):
                lo, hi = ax.get_xlim()
                ax.plot([0, hi], [0, hi], color="grey", linestyle=":", label="accepted = offered")
            if f.get("xlog"):
                ax.set_xscale("log", base=2)
            if f.get("xticks"):
                ax.set_xticks(range(len(f["xticks"])))
                ax.set_xticklabels(f["xticks"], rotation=20, ha="right")
            ax.set_xlabel(f["xlabel"])
            ax.set_ylabel(p["ylabel"])
            ax.set_title(p.get("title", ""))
            ax.grid(True, alpha=0.3)
            if any(s["y"] for s in p["series"]):
                ax.legend(fontsize=8)
        fig.suptitle(f["title"])
    else:
        v = f["values"]
        fig, ax = plt.subplots(figsize=(1.2 * len(f["xticklabels"]) + 4, 0.6 * len(f["yticklabels"]) + 3))
        data = [[float("nan") if c is None else c for c in row] for row in v]
        im = ax.imshow(data, aspect="auto", origin="lower", cmap="viridis")
        ax.set_xticks(range(len(f["xticklabels"])))
        ax.set_xticklabels(f["xticklabels"], rotation=20, ha="right")
        ax.set_yticks(range(len(f["yticklabels"])))
        ax.set_yticklabels(f["yticklabels"])
        ax.set_xlabel(f["xlabel"])
        ax.set_ylabel(f["ylabel"])
        finite = [c for row in data for c in row if not math.isnan(c)]
        mid = (min(finite) + max(finite)) / 2 if finite else 0
        for i, row in enumerate(data):
            for j, c in enumerate(row):
                if not math.isnan(c):
                    ax.text(j, i, "%.4g" % c, ha="center", va="center", fontsize=8,
                            color="white" if c < mid else "black")
        fig.colorbar(im, ax=ax, label=f["cbar"])
        ax.set_title(f["title"])
    fig.tight_layout()
    fig.savefig(f["file"], dpi=100)
    plt.close(fig)
    print(f["file"])
)PY";

struct plot_options {
    std::string db;
    std::string out;
    std::string sweep;
    std::string x;
    std::vector<std::string> ys;
    std::string heatmap;
    std::string rows;
    std::string cols;
};

std::string metric_label(const std::string& m) {
    const metric_column* c = find_metric(m);
    if (m == "wall_s") return "wall_s [s]";
    if (c == nullptr || std::string(c->unit).empty()) return m;
    return fmt::format("{} [{}]", m, c->unit);
}

/// x positions and label of one axis: numeric (with unit) or categorical (index + tick labels).
struct axis_scale {
    std::vector<std::string> values;
    std::vector<double> x;
    std::string label;
    json ticks;  ///< null if numeric
};

axis_scale scale_of(const sweep_rows& s, const std::string& axis) {
    axis_scale a;
    a.values = axis_values(s, axis);
    std::string unit;
    if (auto v = axis_numbers(a.values, unit)) {
        a.x = *v;
        bool kib = unit == "B";
        for (double d : a.x) kib = kib && d >= 1024.0 && std::fmod(d, 1024.0) == 0.0;
        if (kib) {
            for (double& d : a.x) d /= 1024.0;
            unit = "KiB";
        }
        a.label = unit.empty() ? axis : fmt::format("{} [{}]", axis, unit);
        a.ticks = nullptr;
    } else {
        for (std::size_t i = 0; i < a.values.size(); ++i) a.x.push_back(static_cast<double>(i));
        a.label = axis;
        a.ticks = a.values;
    }
    return a;
}

/// Label of the other axes' values of a row (repeats excluded): the series it belongs to.
std::string series_label(const sweep_rows& s, const sweep_row& r,
                         const std::vector<std::string>& skip) {
    std::string l;
    for (const std::string& a : s.axes) {
        if (a == "repeat" || std::find(skip.begin(), skip.end(), a) != skip.end()) continue;
        if (axis_values(s, a).size() < 2) continue;
        l += fmt::format("{}{}={}", l.empty() ? "" : ", ", a, param_text(r, a));
    }
    return l.empty() ? "all" : l;
}

std::vector<std::string> series_order(const sweep_rows& s, const std::vector<std::string>& skip) {
    std::vector<std::string> v;
    for (const sweep_row& r : s.rows) {
        const std::string l = series_label(s, r, skip);
        if (std::find(v.begin(), v.end(), l) == v.end()) v.push_back(l);
    }
    return v;
}

/// Mean of a metric over the done rows of one series at one axis value.
json mean_at(const sweep_rows& s, const std::string& series, const std::vector<std::string>& skip,
             const std::string& axis, const std::string& value, const std::string& metric) {
    double sum = 0.0;
    int n = 0;
    for (const sweep_row& r : s.rows) {
        if (r.status != "done" || series_label(s, r, skip) != series) continue;
        if (param_text(r, axis) != value) continue;
        if (const auto v = metric_value(r, metric)) {
            sum += *v;
            ++n;
        }
    }
    return n ? json(sum / n) : json(nullptr);
}

json metric_vs_axis(const sweep_rows& s, const std::string& axis, const std::string& metric,
                    const std::string& dir) {
    const axis_scale a = scale_of(s, axis);
    json series = json::array();
    for (const std::string& label : series_order(s, {axis})) {
        json ys = json::array();
        for (const std::string& v : a.values)
            ys.push_back(mean_at(s, label, {axis}, axis, v, metric));
        series.push_back({{"label", label}, {"x", a.x}, {"y", ys}});
    }
    std::string file = fmt::format("{}_{}_vs_{}.png", s.sweep_id, metric, axis);
    return {{"type", "lines"},
            {"file", (fs::path(dir) / file).string()},
            {"title", fmt::format("{}: {} vs {}", s.sweep_id, metric, axis)},
            {"xlabel", a.label},
            {"xticks", a.ticks},
            {"panels", json::array({{{"ylabel", metric_label(metric)}, {"series", series}}})}};
}

json load_curves(const sweep_rows& s, const std::string& dir, bool latency) {
    const std::string axis = "traffic.load";
    const std::vector<std::string> loads = axis_values(s, axis);
    const std::vector<std::string> ms = latency
                                            ? std::vector<std::string>{"lat_mean_ns", "lat_p99_ns"}
                                            : std::vector<std::string>{"accepted_load"};
    json panels = json::array();
    for (const std::string& m : ms) {
        json series = json::array();
        for (const std::string& label : series_order(s, {axis})) {
            json xs = json::array();
            json ys = json::array();
            for (const std::string& l : loads) {
                const json x = mean_at(s, label, {axis}, axis, l, "offered_load");
                if (x.is_null()) continue;
                xs.push_back(x);
                ys.push_back(mean_at(s, label, {axis}, axis, l, m));
            }
            series.push_back({{"label", label}, {"x", xs}, {"y", ys}});
        }
        panels.push_back({{"ylabel", metric_label(m)},
                          {"title", m == "lat_mean_ns"  ? "mean latency"
                                    : m == "lat_p99_ns" ? "99th percentile latency"
                                                        : "throughput"},
                          {"series", series},
                          {"diagonal", !latency}});
    }
    return {{"type", "lines"},
            {"file", (fs::path(dir) / fmt::format("{}_{}_vs_load.png", s.sweep_id,
                                                  latency ? "latency" : "throughput"))
                         .string()},
            {"title", fmt::format("{}: {} vs offered load", s.sweep_id,
                                  latency ? "latency" : "accepted throughput")},
            {"xlabel", "offered load [fraction of line rate]"},
            {"xticks", nullptr},
            {"panels", panels}};
}

json bandwidth_vs_size(const sweep_rows& s, const std::string& dir) {
    // (series label incl. algo and op) -> bytes -> (sum algbw, sum busbw, n)
    std::map<std::string, std::map<double, std::array<double, 3>>> acc;
    std::vector<std::string> order;
    for (const sweep_row& r : s.rows) {
        if (r.status != "done" || !r.metrics.contains("per_collective")) continue;
        const std::string base = series_label(s, r, {});
        for (const json& c : r.metrics["per_collective"]) {
            const std::string label =
                fmt::format("{} {}{}", c["op"].get<std::string>(), c["algo"].get<std::string>(),
                            base == "all" ? "" : ", " + base);
            if (!acc.count(label)) order.push_back(label);
            auto& a = acc[label][c["bytes"].get<double>()];
            a[0] += c["algbw_GBps"].get<double>();
            a[1] += c["busbw_GBps"].get<double>();
            a[2] += 1.0;
        }
    }
    json panels = json::array();
    for (int k = 0; k < 2; ++k) {
        json series = json::array();
        for (const std::string& label : order) {
            json xs = json::array();
            json ys = json::array();
            for (const auto& [bytes, a] : acc[label]) {
                xs.push_back(bytes);
                ys.push_back(a[static_cast<std::size_t>(k)] / a[2]);
            }
            series.push_back({{"label", label}, {"x", xs}, {"y", ys}});
        }
        panels.push_back({{"ylabel", k == 0 ? "algbw [GB/s]" : "busbw [GB/s]"},
                          {"title", k == 0 ? "algorithm bandwidth" : "bus bandwidth"},
                          {"series", series}});
    }
    return {
        {"type", "lines"},
        {"file", (fs::path(dir) / fmt::format("{}_bandwidth_vs_size.png", s.sweep_id)).string()},
        {"title", fmt::format("{}: collective bandwidth vs message size", s.sweep_id)},
        {"xlabel", "message size S [B] (log2)"},
        {"xlog", true},
        {"xticks", nullptr},
        {"panels", panels}};
}

json heat_map(const sweep_rows& s, const std::string& metric, const std::string& rows,
              const std::string& cols, const std::string& dir) {
    const axis_scale rs = scale_of(s, rows);
    const axis_scale cs = scale_of(s, cols);
    json values = json::array();
    for (const std::string& rv : rs.values) {
        json line = json::array();
        for (const std::string& cv : cs.values) {
            double sum = 0.0;
            int n = 0;
            for (const sweep_row& r : s.rows) {
                if (r.status != "done" || param_text(r, rows) != rv || param_text(r, cols) != cv)
                    continue;
                if (const auto v = metric_value(r, metric)) {
                    sum += *v;
                    ++n;
                }
            }
            line.push_back(n ? json(sum / n) : json(nullptr));
        }
        values.push_back(line);
    }
    return {
        {"type", "heatmap"},
        {"file", (fs::path(dir) / fmt::format("{}_heatmap_{}.png", s.sweep_id, metric)).string()},
        {"title", fmt::format("{}: {} (mean over other axes and repeats)", s.sweep_id, metric)},
        {"xlabel", cs.label},
        {"ylabel", rs.label},
        {"xticklabels", cs.values},
        {"yticklabels", rs.values},
        {"values", values},
        {"cbar", metric_label(metric)}};
}

/// The interpreter: $NDRSIM_PYTHON, else Debian's /usr/bin/python3 (where python3-matplotlib
/// installs; a pyenv or venv python3 earlier in PATH usually lacks it), else python3 on PATH.
std::string python_exe() {
    if (const char* p = std::getenv("NDRSIM_PYTHON"); p != nullptr && *p != '\0') return p;
    if (::access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
    return "python3";
}

int run_python(const std::string& script, const std::string& data) {
    const std::string py = python_exe();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
        std::string a0 = py;
        std::string a1 = script;
        std::string a2 = data;
        char* argv[] = {a0.data(), a1.data(), a2.data(), nullptr};
        ::execvp(py.c_str(), argv);
        std::_Exit(127);
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int run(const plot_options& o) {
    if (!fs::exists(o.db)) throw cfg::config_error(fmt::format("plot: no database '{}'", o.db));
    sweep_db db(o.db, true);
    const std::vector<sweep_rows> sweeps = load_sweeps(db, o.sweep);
    fs::create_directories(o.out);
    json figs = json::array();
    for (const sweep_rows& s : sweeps) {
        std::vector<std::string> axes;  // axes with at least two values, repeats excluded
        for (const std::string& a : s.axes) {
            if (a != "repeat" && axis_values(s, a).size() > 1) axes.push_back(a);
        }
        const auto has = [&](const std::string& a) {
            return std::find(s.axes.begin(), s.axes.end(), a) != s.axes.end();
        };
        std::size_t before = figs.size();
        if (s.kind == "traffic" && has("traffic.load")) {
            figs.push_back(load_curves(s, o.out, true));
            figs.push_back(load_curves(s, o.out, false));
        }
        if (s.kind == "run") figs.push_back(bandwidth_vs_size(s, o.out));
        const std::string x = !o.x.empty() ? o.x : axes.empty() ? "" : axes[0];
        if (!x.empty() && !has(x)) {
            throw cfg::config_error(fmt::format("--x: sweep {} has no axis '{}'", s.sweep_id, x));
        }
        for (const std::string& y : o.ys) {
            if (!x.empty()) figs.push_back(metric_vs_axis(s, x, y, o.out));
        }
        const std::string dflt = s.kind == "run" ? "span_us" : "lat_p99_ns";
        if (figs.size() == before + (s.kind == "run" ? 1 : 0) && o.ys.empty() && !x.empty() &&
            x != "traffic.load") {
            figs.push_back(metric_vs_axis(s, x, dflt, o.out));
        }
        const std::string hr = !o.rows.empty() ? o.rows : axes.size() > 1 ? axes[0] : "";
        const std::string hc = !o.cols.empty() ? o.cols : axes.size() > 1 ? axes[1] : "";
        if (!hr.empty() && !hc.empty() && has(hr) && has(hc)) {
            figs.push_back(heat_map(s, o.heatmap.empty() ? dflt : o.heatmap, hr, hc, o.out));
        }
    }
    if (figs.empty()) {
        fmt::print("nothing to plot: no sweep with an axis of two or more values\n");
        return 0;
    }
    const std::string data = (fs::path(o.out) / ".ndrsim_plot.json").string();
    const std::string script = (fs::path(o.out) / ".ndrsim_plot.py").string();
    write_file(o.out, ".ndrsim_plot.json", figs.dump());
    write_file(o.out, ".ndrsim_plot.py", plot_script);
    std::fflush(stdout);
    const int rc = run_python(script, data);
    fs::remove(data);
    fs::remove(script);
    if (rc != 0) {
        throw std::runtime_error(fmt::format(
            "python3 (matplotlib) failed with status {}; install python3-matplotlib (setup.sh)",
            rc));
    }
    fmt::print("wrote {} figures to {}\n", figs.size(), o.out);
    return 0;
}

}  // namespace

void add_plot_command(CLI::App& app, command_action& action) {
    CLI::App* cmd =
        app.add_subcommand("plot", "PNG figures of a sweep results database (matplotlib)");
    auto o = std::make_shared<plot_options>();
    cmd->add_option("db", o->db, "results database (SQLite)")->required();
    cmd->add_option("-o,--out", o->out, "output directory for the PNG files")->required();
    cmd->add_option("--sweep", o->sweep, "only this sweep_id");
    cmd->add_option("--x", o->x, "axis of the x axis for --y plots (default: the first axis)");
    cmd->add_option("--y", o->ys, "metric to plot against --x, one figure each (repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--heatmap", o->heatmap,
                    "metric of the heat map (default: lat_p99_ns or span_us)");
    cmd->add_option("--rows", o->rows, "heat map rows axis (default: the first axis)");
    cmd->add_option("--cols", o->cols, "heat map columns axis (default: the second axis)");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
