#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "cli.h"
#include "config/config_error.h"
#include "config/cross_check.h"
#include "job_setup.h"
#include "jobs_report.h"
#include "json_stream.h"
#include "output_files.h"
#include "run_report.h"
#include "run_sim.h"
#include "run_timeline.h"
#include "sim_level.h"
#include "trace/trace.h"

namespace ndr::tb {

namespace {

struct run_cli_options {
    config_options cfg;
    std::vector<std::string> traces;  ///< one: a single job; several: a multi-job run
    std::string jobs;                 ///< --jobs FILE
    std::string out;
    std::string pcap;
    std::string pcap_link;
    bool quiet = false;
    bool level_only = false;  ///< --which-level
};

int run(const run_cli_options& o) {
    cfg::config c = o.cfg.resolve();
    for (const std::string& w : cfg::cross_check(c))
        fmt::print(stderr, "ndrsim run: warning: {}\n", w);
    if (o.traces.empty() && o.jobs.empty())
        flag_error("trace", "give a trace, several, or --jobs FILE");
    // Several traces or a jobs file: the jobs merged into one trace on one fabric (job_setup.h).
    std::optional<job_setup> jobs;
    trace::trace single;
    if (o.traces.size() > 1 || !o.jobs.empty()) {
        jobs = prepare_jobs(c, o.traces, o.jobs);
        c = jobs->config;
    } else {
        if (c.jobs.baseline)
            fmt::print(stderr, "ndrsim run: note: jobs.baseline acts on multi-job runs only\n");
        try {
            single = trace::load_trace(o.traces.front());
        } catch (const trace::trace_error& e) {
            throw cfg::config_error(e.what());  // bad input: exit 2 like a bad config
        }
    }
    const trace::trace& tr = jobs ? jobs->merged.t : single;
    run_options ro;
    ro.pcap_path = o.pcap;
    ro.pcap_link = o.pcap_link;
    const level_choice choice = choose_replay_level(c, tr, !o.pcap.empty());
    const bool tlm = choice.level == sim_level::tlm;
    if (o.level_only) {
        fmt::print("{}\n", level_choice_json(choice).dump(2));
        return 0;
    }
    if (jobs && c.jobs.baseline) run_baselines(*jobs, choice.level);
    const run_outcome out = run_trace_at(choice.level, c, tr, ro);
    const bool burst_note =
        tlm && out.switches > 1 && c.sim.tlm_burst.count / c.hca.mtu.count > 1 &&
        std::any_of(
            tr.collectives.begin(), tr.collectives.end(),
            [](const trace::collective_instance& ci) { return ci.op == coll::op_kind::alltoall; });
    // Bursts are exact on uncontended paths only; a multi-switch alltoall congests the fabric,
    // where they finish early (docs/fidelity_tlm.md: up to 13 %).
    const std::string note =
        "alltoall on a multi-switch fabric with TLM bursts: completion times are optimistic "
        "under fabric congestion (docs/fidelity_tlm.md); --set sim.tlm_burst=0 for "
        "packet-by-packet timing";
    if (burst_note) fmt::print(stderr, "ndrsim run: note: {}\n", note);
    // A SHARP burst holds a switch output for its whole span: where it shared one with another
    // VL's traffic, SHARP got more than its VL-arbiter share (docs/fidelity_tlm.md).
    const std::string sharp_note =
        out.sharp_bursts_contended == 0
            ? std::string()
            : fmt::format(
                  "{} SHARP bursts shared a switch output with traffic of another VL: "
                  "SHARP's share of those outputs is overstated (docs/fidelity_tlm.md); "
                  "--set sim.tlm_sharp_burst=0 for packet-by-packet SHARP",
                  out.sharp_bursts_contended);
    if (!sharp_note.empty()) fmt::print(stderr, "ndrsim run: note: {}\n", sharp_note);
    // `-q` without `--out` writes nothing: no table, no report (the run's checks are inside
    // run_trace_at).
    if (o.quiet && o.out.empty()) return 0;
    if (!o.quiet) {
        fmt::print("ndrsim run{}: {} ({} ranks) on {}\n", tlm ? " (TLM level)" : "", tr.path,
                   tr.nranks, out.topology);
        fmt::print("{}", run_table(tr, out));
        if (jobs) fmt::print("{}", jobs_table(jobs->merged, out, jobs->info));
        if (!o.pcap.empty()) {
            fmt::print("capture: {} ({} packets on {} and back)\n", o.pcap, out.pcap_records,
                       out.pcap_link);
        }
    }
    if (!o.out.empty()) {
        // Both files are streamed as they are written (json_stream): no document in memory.
        run_report_notes notes;
        notes.tlm = tlm;  // cycle-level reports have no sim.level
        if (burst_note) notes.tlm_burst_note = note;
        notes.tlm_sharp_burst_note = sharp_note;
        notes.level_choice = level_choice_json(choice);
        if (jobs) {
            notes.extra = [&jobs, &out](json_out& w) {
                write_jobs_section(w, jobs->merged, out, jobs->info);
            };
        }
        write_file_with(o.out, "report.json", [&](std::ostream& os) {
            json_stream w(os, 2);
            write_run_report(w, c, tr, out, notes);
            os << '\n';
        });
        const timeline_level level = timeline_level_of(c.report.timeline);
        if (level == timeline_level::off) {
            remove_file(o.out, "timeline.json");  // not one left from an earlier run
        } else {
            write_file_with(o.out, "timeline.json", [&](std::ostream& os) {
                json_stream w(os);
                write_run_timeline(w, tr, out, level);
                os << '\n';
            });
        }
        if (!o.quiet && level == timeline_level::off) {
            fmt::print("report: {}/report.json (report.timeline = off: no timeline.json)\n", o.out);
        } else if (!o.quiet) {
            fmt::print("report: {0}/report.json, timeline: {0}/timeline.json\n", o.out);
        }
    }
    return 0;
}

}  // namespace

void add_run_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand(
        "run", "replay a collective trace on cycle-level (or TLM) HCAs and switches");
    auto o = std::make_shared<run_cli_options>();
    cmd->add_option("trace", o->traces,
                    "trace file (JSON Lines, docs/trace_format.md); several: one job each, run "
                    "together on one fabric (docs/multijob.md)")
        ->check(CLI::ExistingFile);
    cmd->add_option("--jobs", o->jobs,
                    "jobs file (YAML/JSON: jobs: [{trace, hosts}], docs/formats/jobs_file.md) "
                    "instead of trace arguments")
        ->check(CLI::ExistingFile);
    o->cfg.add_key_flag(*cmd, "--placement", "jobs.placement",
                        "multi-job runs: packed|spread|random placement of the jobs' hosts");
    cmd->add_flag_function(
        "--baseline",
        [o](std::int64_t) {
            o->cfg.flags.push_back({"--baseline", "jobs.baseline", "true"});
        },
        "multi-job runs: run each job alone on its hosts first and report its slowdown "
        "(= --set jobs.baseline=true)");
    o->cfg.add_to(*cmd);
    o->cfg.add_key_flag(*cmd, "--hosts", "fabric.hosts", "hosts (default: the trace's ranks)");
    o->cfg.add_key_flag(*cmd, "--topology", "fabric.topology", "single_switch|fat_tree");
    cmd->add_flag_function(
        "--data",
        [o](std::int64_t) {
            o->cfg.flags.push_back({"--data", "sharp.data", "on"});
        },
        "SHARP: carry real element values and check every result against the golden reduction "
        "(= --set sharp.data=on; default auto: collectives of at most 1 MiB)");
    cmd->add_option("--out", o->out, "write DIR/report.json and DIR/timeline.json")
        ->check(non_empty);
    CLI::Option* pcap =
        cmd->add_option("--pcap", o->pcap, "capture the packets of one link to a pcap file")
            ->check(non_empty);
    cmd->add_option("--pcap-link", o->pcap_link, "link to capture (default: host 0's uplink)")
        ->check(non_empty)
        ->needs(pcap);
    o->cfg.add_key_flag(*cmd, "--level", "sim.level",
                        "model level: cycle (cycle-level HCAs and switches), tlm (TLM-2.0 models, "
                        "docs/fidelity_tlm.md) or auto (the cheaper of the two by an estimate of "
                        "their CPU time: sim.level_auto)");
    cmd->add_flag("--which-level", o->level_only,
                  "print the level this run would use, why, and (sim.level auto) the estimated "
                  "CPU time of each level as JSON (report.json sim.level_choice), then stop "
                  "without simulating");
    cmd->add_flag("-q,--quiet", o->quiet, "no table on stdout");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
