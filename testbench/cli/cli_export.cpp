// `ndrsim export chakra TRACE -o PREFIX`: a trace as Chakra execution traces, one
// PREFIX.<rank>.et per rank (models/trace/chakra_export.h, docs/trace_format.md).
#include <fmt/format.h>

#include <memory>

#include "cli.h"
#include "config/config_error.h"
#include "trace/chakra_export.h"
#include "trace/trace.h"

namespace ndr::tb {

namespace {

struct export_opts {
    std::string trace;
    std::string prefix;
};

int run_export(const export_opts& o) {
    trace::chakra_export ex;
    uint32_t ranks = 0;
    try {
        const trace::trace t = trace::load_trace(o.trace);
        ranks = t.nranks;
        ex = trace::write_chakra(t, o.prefix);
    } catch (const trace::trace_error& e) {
        throw cfg::config_error(e.what());
    }
    fmt::print("wrote {}.0.et .. {}.{}.et: {} ranks, {} nodes\n", o.prefix, o.prefix, ranks - 1,
               ranks, ex.nodes);
    if (ex.dropped_gaps != 0) {
        fmt::print(stderr,
                   "ndrsim: warning: {} records' gap_ns/issue_ns dropped (Chakra has no idle "
                   "time)\n",
                   ex.dropped_gaps);
    }
    if (ex.rounded_durations != 0) {
        fmt::print(stderr,
                   "ndrsim: warning: {} compute durations rounded to whole microseconds "
                   "(duration_micros)\n",
                   ex.rounded_durations);
    }
    return 0;
}

}  // namespace

void add_export_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand(
        "export", "convert a trace into a foreign format (docs/trace_format.md)");
    cmd->require_subcommand(1);
    auto o = std::make_shared<export_opts>();
    CLI::App* chakra = cmd->add_subcommand(
        "chakra", "MLCommons Chakra execution traces for ASTRA-sim, one PREFIX.<rank>.et per rank");
    chakra->add_option("TRACE", o->trace, "the trace (JSON Lines)")->required();
    chakra->add_option("-o,--output", o->prefix, "writes PREFIX.0.et, PREFIX.1.et, ...")
        ->required();
    chakra->callback([o, &action] { action = [o] { return run_export(*o); }; });
}

}  // namespace ndr::tb
