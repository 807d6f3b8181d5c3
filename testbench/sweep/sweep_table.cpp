#include "sweep_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "config/unit_parse.h"

namespace ndr::tb {

using nlohmann::json;

std::vector<sweep_rows> load_sweeps(sweep_db& db, const std::string& sweep_id,
                                    const std::string& where,
                                    const std::vector<std::string>& binds) {
    std::vector<sweep_rows> out;
    const auto sweeps =
        sweep_id.empty()
            ? db.query("SELECT sweep_id, kind, axes FROM sweeps ORDER BY created_at, sweep_id")
            : db.query("SELECT sweep_id, kind, axes FROM sweeps WHERE sweep_id = ?1", {sweep_id});
    if (!sweep_id.empty() && sweeps.empty()) {
        throw std::runtime_error(fmt::format("no sweep '{}' in the database", sweep_id));
    }
    std::string cols = "point_key, idx, params, status, error, wall_s, seed, metrics";
    for (const metric_column& m : metric_columns()) cols += std::string(", ") + m.name;
    for (const json& sw : sweeps) {
        sweep_rows s;
        s.sweep_id = sw[0].get<std::string>();
        s.kind = sw[1].get<std::string>();
        for (const json& a : json::parse(sw[2].is_null() ? "[]" : sw[2].get<std::string>())) {
            s.axes.push_back(a.get<std::string>());
        }
        std::vector<std::string> b = {s.sweep_id};
        b.insert(b.end(), binds.begin(), binds.end());
        for (const json& r : db.query(fmt::format("SELECT {} FROM points WHERE sweep_id = ?1 AND "
                                                  "({}) ORDER BY idx",
                                                  cols, where),
                                      b)) {
            sweep_row row;
            row.key = r[0].get<std::string>();
            row.idx = r[1].is_null() ? 0 : r[1].get<long long>();
            row.params = json::parse(r[2].get<std::string>());
            row.status = r[3].get<std::string>();
            row.error = r[4].is_null() ? "" : r[4].get<std::string>();
            if (!r[5].is_null()) row.wall_s = r[5].get<double>();
            row.seed = r[6].is_null() ? 0 : r[6].get<long long>();
            row.metrics = r[7].is_null() ? json::object() : json::parse(r[7].get<std::string>());
            std::size_t c = 8;
            for (const metric_column& m : metric_columns()) row.metrics[m.name] = r[c++];
            s.rows.push_back(std::move(row));
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::optional<double> metric_value(const sweep_row& r, const std::string& name) {
    if (!r.metrics.contains(name)) {
        if (name == "wall_s") return r.wall_s;
        return std::nullopt;
    }
    const json& v = r.metrics[name];
    if (v.is_number()) return v.get<double>();
    if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
    return std::nullopt;
}

std::string param_text(const sweep_row& r, const std::string& axis) {
    if (!r.params.contains(axis)) return "";
    const json& v = r.params[axis];
    return v.is_string() ? v.get<std::string>() : v.dump();
}

std::string cell_of(const sweep_row& r) {
    json p = r.params;
    p.erase("repeat");
    return p.dump();
}

common::mean_ci repeat_summary(const sweep_rows& s, const sweep_row& r, const std::string& metric) {
    const std::string cell = cell_of(r);
    std::vector<double> v;
    for (const sweep_row& q : s.rows) {
        if (q.status != "done" || cell_of(q) != cell) continue;
        if (const auto x = metric_value(q, metric)) v.push_back(*x);
    }
    return common::mean_ci95(v);
}

std::string summary_text(const common::mean_ci& m) {
    if (m.n == 0) return "-";
    if (m.n == 1) return fmt::format("{:.6g}", m.mean);
    return fmt::format("{:.6g} ± {:.3g} (n={})", m.mean, m.half_width, m.n);
}

std::vector<std::string> axis_values(const sweep_rows& s, const std::string& axis) {
    std::vector<std::string> v;
    for (const sweep_row& r : s.rows) {
        const std::string t = param_text(r, axis);
        if (std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
    }
    return v;
}

std::optional<std::vector<double>> axis_numbers(const std::vector<std::string>& values,
                                                std::string& unit) {
    const auto all = [&](auto fn) -> std::optional<std::vector<double>> {
        std::vector<double> v;
        try {
            for (const std::string& s : values) v.push_back(fn(s));
        } catch (const std::exception&) {
            return std::nullopt;
        }
        return v;
    };
    if (auto v = all([](const std::string& s) {
            std::size_t used = 0;
            const double d = std::stod(s, &used);
            if (used != s.size()) throw std::invalid_argument(s);
            return d;
        })) {
        unit = "";
        return v;
    }
    if (auto v = all(
            [](const std::string& s) { return static_cast<double>(cfg::parse_bytes(s).count); })) {
        unit = "B";
        return v;
    }
    if (auto v = all([](const std::string& s) {
            return static_cast<double>(cfg::parse_time(s).ps) / 1000.0;
        })) {
        unit = "ns";
        return v;
    }
    return std::nullopt;
}

}  // namespace ndr::tb
