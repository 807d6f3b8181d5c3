// ndrsim: cycle-level InfiniBand NDR switch and HCA simulator. See docs/cli.md.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <string_view>
#include <systemc>

#include <unistd.h>

#include "cli.h"
#include "clip_text.h"
#include "common/invariant_error.h"
#include "config/config_error.h"

namespace {

/// One error line, at most 500 characters; the cut is marked.
std::string one_line(const char* what) {
    return ndr::tb::clip_text(what, 500);
}

/// Runs the process again with glibc's malloc backing its heap by transparent huge pages
/// (GLIBC_TUNABLES glibc.malloc.hugetlb=1; glibc reads tunables only at start-up). A large
/// fabric's state is spread over a gigabyte of heap that every event touches somewhere, so TLB
/// misses are a large part of a run: the 16,384-GPU ring ran 20 % less user CPU per simulated
/// microsecond with it (docs/performance.md, "Huge pages"). Results do not change. Skipped when
/// NDRSIM_THP=0, when GLIBC_TUNABLES already sets it, and under valgrind (its tools follow no
/// exec unless told to). If exec fails the run goes on as it is.
void reexec_with_huge_pages(char* argv[]) {
    const char* thp = std::getenv("NDRSIM_THP");
    if (thp != nullptr && std::string_view(thp) == "0") return;
    const char* tun = std::getenv("GLIBC_TUNABLES");
    if (tun != nullptr &&
        std::string_view(tun).find("glibc.malloc.hugetlb") != std::string_view::npos)
        return;
    const char* pre = std::getenv("LD_PRELOAD");
    if (pre != nullptr && std::string_view(pre).find("vgpreload") != std::string_view::npos) return;
    const std::string v = tun != nullptr && *tun != '\0'
                              ? std::string(tun) + ":glibc.malloc.hugetlb=1"
                              : std::string("glibc.malloc.hugetlb=1");
    if (::setenv("GLIBC_TUNABLES", v.c_str(), 1) != 0) return;
    ::execv("/proc/self/exe", argv);
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
    reexec_with_huge_pages(argv);
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
