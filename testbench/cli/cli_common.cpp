#include <filesystem>
#include <fstream>

#include "cli.h"
#include "config/config_error.h"
#include "config/config_loader.h"
#include "config/config_source.h"
#include "config/validate.h"
#include "preset.h"

namespace ndr::tb {

void flag_error(const std::string& flag, const std::string& reason) {
    throw cfg::config_error(cfg::config_source::flag(flag), "", reason);
}

void config_options::add_to(CLI::App& app) {
    app.add_option("--preset", preset,
                   "named config preset: ndr, hdr, xdr, edr, dgx-h100, dgx-a100, roce-400g "
                   "(`ndrsim config presets`)");
    app.add_option("--config", file,
                   "YAML config file (defaults < --preset < file < --set < flags)");
    app.add_option("--set", sets, "override one config key: --set switch.ports=16 (repeatable)")
        ->allow_extra_args(false);
}

void config_options::add_key_flag(CLI::App& app, const std::string& flag, const std::string& key,
                                  const std::string& help) {
    app.add_option_function<std::string>(
        flag,
        [this, flag, key](const std::string& v) {
            flags.push_back({flag, key, v});
        },
        help + " (= --set " + key + "=...)");
}

cfg::config config_options::resolve(const std::function<void(const cfg::config&)>& check) const {
    cfg::config_layers l;
    if (!preset.empty()) {
        const tb::preset& p = find_preset(preset);
        l.base_name = preset_source_name(p.name);
        l.base_yaml = p.yaml;
    }
    l.file = file;
    l.sets = sets;
    for (const auto& [flag, key, value] : flags) l.flags.push_back({flag, key, value});
    l.check = check;
    return cfg::load_config_layers(l);
}

}  // namespace ndr::tb
