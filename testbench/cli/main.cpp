// ndrsim: cycle-level InfiniBand NDR switch and HCA simulator. See docs/cli.md.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <systemc>

#include "cli.h"
#include "clip_text.h"
#include "common/invariant_error.h"
#include "config/config_error.h"

namespace {

/// One error line, at most 500 characters; the cut is marked.
std::string one_line(const char* what) {
    return ndr::tb::clip_text(what, 500);
}

}  // namespace

// ndrsim's entry point: sc_main, called by SystemC's sc_elab_and_sim. Our own main() replaces
// libsystemc's only to set SYSTEMC_DISABLE_COPYRIGHT_MESSAGE before the kernel starts (the
// banner is printed before sc_main runs).
extern "C" int sc_main(int argc, char* argv[]) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    CLI::App app{"ndrsim: cycle-level InfiniBand NDR switch, HCA and SHARP simulator"};
    app.set_version_flag("--version", "ndrsim 0.1.0");
    app.require_subcommand(1);
    ndr::tb::command_action action;
    ndr::tb::add_traffic_command(app, action);
    ndr::tb::add_config_command(app, action);
    ndr::tb::add_bench_command(app, action);
    ndr::tb::add_run_command(app, action);
    ndr::tb::add_gen_command(app, action);
    ndr::tb::add_import_command(app, action);
    ndr::tb::add_export_command(app, action);
    ndr::tb::add_sweep_command(app, action);
    ndr::tb::add_results_command(app, action);
    ndr::tb::add_plot_command(app, action);
    ndr::tb::add_compare_command(app, action);
    ndr::tb::add_validate_command(app, action);
    ndr::tb::add_verify_command(app, action);
    ndr::tb::add_nccl_tests_command(app, action);
    try {
        app.parse(argc, argv);
        return action ? action() : 0;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);
        fmt::print(stderr, "ndrsim: error: {}\n", one_line(e.what()));
        return 2;
    } catch (const ndr::cfg::config_error& e) {
        fmt::print(stderr, "ndrsim: error: {}\n", one_line(e.what()));
        return 2;
    } catch (const ndr::common::invariant_error& e) {
        fmt::print(stderr, "ndrsim: invariant violated: {}\n", one_line(e.what()));
        return 3;
    } catch (const std::bad_alloc&) {
        fmt::print(stderr,
                   "ndrsim: error: out of memory: this input needs more memory than the machine "
                   "has\n");
        return 1;
    } catch (const std::exception& e) {
        fmt::print(stderr, "ndrsim: error: {}\n", one_line(e.what()));
        return 1;
    }
}

int main(int argc, char* argv[]) {
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
