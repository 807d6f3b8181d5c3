#include <fmt/format.h>

#include <memory>

#include "cli.h"
#include "config/config_dump.h"
#include "config/config_error.h"
#include "fabric_counts.h"
#include "preset.h"

namespace ndr::tb {

namespace {

/// The derived fabric of the config, as YAML comments: count_fabric (fabric_counts.h), the
/// numbers report.json's `fabric` gives for a run on that fabric. `nodes` (--nodes; 0 = none):
/// the nodes of a trace, which sizes the fabric when fabric.hosts is 0, as a run's trace does.
std::string fabric_comment(const cfg::config& c, uint32_t nodes) {
    const uint32_t hcas = c.node.hcas != 0 ? c.node.hcas : c.node.gpus;
    if (nodes == 0 && c.fabric.hosts == 0) {
        return "# fabric: sized by the trace (fabric.hosts = 0); --nodes N or --set "
               "fabric.hosts=H prints its counts\n";
    }
    uint32_t hosts = c.fabric.hosts;
    if (nodes != 0) {
        const uint64_t need = uint64_t{nodes} * hcas;
        if (need > 65535) {
            throw cfg::config_error(cfg::config_source::flag("--nodes"), "",
                                    fmt::format("{} nodes of {} HCAs are {} hosts, above 65535 "
                                                "(fabric.hosts)",
                                                nodes, hcas, need));
        }
        if (hosts != 0 && hosts < need) {
            throw cfg::config_error(cfg::config_source::flag("--nodes"), "",
                                    fmt::format("{} nodes of {} HCAs need {} hosts but "
                                                "fabric.hosts is {}",
                                                nodes, hcas, need, hosts));
        }
        if (hosts == 0) hosts = static_cast<uint32_t>(need);
    }
    // A run counts the nodes its ranks occupy when node.gpus > 1, else hosts / HCAs per node.
    const fabric_counts f =
        count_fabric(c, build_fabric_topology(c, hosts), c.node.gpus > 1 ? nodes : 0);
    std::string s = "# fabric (derived; report.json's fabric gives the same):\n";
    s += fmt::format("#   topology: {}\n", f.topology);
    s += fmt::format("#   nodes: {}\n#   gpus_per_node: {}\n#   gpus: {}\n", f.nodes,
                     f.gpus_per_node, f.gpus);
    s += fmt::format("#   hcas_per_node: {}\n#   hcas: {}\n#   rails: {}\n", f.hcas_per_node,
                     f.hosts, f.rails);
    s +=
        fmt::format("#   leaves: {}\n#   spines: {}\n#   cores: {}\n", f.leaves, f.spines, f.cores);
    s += fmt::format("#   switches: {}\n#   levels: {}\n#   tiers: {}  # link tiers 0..{}\n",
                     f.switches, f.levels, f.levels, f.levels - 1);
    return s;
}

}  // namespace

void add_config_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand("config", "show the resolved configuration or the keys");
    cmd->require_subcommand(1);
    auto opts = std::make_shared<config_options>();
    CLI::App* show = cmd->add_subcommand(
        "show", "print the resolved config as YAML, then the derived fabric counts (comments)");
    opts->add_to(*show);
    auto nodes = std::make_shared<uint32_t>(0);
    show->add_option("--nodes", *nodes,
                     "nodes of a trace (node.gpus ranks each): the fabric counts for them");
    show->callback([opts, nodes, &action] {
        action = [opts, nodes] {
            const cfg::config c = opts->resolve();
            const std::string fabric = fabric_comment(c, *nodes);  // errors before any output
            if (!opts->preset.empty()) fmt::print("{}", preset_header(find_preset(opts->preset)));
            fmt::print("{}", cfg::to_yaml(c));
            fmt::print("{}", fabric);
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
