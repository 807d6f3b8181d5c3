// The ndrsim command line: one function per subcommand, registered on a CLI11 app.
#pragma once
#include <CLI/CLI.hpp>
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "config/sim_config.h"
#include "output_files.h"

namespace ndr::tb {

/// Options every simulating command shares: --preset NAME, --config FILE and repeated
/// --set key=value. Precedence: defaults < preset < file < --set < flags.
struct config_options {
    std::string preset;  ///< empty: none (docs/presets.md)
    std::string file;
    std::vector<std::string> sets;
    /// (flag name, key, value) pairs from dedicated flags such as --ports, applied after --set.
    std::vector<std::array<std::string, 3>> flags;
    void add_to(CLI::App& app);
    /// Flag that maps straight onto a config key.
    void add_key_flag(CLI::App& app, const std::string& flag, const std::string& key,
                      const std::string& help);
    /// Loads every layer and validates; `check` (optional) adds the command's own refusals,
    /// whose errors then name the line or flag that set the key like validate()'s do.
    cfg::config resolve(const std::function<void(const cfg::config&)>& check = {}) const;
};

using command_action = std::function<int()>;

/// For options whose value names a file or directory: an empty value (`--out ''`) is an error,
/// not a silent "no output".
inline const CLI::Validator non_empty(
    [](std::string& v) { return v.empty() ? std::string("must not be empty") : std::string(); },
    "NOT EMPTY", "non_empty");

/// A bad command-line value: config_error `ndrsim: error: FLAG: REASON` (exit 2).
[[noreturn]] void flag_error(const std::string& flag, const std::string& reason);

/// Each registers its subcommand and sets `action` to run it when selected.
void add_traffic_command(CLI::App& app, command_action& action);
void add_config_command(CLI::App& app, command_action& action);
void add_bench_command(CLI::App& app, command_action& action);
void add_run_command(CLI::App& app, command_action& action);
void add_gen_command(CLI::App& app, command_action& action);
void add_import_command(CLI::App& app, command_action& action);
void add_export_command(CLI::App& app, command_action& action);
void add_sweep_command(CLI::App& app, command_action& action);
void add_results_command(CLI::App& app, command_action& action);
void add_plot_command(CLI::App& app, command_action& action);
void add_compare_command(CLI::App& app, command_action& action);
void add_validate_command(CLI::App& app, command_action& action);
void add_verify_command(CLI::App& app, command_action& action);
void add_nccl_tests_command(CLI::App& app, command_action& action);

}  // namespace ndr::tb
