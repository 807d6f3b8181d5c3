// Where a configuration value came from, for error messages: a line of a YAML file, a
// command-line flag (`--set`), or the merged result being validated.
#pragma once
#include <string>

namespace ndr::cfg {

/// The origin of a configuration value. Formats the location part of a `config_error`:
///   file:          `FILE:LINE: KEY: REASON` (`FILE: REASON` for whole-file problems)
///   command line:  `--set KEY: REASON` (the flag name is `name`)
///   merged:        `KEY: REASON` (validation of the final config)
struct config_source {
    enum class kind { merged, file, command_line };

    kind type = kind::merged;
    std::string name;  ///< file path, or the flag (e.g. `--set`, `--ports`); empty when merged
    int line = 0;      ///< 1-based line in the file; 0 = the file as a whole

    /// A line (1-based; 0 = whole file) of the YAML file at `path`.
    static config_source file(std::string path, int line_1based = 0);
    /// A command-line flag; `--set` unless the CLI maps its own flag (e.g. `--ports`).
    static config_source flag(std::string flag_name = "--set");
    /// The merged configuration (defaults + file + overrides), as validated.
    static config_source merged();
};

}  // namespace ndr::cfg
