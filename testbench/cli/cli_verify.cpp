// `ndrsim verify BLOCK|switch|all [--seed N] [--cycles N] [--wave FILE.fst] [--out DIR]`:
// the Verilated RTL of one block (or every registered block) against its reference, cycle by
// cycle, stopping at the first mismatch (issue #6; docs/cli.md, docs/rtl_verification.md).
// One line per block: pass with cycles, comparisons and coverage, or the first mismatch with
// cycle, port, VL, signal, expected and got. Exit 0 iff every block passed.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.h"

#if NDR_HAVE_VERIFY
#include "verify/mismatch_recorder.h"
#include "verify/verify_registry.h"
#endif

namespace ndr::tb {

namespace {

struct verify_cli_options {
    std::string block;
    std::uint64_t seed = 1;
    std::uint64_t cycles = 20000;
    std::string wave;
    std::string out;
    std::string fault;
};

#if NDR_HAVE_VERIFY

using nlohmann::json;

constexpr int EXIT_MISMATCH = 1;
constexpr int EXIT_USAGE = 2;

double coverage_pct(const verify::coverage_summary& c) {
    return c.points == 0 ? 0.0 : 100.0 * static_cast<double>(c.hit) / static_cast<double>(c.points);
}

json block_json(const verify::check_result& r, double wall_s) {
    json j{{"block", r.block},
           {"result", r.ok() ? "pass" : "fail"},
           {"cycles", r.cycles},
           {"comparisons", r.comparisons},
           {"coverage",
            {{"points", r.coverage.points},
             {"hit", r.coverage.hit},
             {"pct", coverage_pct(r.coverage)}}},
           {"wall_s", wall_s}};
    if (r.first_mismatch) {
        const verify::mismatch& m = *r.first_mismatch;
        j["mismatch"] = json{{"cycle", m.cycle}, {"port", m.port},         {"vl", m.vl},
                             {"what", m.what},   {"expected", m.expected}, {"got", m.got}};
    } else {
        j["mismatch"] = nullptr;
    }
    return j;
}

std::string block_line(const verify::check_result& r, double wall_s) {
    if (!r.ok()) {
        return fmt::format("verify {}: MISMATCH {}", r.block,
                           verify::format_mismatch(*r.first_mismatch));
    }
    return fmt::format(
        "verify {}: pass, {} cycles, {} comparisons, coverage {}/{} points "
        "({:.1f} %), {:.2f} s",
        r.block, r.cycles, r.comparisons, r.coverage.hit, r.coverage.points,
        coverage_pct(r.coverage), wall_s);
}

int usage_error(const std::string& msg) {
    fmt::print(stderr, "ndrsim: error: verify: {}\n", msg);
    return EXIT_USAGE;
}

int run(const verify_cli_options& o) {
    std::vector<const verify::registered_check*> todo;
    if (o.block == "all") {
        for (const verify::registered_check& c : verify::registered_checks()) todo.push_back(&c);
        if (!o.wave.empty()) return usage_error("--wave needs a single block, not all");
        if (!o.fault.empty()) return usage_error("--fault needs a single block, not all");
    } else if (const verify::registered_check* c = verify::find_check(o.block)) {
        todo.push_back(c);
    } else {
        return usage_error(
            fmt::format("unknown block '{}' (valid: {}, all)", o.block, verify::check_names()));
    }
    if (o.cycles == 0) return usage_error("--cycles must be at least 1");
    if (!o.wave.empty() && !std::ofstream(o.wave)) {
        return usage_error(fmt::format("--wave {}: cannot write the file", o.wave));
    }

    verify::check_options opt;
    opt.seed = o.seed;
    opt.cycles = o.cycles;
    opt.wave_path = o.wave;
    opt.fault = o.fault;
    json blocks = json::array();
    bool all_ok = true;
    for (const verify::registered_check* c : todo) {
        const auto t0 = std::chrono::steady_clock::now();
        verify::check_result r;
        try {
            r = c->fn(opt);
        } catch (const std::invalid_argument& e) {
            return usage_error(e.what());
        }
        if (r.block.empty()) r.block = std::string(c->name);
        const double wall_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        fmt::print("{}\n", block_line(r, wall_s));
        std::fflush(stdout);
        blocks.push_back(block_json(r, wall_s));
        all_ok = all_ok && r.ok();
    }
    if (!o.out.empty()) {
        const json report{{"command", "verify"}, {"block", o.block},
                          {"seed", o.seed},      {"cycles", o.cycles},
                          {"fault", o.fault},    {"result", all_ok ? "pass" : "fail"},
                          {"blocks", blocks}};
        write_file(o.out, "report.json", report.dump(2) + "\n");
    }
    return all_ok ? 0 : EXIT_MISMATCH;
}

#else

int run(const verify_cli_options&) {
    fmt::print(stderr, "ndrsim: error: verify: this ndrsim was built without Verilator\n");
    return 2;
}

#endif

}  // namespace

void add_verify_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand(
        "verify", "check the Verilated RTL of a block against its reference, cycle by cycle");
    auto o = std::make_shared<verify_cli_options>();
#if NDR_HAVE_VERIFY
    const std::string names = verify::check_names();
#else
    const std::string names = "(none: built without Verilator)";
#endif
    cmd->add_option("block", o->block, "block to verify: " + names + ", or all")->required();
    cmd->add_option("--seed", o->seed, "random seed of the stimulus (default 1)");
    cmd->add_option("--cycles", o->cycles, "cycles of stimulus per block (default 20000)");
    cmd->add_option("--wave", o->wave, "write an FST waveform of the block (GTKWave)");
    cmd->add_option("--out", o->out, "write DIR/report.json (per-block result and coverage)")
        ->check(non_empty);
    // Advanced: run a fault-injected build, the checker's self-test (docs/rtl_verification.md).
    cmd->add_option("--fault", o->fault, "fault-injected build to run")->group("");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
