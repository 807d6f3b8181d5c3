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
#include "common/batch_means.h"
#include "config/config_error.h"
#include "sweep_db.h"
#include "sweep_table.h"

namespace ndr::tb {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Draws every figure of a JSON list (argv[1]) into PNG files; the layout is built in C++ below.
constexpr const char* plot_script = R"PY(
import json, sys, math, textwrap
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
figs = json.load(open(sys.argv[1]))
def style(s, n):
    """Colour, marker and line style of series index s["colour"] of n in its sweep: tab10 up to
    10 series; up to 20, tab20's dark hues then its light ones (squares, dashed); beyond, turbo."""
    i = s["colour"]
    if n <= 10:
        return plt.get_cmap("tab10").colors[i % 10], "o", "-"
    if n <= 20:
        return plt.get_cmap("tab20").colors[(2 * i) % 20 + (1 if i >= 10 else 0)], \
            "o" if i < 10 else "s", "-" if i < 10 else "--"
    return plt.get_cmap("turbo")(i / max(1, n - 1)), "osD^v"[i % 5], "-"
def colour(s, n):
    return style(s, n)[0]
def num(x, sig):
    """x to sig significant digits, without an exponent between 1e-3 and 1e7."""
    if x == 0 or not (1e-3 <= abs(x) < 1e7):
        return "%.*g" % (sig, x)
    digits = sig - 1 - int(math.floor(math.log10(abs(x))))
    return "%.*f" % (max(0, digits), round(x, digits))
def errs(s):
    return [0 if e is None else e for e in s["err"]]
for f in figs:
    if f["type"] in ("lines", "bars"):
        panels = f["panels"]
        ncol = f.get("ncolours", 10)
        labels = []
        for p in panels:
            for s in p["series"]:
                if any(y is not None for y in s["y"]) and s["label"] not in labels:
                    labels.append(s["label"])
        # Few short labels: a legend inside each panel; otherwise one legend below the panels,
        # so it never covers data.
        width = max([len(l) for l in labels] + [1])
        below = len(labels) > 4 or width > 28
        # A legend entry at fontsize 8 takes about 0.075 in per character plus 0.7 in of handle
        # and spacing; the figure is 6.4 in wide per panel.
        per_row = max(1, min(len(labels), int((6.4 * len(panels) - 0.4) / (width * 0.075 + 0.7))))
        rows = -(-len(labels) // per_row) if below else 0
        legend_h = 0.28 * rows + (0.2 if below else 0)
        fig, axs = plt.subplots(1, len(panels), figsize=(6.4 * len(panels), 4.9 + legend_h),
                                squeeze=False)
        for ax, p in zip(axs[0], panels):
            series = [s for s in p["series"] if any(y is not None for y in s["y"])]
            if f["type"] == "bars":
                ncat = len(f["xticks"])
                width = 0.8 / max(1, len(series))
                for k, s in enumerate(series):
                    xs = [i - 0.4 + width * (k + 0.5) for i in range(ncat)]
                    ys = [float("nan") if y is None else y for y in s["y"]]
                    ax.bar(xs, ys, width, yerr=errs(s), capsize=3, color=colour(s, ncol),
                           label=s["label"], error_kw={"elinewidth": 1})
                ax.set_xticks(range(ncat))
                ax.set_xticklabels(f["xticks"], rotation=15 if ncat > 3 else 0,
                                   ha="right" if ncat > 3 else "center")
            else:
                for s in series:
                    pts = [(x, y, e) for x, y, e in zip(s["x"], s["y"], errs(s)) if y is not None]
                    c, m, ls = style(s, ncol)
                    ax.errorbar([a for a, _, _ in pts], [b for _, b, _ in pts],
                                yerr=[c for _, _, c in pts], marker=m, linestyle=ls, capsize=3,
                                color=c, label=s["label"])
                if p.get("diagonal"):
                    lo, hi = ax.get_xlim()
                    ax.plot([0, hi], [0, hi], color="grey", linestyle=":", label="accepted = offered")
                if f.get("xlog"):
                    ax.set_xscale("log", base=2)
                if f.get("xnums"):
                    ax.set_xticks(f["xnums"])
                    ax.set_xticklabels(f["xnumlabels"])
                    ax.minorticks_off()
            ax.set_xlabel(f["xlabel"])
            ax.set_ylabel(p["ylabel"])
            ax.set_title(p.get("title", ""))
            ax.grid(True, alpha=0.3)
            if series and not below and labels != ["all"]:
                ax.legend(fontsize=8)
        fig.suptitle(f["title"] + "\n" + f["errnote"], fontsize=11)
        if below:
            handles, seen = [], []
            for ax in axs[0]:
                for h, l in zip(*ax.get_legend_handles_labels()):
                    if l not in seen:
                        handles.append(h)
                        seen.append(l)
            fig.legend(handles, seen, loc="lower center", ncol=per_row, fontsize=8,
                       bbox_to_anchor=(0.5, 0.04), frameon=False)
    else:
        v = f["values"]
        fig, ax = plt.subplots(figsize=(1.2 * len(f["xticklabels"]) + 4, 0.6 * len(f["yticklabels"]) + 3.4))
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
                    e = f["errors"][i][j]
                    txt = num(c, 4) if e is None else num(c, 4) + "\n± " + num(e, 2)
                    ax.text(j, i, txt, ha="center", va="center", fontsize=8,
                            color="white" if c < mid else "black")
        fig.colorbar(im, ax=ax, label=f["cbar"])
        ax.set_title(f["title"])
    bottom = 0.04
    if f["type"] in ("lines", "bars") and below:
        bottom = (legend_h + 0.3) / (4.9 + legend_h)
    fig.tight_layout(rect=(0, bottom, 1, 1))
    fig.text(0.01, 0.005, "\n".join(textwrap.wrap(f["footer"], 120)), fontsize=6,
             color="dimgrey", family="monospace", va="bottom")
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
    std::string data;  ///< --data: also keep the figures' data here
};

/// The command that makes the figures, for their footer line.
std::string command_line(const plot_options& o) {
    std::string c = fmt::format("ndrsim plot {} -o {}", o.db, o.out);
    if (!o.sweep.empty()) c += " --sweep " + o.sweep;
    if (!o.x.empty()) c += " --x " + o.x;
    for (const std::string& y : o.ys) c += " --y " + y;
    if (!o.heatmap.empty()) c += " --heatmap " + o.heatmap;
    if (!o.rows.empty()) c += " --rows " + o.rows;
    if (!o.cols.empty()) c += " --cols " + o.cols;
    return c;
}

/// Unit of a metric named by its suffix where it is not a column of its own (vl1_lat_p99_ns).
std::string unit_by_suffix(const std::string& m) {
    const auto ends = [&](const char* x) {
        const std::string t(x);
        return m.size() > t.size() && m.compare(m.size() - t.size(), t.size(), t) == 0;
    };
    if (ends("_ns")) return "ns";
    if (ends("_us")) return "µs";
    if (ends("_GBps")) return "GB/s";
    if (ends("_share")) return "fraction of delivered beats";
    if (ends("_load")) return "fraction of line rate";
    if (ends("_cycles")) return "cycles";
    return "";
}

std::string metric_label(const std::string& m) {
    const metric_column* c = find_metric(m);
    if (m == "wall_s") return "wall_s [s]";
    const std::string unit = c != nullptr && *c->unit != '\0' ? c->unit : unit_by_suffix(m);
    if (unit.empty()) return fmt::format("{} [count]", m);
    return fmt::format("{} [{}]", m, unit);
}

/// x positions and label of one axis: numeric (with unit) or categorical (index + tick labels).
struct axis_scale {
    std::vector<std::string> values;
    std::vector<double> x;
    std::string label;
    json ticks;         ///< null if numeric
    bool log2 = false;  ///< a size or count axis spanning more than x8
};

/// A value as a short name: a file path by its stem (traces), anything else as written.
std::string short_name(const std::string& v) {
    if (v.find('/') == std::string::npos && v.find(".jsonl") == std::string::npos) return v;
    return fs::path(v).stem().string();
}

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
        a.label = fmt::format("{} [{}]", axis, unit.empty() ? "count" : unit);
        a.ticks = nullptr;
        const auto [lo, hi] = std::minmax_element(a.x.begin(), a.x.end());
        a.log2 = unit != "ns" && *lo > 0.0 && *hi > 8.0 * *lo;  // sizes and counts, not times
    } else {
        for (std::size_t i = 0; i < a.values.size(); ++i) a.x.push_back(static_cast<double>(i));
        a.label = axis == "trace" ? "trace [file]" : fmt::format("{} [category]", axis);
        json t = json::array();
        for (const std::string& val : a.values) t.push_back(short_name(val));
        a.ticks = t;
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
        l += fmt::format("{}{}={}", l.empty() ? "" : ", ", a, short_name(param_text(r, a)));
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

/// A plotted value: the mean over the done repeats, its error bar and the count.
struct plotted {
    json y;    ///< mean, null without values
    json err;  ///< 95 % half-width: Student t over repeats (n >= 2), else the run's own
               ///< batch-means interval (METRIC_ci95 in its metrics), else null
    std::size_t n = 0;
};

/// Mean of a metric over the done rows of one series at one axis value.
plotted mean_at(const sweep_rows& s, const std::string& series,
                const std::vector<std::string>& skip, const std::string& axis,
                const std::string& value, const std::string& metric) {
    std::vector<double> v;
    json own = nullptr;
    for (const sweep_row& r : s.rows) {
        if (r.status != "done" || series_label(s, r, skip) != series) continue;
        if (param_text(r, axis) != value) continue;
        if (const auto x = metric_value(r, metric)) {
            v.push_back(*x);
            own = r.metrics.value(metric + "_ci95", json(nullptr));
        }
    }
    plotted p;
    p.n = v.size();
    if (v.empty()) return p;
    const common::mean_ci c = common::mean_ci95(v);
    p.y = c.mean;
    p.err = c.n >= 2 ? json(c.half_width) : own;
    return p;
}

/// One colour index per colour key, in order of first use (recolour: one per figure family).
class palette {
public:
    int operator()(const std::string& label) {
        const auto it = std::find(seen_.begin(), seen_.end(), label);
        if (it != seen_.end()) return static_cast<int>(it - seen_.begin());
        seen_.push_back(label);
        return static_cast<int>(seen_.size() - 1);
    }
    /// Series seen so far: the figures' colour scheme depends on how many there are.
    std::size_t size() const { return seen_.size(); }

private:
    std::vector<std::string> seen_;
};

/// What the error bars of a figure are, with the largest repeat count behind a value.
std::string error_note(std::size_t max_n, bool own_ci) {
    if (max_n >= 2) {
        return fmt::format("mean of n = {} repeats, error bars: 95 % CI (Student t)", max_n);
    }
    return own_ci ? "one run per point, error bars: its batch-means 95 % CI"
                  : "one run per point, no error bars (no interval for this metric)";
}

/// Fills a series' y, err; tracks the repeat count and whether a run's own interval was used.
void add_value(json& ys, json& es, const plotted& p, std::size_t& max_n, bool& own) {
    ys.push_back(p.y);
    es.push_back(p.err);
    max_n = std::max(max_n, p.n);
    own = own || (p.n == 1 && !p.err.is_null());
}

json metric_vs_axis(const sweep_rows& s, const std::string& axis, const std::string& metric,
                    const std::string& dir) {
    const axis_scale a = scale_of(s, axis);
    json series = json::array();
    std::size_t max_n = 0;
    bool own = false;
    for (const std::string& label : series_order(s, {axis})) {
        json ys = json::array();
        json es = json::array();
        for (const std::string& v : a.values) {
            add_value(ys, es, mean_at(s, label, {axis}, axis, v, metric), max_n, own);
        }
        series.push_back({{"label", label}, {"x", a.x}, {"y", ys}, {"err", es}});
    }
    std::string file = fmt::format("{}_{}_vs_{}.png", s.sweep_id, metric, axis);
    json f = {{"type", a.ticks.is_null() ? "lines" : "bars"},
              {"file", (fs::path(dir) / file).string()},
              {"title", fmt::format("{}: {} vs {}", s.sweep_id, metric, axis)},
              {"errnote", error_note(max_n, own)},
              {"xlabel", a.label + (a.log2 ? " (log2)" : "")},
              {"xticks", a.ticks},
              {"xlog", a.log2},
              {"panels", json::array({{{"ylabel", metric_label(metric)}, {"series", series}}})}};
    if (a.ticks.is_null()) {  // ticks at the swept values
        json labels = json::array();
        for (const std::string& v : a.values) labels.push_back(v);
        f["xnums"] = a.x;
        f["xnumlabels"] = labels;
    }
    return f;
}

json load_curves(const sweep_rows& s, const std::string& dir, bool latency) {
    const std::string axis = "traffic.load";
    const std::vector<std::string> loads = axis_values(s, axis);
    const std::vector<std::string> ms = latency
                                            ? std::vector<std::string>{"lat_mean_ns", "lat_p99_ns"}
                                            : std::vector<std::string>{"accepted_load"};
    json panels = json::array();
    std::size_t max_n = 0;
    bool own = false;
    for (const std::string& m : ms) {
        json series = json::array();
        for (const std::string& label : series_order(s, {axis})) {
            json xs = json::array();
            json ys = json::array();
            json es = json::array();
            for (const std::string& l : loads) {
                const json x = mean_at(s, label, {axis}, axis, l, "offered_load").y;
                if (x.is_null()) continue;
                xs.push_back(x);
                add_value(ys, es, mean_at(s, label, {axis}, axis, l, m), max_n, own);
            }
            series.push_back({{"label", label}, {"x", xs}, {"y", ys}, {"err", es}});
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
            {"errnote", error_note(max_n, own)},
            {"xlabel", "offered load [fraction of line rate]"},
            {"xticks", nullptr},
            {"panels", panels}};
}

json bandwidth_vs_size(const sweep_rows& s, const std::string& dir) {
    // (series label incl. algo and op) -> bytes -> (algbw values, busbw values)
    std::map<std::string, std::map<double, std::array<std::vector<double>, 2>>> acc;
    std::map<std::string, std::string> base_of;  // colour: that of the axes' series
    std::vector<std::string> order;
    for (const sweep_row& r : s.rows) {
        if (r.status != "done" || !r.metrics.contains("per_collective")) continue;
        const std::string base = series_label(s, r, {});
        for (const json& c : r.metrics["per_collective"]) {
            const std::string label =
                fmt::format("{} {}{}", c["op"].get<std::string>(), c["algo"].get<std::string>(),
                            base == "all" ? "" : ", " + base);
            if (!acc.count(label)) {
                order.push_back(label);
                base_of[label] = base;
            }
            auto& a = acc[label][c["bytes"].get<double>()];
            a[0].push_back(c["algbw_GBps"].get<double>());
            a[1].push_back(c["busbw_GBps"].get<double>());
        }
    }
    json panels = json::array();
    std::size_t max_n = 0;
    bool own = false;
    json sizes = json::array();
    json size_labels = json::array();
    for (int k = 0; k < 2; ++k) {
        json series = json::array();
        for (const std::string& label : order) {
            json xs = json::array();
            json ys = json::array();
            json es = json::array();
            for (const auto& [bytes, a] : acc[label]) {
                xs.push_back(bytes);
                const common::mean_ci c = common::mean_ci95(a[static_cast<std::size_t>(k)]);
                add_value(ys, es,
                          plotted{c.mean, c.n >= 2 ? json(c.half_width) : json(nullptr), c.n},
                          max_n, own);
                if (std::find(sizes.begin(), sizes.end(), json(bytes)) == sizes.end()) {
                    sizes.push_back(bytes);
                    size_labels.push_back(
                        bytes >= 1048576.0 ? fmt::format("{:g} MiB", bytes / 1048576.0)
                        : bytes >= 1024.0  ? fmt::format("{:g} KiB", bytes / 1024.0)
                                           : fmt::format("{:g} B", bytes));
                }
            }
            series.push_back(
                {{"label", label}, {"x", xs}, {"y", ys}, {"err", es}, {"key", base_of[label]}});
        }
        panels.push_back({{"ylabel", k == 0 ? "algbw [GB/s]" : "busbw [GB/s]"},
                          {"title", k == 0 ? "algorithm bandwidth" : "bus bandwidth"},
                          {"series", series}});
    }
    return {
        {"type", "lines"},
        {"file", (fs::path(dir) / fmt::format("{}_bandwidth_vs_size.png", s.sweep_id)).string()},
        {"title", fmt::format("{}: collective bandwidth vs message size", s.sweep_id)},
        {"errnote", error_note(max_n, own)},
        {"xlabel", "message size S [B] (log2)"},
        {"xlog", true},
        {"xticks", nullptr},
        {"xnums", sizes},
        {"xnumlabels", size_labels},
        {"panels", panels}};
}

json heat_map(const sweep_rows& s, const std::string& metric, const std::string& rows,
              const std::string& cols, const std::string& dir) {
    const axis_scale rs = scale_of(s, rows);
    const axis_scale cs = scale_of(s, cols);
    // A cell's values are repeats of one point only if no other axis varies; then it carries
    // the Student-t interval, else it is a plain mean over the other axes too.
    bool repeats_only = true;
    for (const std::string& a : s.axes) {
        if (a != "repeat" && a != rows && a != cols && axis_values(s, a).size() > 1) {
            repeats_only = false;
        }
    }
    json values = json::array();
    json errors = json::array();
    std::size_t max_n = 0;
    for (const std::string& rv : rs.values) {
        json line = json::array();
        json eline = json::array();
        for (const std::string& cv : cs.values) {
            std::vector<double> v;
            for (const sweep_row& r : s.rows) {
                if (r.status != "done" || param_text(r, rows) != rv || param_text(r, cols) != cv)
                    continue;
                if (const auto x = metric_value(r, metric)) v.push_back(*x);
            }
            const common::mean_ci c = common::mean_ci95(v);
            line.push_back(v.empty() ? json(nullptr) : json(c.mean));
            eline.push_back(repeats_only && c.n >= 2 ? json(c.half_width) : json(nullptr));
            max_n = std::max(max_n, v.size());
        }
        values.push_back(line);
        errors.push_back(eline);
    }
    const std::string what =
        repeats_only && max_n >= 2
            ? fmt::format("mean ± 95 % CI (Student t) of n = {} repeats", max_n)
        : repeats_only ? std::string("one run per cell")
                       : std::string("mean over other axes and repeats, no interval");
    return {
        {"type", "heatmap"},
        {"file", (fs::path(dir) / fmt::format("{}_heatmap_{}.png", s.sweep_id, metric)).string()},
        {"title", fmt::format("{}: {}\n{}", s.sweep_id, metric, what)},
        {"xlabel", cs.label},
        {"ylabel", rs.label},
        {"xticklabels", cs.ticks.is_null() ? json(cs.values) : cs.ticks},
        {"yticklabels", rs.ticks.is_null() ? json(rs.values) : rs.ticks},
        {"values", values},
        {"errors", errors},
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

/// What a series' colour follows: its label, or the point it belongs to where one figure draws
/// several series per point (bandwidth_vs_size: one per collective).
std::string colour_key(const json& s) {
    return s.contains("key") ? s["key"].get<std::string>() : s["label"].get<std::string>();
}

/// Colours of one sweep's figures [first, end): figures whose series share a colour key form one
/// family; inside a family each key gets one index in order of first use, so the same label
/// has the same colour in every figure, and a figure of 3 series unrelated to a 12-series one
/// still gets the first 3 colours. Each figure carries its family's size (`ncolours`), which
/// picks the palette.
void recolour(json& figs, std::size_t first) {
    const std::size_t n = figs.size() - first;
    std::vector<std::vector<std::string>> labels(n);
    for (std::size_t i = 0; i < n; ++i) {
        const json& f = figs[first + i];
        if (!f.contains("panels")) continue;
        for (const json& p : f["panels"]) {
            for (const json& s : p["series"]) labels[i].push_back(colour_key(s));
        }
    }
    std::vector<std::size_t> family(n);
    for (std::size_t i = 0; i < n; ++i) family[i] = i;
    const auto root = [&](std::size_t i) {
        while (family[i] != i) i = family[i];
        return i;
    };
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            const bool share = std::any_of(labels[i].begin(), labels[i].end(), [&](const auto& l) {
                return std::find(labels[j].begin(), labels[j].end(), l) != labels[j].end();
            });
            if (share) family[root(i)] = root(j);
        }
    }
    for (std::size_t r = 0; r < n; ++r) {
        if (root(r) != r) continue;
        palette pal;
        for (std::size_t i = 0; i < n; ++i) {
            if (root(i) != r) continue;
            json& f = figs[first + i];
            if (!f.contains("panels")) continue;
            for (json& p : f["panels"]) {
                for (json& s : p["series"]) s["colour"] = pal(colour_key(s));
            }
        }
        for (std::size_t i = 0; i < n; ++i) {
            if (root(i) == r) figs[first + i]["ncolours"] = pal.size();
        }
    }
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
        recolour(figs, before);
    }
    for (json& f : figs) f["footer"] = command_line(o);
    if (figs.empty()) {
        fmt::print("nothing to plot: no sweep with an axis of two or more values\n");
        return 0;
    }
    const std::string data = (fs::path(o.out) / ".ndrsim_plot.json").string();
    const std::string script = (fs::path(o.out) / ".ndrsim_plot.py").string();
    write_file(o.out, ".ndrsim_plot.json", figs.dump());
    if (!o.data.empty()) {
        std::ofstream d(o.data);
        d << figs.dump(1) << '\n';
        if (!d) throw cfg::config_error(fmt::format("--data: cannot write '{}'", o.data));
    }
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
    cmd->add_option("--data", o->data,
                    "also write every figure's data (series, means, 95 % half-widths, colour "
                    "indices, heat-map cells) to this JSON file");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
