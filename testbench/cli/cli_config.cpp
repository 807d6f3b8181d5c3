#include <fmt/format.h>

#include <memory>

#include "cli.h"
#include "config/config_dump.h"
#include "preset.h"

namespace ndr::tb {

void add_config_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand("config", "show the resolved configuration or the keys");
    cmd->require_subcommand(1);
    auto opts = std::make_shared<config_options>();
    CLI::App* show = cmd->add_subcommand("show", "print the resolved config as YAML");
    opts->add_to(*show);
    show->callback([opts, &action] {
        action = [opts] {
            const cfg::config c = opts->resolve();
            if (!opts->preset.empty()) fmt::print("{}", preset_header(find_preset(opts->preset)));
            fmt::print("{}", cfg::to_yaml(c));
            return 0;
        };
    });
    CLI::App* list = cmd->add_subcommand(
        "presets", "list the named presets (--preset NAME) with a one-line description");
    list->callback([&action] {
        action = [] {
            for (const preset& p : presets()) fmt::print("{:<6} {}\n", p.name, p.description);
            return 0;
        };
    });
    CLI::App* keys = cmd->add_subcommand("keys", "list every config key with default and range");
    keys->callback([&action] {
        action = [] {
            fmt::print("{}", cfg::describe_keys());
            return 0;
        };
    });
}

}  // namespace ndr::tb
