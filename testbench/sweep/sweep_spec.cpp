#include "sweep_spec.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "config/config_error.h"
#include "config/config_schema.h"
#include "config/config_source.h"
#include "config/scalar_parse.h"
#include "config/yaml_document.h"

namespace ndr::tb {

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

}  // namespace

std::string sweep_relative_path(const std::string& sweep_file, const std::string& p) {
    if (p.empty() || fs::path(p).is_absolute()) return p;
    return fs::absolute(fs::path(sweep_file).parent_path() / p).lexically_normal().string();
}

std::string read_sweep_input(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw cfg::config_error(fmt::format("{}: cannot read the file", path));
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string fnv1a_hex(const std::string& text) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    return fmt::format("{:016x}", h);
}

sweep_spec load_sweep(const std::string& path) {
    return parse_sweep(cfg::read_yaml_file(path), path);
}

sweep_spec parse_sweep(const std::string& text, const std::string& path) {
    sweep_spec s;
    s.path = path;
    s.text = text;
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
        s.trace = sweep_relative_path(path, scalar(s, root["trace"], "trace", field("trace")));
    if (root["config"])
        s.config_file =
            sweep_relative_path(path, scalar(s, root["config"], "config", field("config")));
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

}  // namespace ndr::tb
