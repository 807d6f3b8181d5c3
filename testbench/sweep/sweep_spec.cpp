#include "sweep_spec.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "config/config_dump.h"
#include "config/config_error.h"
#include "config/config_loader.h"
#include "config/config_schema.h"
#include "config/config_source.h"
#include "config/scalar_parse.h"
#include "config/yaml_document.h"
#include "sim_level.h"

namespace ndr::tb {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::set<std::string> top_fields = {"name", "kind", "trace",   "config", "set",
                                          "axes", "zip",  "repeats", "seeds"};

/// Blames node n; an empty value (null) blames its key instead, when given: yaml-cpp places an
/// empty value at the next token, often on the next line.
[[noreturn]] void bad(const sweep_spec& s, const YAML::Node& n, const std::string& field,
                      const std::string& why, const YAML::Node& key = YAML::Node()) {
    const YAML::Node& at = (!n.IsDefined() || n.IsNull()) && key.IsDefined() ? key : n;
    const int line = at.IsDefined() ? at.Mark().line + 1 : 0;
    throw cfg::config_error(cfg::config_source::file(s.path, line), field, why);
}

std::string scalar(const sweep_spec& s, const YAML::Node& n, const std::string& field,
                   const YAML::Node& key = YAML::Node()) {
    if (n.IsNull() && key.IsDefined()) bad(s, n, field, "missing value", key);
    if (!n.IsScalar()) bad(s, n, field, "expected a single value", key);
    return n.Scalar();
}

/// The key node of top-level field `name` (undefined if absent).
YAML::Node key_of(const YAML::Node& root, const std::string& name) {
    for (const auto& kv : root) {
        if (kv.first.IsScalar() && kv.first.Scalar() == name) return kv.first;
    }
    return YAML::Node(YAML::NodeType::Undefined);
}

std::string relative_to(const std::string& base_file, const std::string& p) {
    if (p.empty() || fs::path(p).is_absolute()) return p;
    return fs::absolute(fs::path(base_file).parent_path() / p).lexically_normal().string();
}

void check_key(const sweep_spec& s, const YAML::Node& n, const std::string& key) {
    if (key == "trace") {
        if (s.kind != "run") bad(s, n, key, "a trace axis needs kind: run");
        return;
    }
    if (key == "sim.seed") bad(s, n, key, "seeds come from repeats/seeds, not an axis");
    if (cfg::find_config_key(key) == nullptr) bad(s, n, key, "unknown config key");
}

std::vector<std::string> value_list(const sweep_spec& s, const YAML::Node& n,
                                    const std::string& key, const YAML::Node& key_node) {
    if (!n.IsSequence() || n.size() == 0)
        bad(s, n, key, "expected a non-empty list of values", key_node);
    std::vector<std::string> v;
    for (const YAML::Node& e : n) v.push_back(scalar(s, e, key));
    return v;
}

void add_zip_group(sweep_spec& s, const YAML::Node& g, const YAML::Node& zip_key) {
    if (!g.IsMap() || g.size() == 0)
        bad(s, g, "zip", "expected a map of key: [values] lists", zip_key);
    sweep_axis a;
    for (const auto& kv : g) {
        const std::string key = kv.first.Scalar();
        check_key(s, kv.first, key);
        a.keys.push_back(key);
        a.values.push_back(value_list(s, kv.second, key, kv.first));
        s.lines[key] = kv.first.Mark().line + 1;
        if (a.values.back().size() != a.values.front().size()) {
            bad(s, kv.second, key,
                fmt::format("zipped lists need equal lengths: {} has {}, {} has {}", a.keys.front(),
                            a.values.front().size(), key, a.values.back().size()));
        }
    }
    s.axes.push_back(a);
}

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw cfg::config_error(fmt::format("{}: cannot read the file", path));
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

std::string fnv1a_hex(const std::string& text) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return fmt::format("{:016x}", h);
}

sweep_spec load_sweep(const std::string& path) {
    sweep_spec s;
    s.path = path;
    s.text = cfg::read_yaml_file(path);
    const YAML::Node root = cfg::load_one_document(s.text, path);
    if (!root.IsMap()) bad(s, root, "sweep", "expected a map (name, kind, axes, ...)");
    for (const auto& kv : root) {
        if (top_fields.count(kv.first.Scalar()) == 0) {
            bad(s, kv.first, kv.first.Scalar(),
                "unknown field (allowed: name, kind, trace, config, set, axes, zip, repeats, "
                "seeds)");
        }
    }
    const auto field = [&](const char* name) { return key_of(root, name); };
    s.name = root["name"] ? scalar(s, root["name"], "name", field("name"))
                          : fs::path(path).stem().string();
    if (s.name.empty()) bad(s, root["name"], "name", "must not be empty");
    // The name becomes the default database file (NAME.db): one file name, here.
    if (s.name.find_first_of("/\\") != std::string::npos || s.name.front() == '.') {
        bad(s, root["name"], "name",
            fmt::format("'{}' must be a file name (no '/', not starting with '.')", s.name));
    }
    s.kind = root["kind"] ? scalar(s, root["kind"], "kind", field("kind")) : std::string("traffic");
    if (s.kind != "traffic" && s.kind != "run") {
        bad(s, root["kind"], "kind", fmt::format("expected traffic or run, got '{}'", s.kind));
    }
    if (root["trace"])
        s.trace = relative_to(path, scalar(s, root["trace"], "trace", field("trace")));
    if (root["config"])
        s.config_file = relative_to(path, scalar(s, root["config"], "config", field("config")));
    if (const YAML::Node set = root["set"]) {
        if (!set.IsMap()) bad(s, set, "set", "expected a map of key: value", field("set"));
        for (const auto& kv : set) {
            const std::string key = kv.first.Scalar();
            if (cfg::find_config_key(key) == nullptr) bad(s, kv.first, key, "unknown config key");
            s.sets.emplace_back(key, scalar(s, kv.second, key, kv.first));
            s.lines[key] = kv.first.Mark().line + 1;
        }
    }
    if (const YAML::Node axes = root["axes"]) {
        if (!axes.IsMap()) bad(s, axes, "axes", "expected a map of key: [values]", field("axes"));
        for (const auto& kv : axes) {
            const std::string key = kv.first.Scalar();
            check_key(s, kv.first, key);
            s.axes.push_back(sweep_axis{{key}, {value_list(s, kv.second, key, kv.first)}});
            s.lines[key] = kv.first.Mark().line + 1;
        }
    }
    if (const YAML::Node zip = root["zip"]) {
        if (zip.IsSequence()) {
            for (const YAML::Node& g : zip) add_zip_group(s, g, field("zip"));
        } else {
            add_zip_group(s, zip, field("zip"));
        }
    }
    std::set<std::string> seen;
    for (const sweep_axis& a : s.axes) {
        for (const std::string& k : a.keys) {
            if (!seen.insert(k).second) bad(s, root, k, "appears in more than one axis");
        }
    }
    if (const YAML::Node seeds = root["seeds"]) {
        for (const std::string& v : value_list(s, seeds, "seeds", field("seeds"))) {
            try {
                s.seeds.push_back(cfg::parse_uint(v));  // digits only, overflow-checked
            } catch (const std::exception&) {
                bad(s, seeds, "seeds",
                    fmt::format("expected an unsigned integer 0..{}, got '{}'", UINT64_MAX, v));
            }
        }
        s.repeats = static_cast<unsigned>(s.seeds.size());
    }
    if (const YAML::Node r = root["repeats"]) {
        if (root["seeds"]) bad(s, r, "repeats", "give repeats or seeds, not both");
        const std::string v = scalar(s, r, "repeats", field("repeats"));
        try {
            s.repeats = static_cast<unsigned>(cfg::parse_uint(v, 10000));  // "1.5", "2abc": errors
        } catch (const std::exception&) {
            s.repeats = 0;
        }
        if (s.repeats < 1 || s.repeats > 10000) {
            bad(s, r, "repeats", fmt::format("expected 1..10000, got '{}'", v));
        }
    }
    const bool trace_axis = seen.count("trace") != 0;
    if (s.kind == "run" && s.trace.empty() && !trace_axis) {
        bad(s, root, "trace", "kind: run needs a trace (or a trace axis)");
    }
    if (s.kind == "traffic" && !s.trace.empty()) bad(s, root["trace"], "trace", "needs kind: run");
    return s;
}

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
                    trace = relative_to(s.path, val);
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
                    content = file_text(trace);
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
