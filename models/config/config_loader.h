// Building the run configuration: defaults (the field initialisers in config/keys/SECTION_keys.h),
// then a YAML file, then `--set key=value` overrides in order, then validate(). Every problem is a
// one-line `config_error` naming the source, the key and the reason.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "config/config_source.h"
#include "config/sim_config.h"

namespace ndr::cfg {

/// Defaults < YAML file at `yaml_path_or_empty` (skipped if empty) < each `key=value` of `sets`
/// in order; then validate(). The file may use nested sections (`switch: {ports: 8}`), dotted
/// keys (`switch.ports: 8`) or both; a key set twice in the file is an error. A validation
/// failure names the line or `--set` that set the offending key, if any.
config load_config(const std::string& yaml_path_or_empty, const std::vector<std::string>& sets);

/// As load_config, with one more YAML layer under the file: defaults < `base_yaml` (YAML text,
/// e.g. an embedded preset; skipped if empty; errors name it `base_name:LINE`) < the YAML file
/// at `yaml_path_or_empty` < `sets`; then validate().
config load_config_layered(const std::string& base_name, const std::string& base_yaml,
                           const std::string& yaml_path_or_empty,
                           const std::vector<std::string>& sets);

/// A value from a dedicated command-line flag mapped onto a key (e.g. `--ports` = switch.ports).
struct flag_value {
    std::string flag;   ///< as typed, e.g. `--ports`
    std::string key;    ///< the config key it sets
    std::string value;  ///< its text form
};

/// Every layer of a command's configuration, lowest first: defaults < `base_yaml` (a preset)
/// < the YAML file < `sets` (`--set`) < `flags`. `check`, if set, runs after validate() on the
/// merged result (e.g. "this command cannot use fault injection"); a `config_error` it or
/// validate() throws names the file line, `--set` or flag that set the key, if any did.
struct config_layers {
    std::string base_name;
    std::string base_yaml;
    std::string file;
    std::vector<std::string> sets;
    std::vector<flag_value> flags;
    std::function<void(const config&)> check;
};
config load_config_layers(const config_layers& layers);

/// Applies one `key=value` override (as given to `--set`): parses and range-checks the value,
/// errors read `--set KEY: REASON`. Does not run the cross-field validate().
void apply_set(config& c, const std::string& key_eq_value);

/// Sets `key` from its text form, e.g. ("switch.buffer_per_vl", "16KiB"), with the range check
/// of that key alone; `where` names the source in errors (e.g. config_source::flag("--ports")
/// for a CLI flag mapped onto a key). On error `c` is unchanged.
void set_value(config& c, const std::string& key, const std::string& value,
               const config_source& where);

}  // namespace ndr::cfg
