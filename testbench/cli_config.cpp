#include <fmt/format.h>

#include <memory>

#include "cli.h"
#include "config/config_dump.h"

namespace ndr::tb {

void add_config_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand("config", "show the resolved configuration or the keys");
    cmd->require_subcommand(1);
    auto opts = std::make_shared<config_options>();
    CLI::App* show = cmd->add_subcommand("show", "print the resolved config as YAML");
    opts->add_to(*show);
    show->callback([opts, &action] {
        action = [opts] {
            fmt::print("{}", cfg::to_yaml(opts->resolve()));
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
