// Named configuration presets (`--preset NAME`, `ndrsim config presets`, docs/presets.md).
// Each preset is a YAML file in testbench/presets/, embedded into the binary at build time
// (presets/embed_presets.cmake). Its header comments carry `# preset:`, `# description:` and
// one `# soft:` line per number that is not solidly sourced.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ndr::tb {

struct embedded_preset {
    std::string_view name;  ///< file name without .yaml
    std::string_view yaml;  ///< file text
};

/// Every embedded preset, sorted by name (generated source preset_data.cpp).
const std::vector<embedded_preset>& embedded_presets();

struct preset {
    std::string name;
    std::string description;        ///< `# description:` line
    std::vector<std::string> soft;  ///< `# soft:` lines, text after the tag
    std::string yaml;               ///< full file text (comments included)
};

/// Parsed presets, sorted by name.
const std::vector<preset>& presets();

/// The preset called `name`; throws cfg::config_error `--preset: unknown preset ...` listing the
/// known names.
const preset& find_preset(const std::string& name);

/// Comment block for `config show --preset NAME`: `# preset:`, `# description:` and every
/// `# soft:` line, each ending in a newline.
std::string preset_header(const preset& p);

/// Source name used in config errors for a preset's lines, e.g. `preset:edr`.
std::string preset_source_name(const std::string& name);

}  // namespace ndr::tb
