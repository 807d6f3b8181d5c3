// A parameter sweep (`ndrsim sweep SWEEP.yaml`, docs/sweeps.md): a base configuration, a trace
// (`kind: run`) or synthetic traffic (`kind: traffic`), grid and zipped axes over config keys, and
// repeats with distinct seeds. expand() turns it into resolved points, each named by a key that
// hashes its canonical resolved configuration.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ndr::tb {

/// One axis: a config key (or `trace`) and its values, as written in the sweep file.
struct sweep_axis {
    std::vector<std::string> keys;                 ///< one key; several for a zip group
    std::vector<std::vector<std::string>> values;  ///< values[k][i]: key k, step i
    std::size_t size() const { return values.empty() ? 0 : values[0].size(); }
};

struct sweep_spec {
    std::string path;   ///< the sweep file
    std::string name;   ///< sweep_id; default: the file's stem
    std::string kind;   ///< "traffic" or "run"
    std::string trace;  ///< kind run: trace path (relative paths are relative to the sweep file)
    std::string config_file;  ///< optional base YAML config (relative to the sweep file)
    std::vector<std::pair<std::string, std::string>> sets;  ///< base key=value overrides
    std::vector<sweep_axis> axes;                           ///< grid order: first axis outermost
    unsigned repeats = 1;
    std::vector<uint64_t> seeds;  ///< explicit seeds (then repeats = seeds.size())
    std::string text;             ///< the file as read
    /// `set` and axis keys -> their line in the file: a value that does not validate is named
    /// by it (`FILE:LINE: KEY: REASON`), not as the `--set` it is applied as.
    std::map<std::string, int> lines;
};

/// One point of the sweep.
struct sweep_point {
    std::size_t index = 0;  ///< position in the grid, 0-based
    std::string key;        ///< point_key: 16 hex digits of FNV-1a 64 of `canonical`
    nlohmann::json params;  ///< axis key -> value as written (plus "repeat" when repeats > 1)
    uint64_t seed = 0;
    unsigned repeat = 0;
    std::string trace;      ///< kind run: trace path (absolute)
    nlohmann::json config;  ///< resolved config, flattened {key: value}; null if invalid
    std::string error;      ///< non-empty: the point's config does not validate
    std::string canonical;  ///< canonical JSON the key hashes
};

/// Reads and checks a sweep file; throws cfg::config_error naming the file and the field.
sweep_spec load_sweep(const std::string& path);
/// As load_sweep, from the file's text; `path` names it in messages, gives the default name
/// and anchors relative paths (nothing is read).
sweep_spec parse_sweep(const std::string& text, const std::string& path);

/// Every point, in grid order (repeats innermost). Invalid configurations become points with
/// `error` set (recorded as failed, not run).
std::vector<sweep_point> expand(const sweep_spec& s);

/// `p` as written in the sweep file at `sweep_file`: relative to that file's folder (made
/// absolute); empty and absolute paths unchanged.
std::string sweep_relative_path(const std::string& sweep_file, const std::string& p);

/// The bytes of a file the sweep names; throws cfg::config_error("PATH: cannot read the file").
std::string read_sweep_input(const std::string& path);

/// FNV-1a 64-bit hash as 16 lower-case hex digits.
std::string fnv1a_hex(const std::string& text);

}  // namespace ndr::tb
