#include "config/config_loader.h"
#include "config/yaml_document.h"

#include <map>

#include <yaml-cpp/yaml.h>

#include "config/config_error.h"
#include "config/config_schema.h"
#include "config/key_suggest.h"
#include "config/validate.h"

namespace ndr::cfg {
namespace {

/// Where each key was last set, to point validation errors at the line or flag.
using origin_map = std::map<std::string, config_source>;

std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    const size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

int line_of(const YAML::Node& n) {
    return n.Mark().line >= 0 ? n.Mark().line + 1 : 0;
}

std::string node_kind(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Map:
            return "a map";
        case YAML::NodeType::Sequence:
            return "a list";
        case YAML::NodeType::Scalar:
            return "a single value";
        case YAML::NodeType::Null:
            return "nothing";
        case YAML::NodeType::Undefined:
            break;
    }
    return "an undefined node";
}

bool is_section(const std::string& name) {
    for (const std::string& s : config_sections()) {
        if (s == name) return true;
    }
    return false;
}

class yaml_applier {
public:
    yaml_applier(config& c, const std::string& path, origin_map& origins)
        : cfg_(c), path_(path), origins_(origins) {}

    void apply(const YAML::Node& root) {
        if (root.IsNull()) return;  // empty file (or only comments): nothing to override
        if (!root.IsMap()) {
            throw config_error(config_source::file(path_, line_of(root)), "",
                               "the top level must be a map of sections such as "
                               "'switch: {ports: 8}' or dotted keys such as 'switch.ports: 8', "
                               "got " +
                                   node_kind(root));
        }
        std::map<std::string, int> top_seen;
        for (auto it = root.begin(); it != root.end(); ++it) {
            const int line = line_of(it->first);
            const std::string name = key_name(it->first, line);
            if (const auto dup = top_seen.find(name); dup != top_seen.end())
                throw duplicate(name, line, dup->second);
            top_seen.emplace(name, line);
            if (name.find('.') != std::string::npos) {
                set_leaf(name, it->second, line);
            } else if (is_section(name)) {
                apply_section(name, it->second, line);
            } else {
                throw config_error(here(line), name, unknown_key_reason(name));
            }
        }
    }

private:
    config_source here(int line) const { return config_source::file(path_, line); }

    std::string key_name(const YAML::Node& key, int line) const {
        if (!key.IsScalar())
            throw config_error(here(line), "", "a key must be a plain name, got " + node_kind(key));
        return key.Scalar();
    }

    config_error duplicate(const std::string& key, int line, int first_line) const {
        return config_error(
            here(line), key,
            "duplicate key (already set on line " + std::to_string(first_line) + ")");
    }

    void apply_section(const std::string& section, const YAML::Node& body, int line) {
        if (body.IsNull()) return;  // `switch:` with nothing under it
        if (!body.IsMap())
            throw config_error(
                here(line), section,
                "a section must be a map of keys such as 'ports: 8', got " + node_kind(body));
        for (auto it = body.begin(); it != body.end(); ++it) {
            const int field_line = line_of(it->first);
            set_leaf(section + "." + key_name(it->first, field_line), it->second, field_line);
        }
    }

    void set_leaf(const std::string& key, const YAML::Node& value, int line) {
        if (const auto dup = leaf_seen_.find(key); dup != leaf_seen_.end())
            throw duplicate(key, line, dup->second);
        leaf_seen_.emplace(key, line);
        const config_key* k = find_config_key(key);
        if (k == nullptr) throw config_error(here(line), key, unknown_key_reason(key));
        if (value.IsMap() || value.IsSequence())
            throw config_error(here(line), key, "expected a single value, got " + node_kind(value));
        if (value.IsNull() && k->kind != value_kind::text)
            throw config_error(here(line), key, "missing value (range: " + k->range + ")");
        set_value(cfg_, key, value.IsNull() ? std::string() : value.Scalar(), here(line));
        origins_.insert_or_assign(key, here(line));
    }

    config& cfg_;
    const std::string& path_;
    origin_map& origins_;
    std::map<std::string, int> leaf_seen_;  ///< full key -> first line
};

void apply_yaml_text(config& c, const std::string& text, const std::string& path,
                     origin_map& origins) {
    yaml_applier(c, path, origins).apply(load_one_document(text, path));
}

void apply_yaml_file(config& c, const std::string& path, origin_map& origins) {
    apply_yaml_text(c, read_yaml_file(path), path, origins);
}

/// Splits `key=value`; throws `--set: expected KEY=VALUE ...`.
std::pair<std::string, std::string> split_set(const std::string& key_eq_value) {
    const size_t eq = key_eq_value.find('=');
    const std::string key = eq == std::string::npos ? "" : trim(key_eq_value.substr(0, eq));
    if (key.empty())
        throw config_error(config_source::flag("--set"), "",
                           "expected KEY=VALUE such as switch.ports=8, got '" + key_eq_value + "'");
    return {key, trim(key_eq_value.substr(eq + 1))};
}

}  // namespace

void set_value(config& c, const std::string& key, const std::string& value,
               const config_source& where) {
    const config_key* k = find_config_key(key);
    if (k == nullptr) throw config_error(where, key, unknown_key_reason(key));
    config updated = c;
    try {
        k->parse(updated, value);
    } catch (const config_error& e) {
        throw config_error(where, key, e.reason);
    }
    const std::string why = k->check(updated);
    if (!why.empty()) throw config_error(where, key, why);
    c = std::move(updated);
}

void apply_set(config& c, const std::string& key_eq_value) {
    const auto [key, value] = split_set(key_eq_value);
    set_value(c, key, value, config_source::flag("--set"));
}

config load_config(const std::string& yaml_path_or_empty, const std::vector<std::string>& sets) {
    return load_config_layered({}, {}, yaml_path_or_empty, sets);
}

config load_config_layered(const std::string& base_name, const std::string& base_yaml,
                           const std::string& yaml_path_or_empty,
                           const std::vector<std::string>& sets) {
    config_layers l;
    l.base_name = base_name;
    l.base_yaml = base_yaml;
    l.file = yaml_path_or_empty;
    l.sets = sets;
    return load_config_layers(l);
}

config load_config_layers(const config_layers& layers) {
    config c;
    origin_map origins;
    if (!layers.base_yaml.empty()) apply_yaml_text(c, layers.base_yaml, layers.base_name, origins);
    if (!layers.file.empty()) apply_yaml_file(c, layers.file, origins);
    for (const std::string& s : layers.sets) {
        const auto [key, value] = split_set(s);
        set_value(c, key, value, config_source::flag("--set"));
        origins.insert_or_assign(key, config_source::flag("--set"));
    }
    for (const flag_value& f : layers.flags) {
        set_value(c, f.key, f.value, config_source::flag(f.flag));
        origins.insert_or_assign(f.key, config_source::flag(f.flag));
    }
    try {
        validate(c);
        if (layers.check) layers.check(c);
    } catch (const config_error& e) {
        if (e.source.type != config_source::kind::merged) throw;
        const auto it = origins.find(e.key);
        if (it == origins.end()) throw;
        throw config_error(it->second, e.key, e.reason);
    }
    return c;
}

}  // namespace ndr::cfg
