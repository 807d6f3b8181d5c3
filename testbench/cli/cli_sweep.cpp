// `ndrsim sweep SWEEP.yaml`: a parameter sweep run locally in parallel or as a Slurm job array,
// results in an SQLite database (docs/sweeps.md).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <thread>

#include "cli.h"
#include "clip_text.h"
#include "config/config_error.h"
#include "sweep_db.h"
#include "sweep_point.h"
#include "sweep_runner.h"
#include "sweep_slurm.h"
#include "sweep_spec.h"

namespace ndr::tb {

namespace {

namespace fs = std::filesystem;

struct sweep_options {
    std::string file;
    std::string db;
    unsigned jobs = 0;
    bool dry_run = false;
    std::string backend = "local";
    bool collect = false;
    bool no_submit = false;
    std::vector<std::string> sbatch;
    std::string run_point;
};

std::string params_text(const nlohmann::json& params) {
    std::string s;
    for (auto it = params.begin(); it != params.end(); ++it) {
        if (!s.empty()) s += ' ';
        // A value is cut at 80 characters: a 1 MB axis value lists as one short row.
        s += it.key() + "=" +
             clip_text(it.value().is_string() ? it.value().get<std::string>() : it.value().dump(),
                       80);
    }
    return s.empty() ? "(base)" : s;
}

int run(const sweep_options& o) {
    if (!o.run_point.empty()) return run_point_dir(o.run_point);
    if (o.file.empty()) throw cfg::config_error("sweep: a SWEEP.yaml file is required");
    const sweep_spec s = load_sweep(o.file);
    const std::vector<sweep_point> points = expand(s);
    const std::string db_path = o.db.empty() ? s.name + ".db" : o.db;
    const std::string work = db_path + ".d";
    std::map<std::string, std::string> status;
    if (o.dry_run) {
        if (fs::exists(db_path)) {
            sweep_db db(db_path, true);
            for (const auto& [k, v] : db.statuses(s.name)) status[k] = v;
        }
        std::size_t to_run = 0;
        fmt::print("{:>5}  {:<16}  {:<8}  {}\n", "point", "point_key", "status", "parameters");
        for (const sweep_point& p : points) {
            const std::string st = !p.error.empty()      ? "invalid"
                                   : status.count(p.key) ? status[p.key]
                                                         : "new";
            if (st != "done" && st != "invalid") ++to_run;
            fmt::print("{:>5}  {:<16}  {:<8}  {} seed={}{}\n", p.index, p.key, st,
                       params_text(p.params), p.seed,
                       p.error.empty() ? "" : "  (" + clip_text(p.error, 500) + ")");
        }
        std::string grid;
        for (const sweep_axis& a : s.axes)
            grid += fmt::format("{}{}", grid.empty() ? "" : " x ", a.size());
        fmt::print("{} points ({}{} repeats), {} to run; sweep '{}', database {}\n", points.size(),
                   grid.empty() ? "" : "grid " + grid + ", ", s.repeats, to_run, s.name, db_path);
        return 0;
    }
    sweep_db db(db_path);
    db.register_sweep(s, points);
    for (const sweep_point& p : points) {
        if (!p.error.empty()) db.record_failed(s.name, p.key, p.error);
    }
    if (o.collect) {
        const collect_stats c = collect_shards(s, points, work, db);
        fmt::print(
            "collected {} result shards ({} done, {} failed); {} points still without a "
            "shard; database {}\n",
            c.done + c.failed, c.done, c.failed, c.missing, db_path);
        return 0;
    }
    // Shards finished but never recorded (a killed sweep, an uncollected Slurm task) count.
    const collect_stats picked = collect_shards(s, points, work, db);
    for (const auto& [k, v] : db.statuses(s.name)) status[k] = v;
    std::vector<const sweep_point*> todo;
    std::size_t done = 0;
    for (const sweep_point& p : points) {
        if (status[p.key] == "done") {
            ++done;
        } else if (p.error.empty()) {
            todo.push_back(&p);
        }
    }
    const unsigned jobs = o.jobs != 0 ? o.jobs : std::max(1U, std::thread::hardware_concurrency());
    fmt::print("sweep {}: {} points, {} already done{}, {} to run ({} backend{}); database {}\n",
               s.name, points.size(), done,
               picked.done + picked.failed
                   ? fmt::format(" ({} picked up from result shards)", picked.done + picked.failed)
                   : "",
               todo.size(), o.backend, o.backend == "local" ? fmt::format(", {} jobs", jobs) : "",
               db_path);
    std::fflush(stdout);
    if (o.backend == "slurm") {
        if (todo.empty()) return 0;
        for (const sweep_point* p : todo) prepare_point_dir(point_dir(work, p->key), s, *p);
        const std::string script = write_array_script(s, todo, work, self_exe(), o.jobs, o.sbatch);
        fmt::print("array script: {}\n", script);
        if (o.no_submit) return 0;
        const std::string id = submit_array(script);
        fmt::print(
            "submitted job array {} ({} tasks); when it has finished: ndrsim sweep {} --db "
            "{} --collect\n",
            id, todo.size(), o.file, db_path);
        return 0;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const sweep_run_stats st = run_local(s, todo, work, jobs, db, ::isatty(1) != 0);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::map<std::string, std::size_t> count;
    for (const auto& [k, v] : db.statuses(s.name)) ++count[v];
    fmt::print(
        "sweep {}: ran {} points ({} done, {} failed) in {:.1f} s; database: {} done, {} "
        "failed, {} pending of {}\n",
        s.name, st.launched, st.done, st.failed, secs, count["done"], count["failed"],
        count["pending"], points.size());
    if (st.interrupted) {
        fmt::print(stderr,
                   "ndrsim: sweep interrupted by signal {}: {} points pending; run the same "
                   "command again to resume\n",
                   st.signal, count["pending"]);
        return 128 + st.signal;
    }
    return count["failed"] ? 1 : 0;
}

}  // namespace

void add_sweep_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand(
        "sweep", "parameter sweep: parallel grid runs, resumable results in SQLite, Slurm arrays");
    auto o = std::make_shared<sweep_options>();
    cmd->add_option("sweep", o->file, "sweep file (YAML, docs/sweeps.md)");
    cmd->add_option("--db", o->db, "results database (default: ./NAME.db); points in DB.d/")
        ->check(non_empty);
    cmd->add_option("-j,--jobs", o->jobs,
                    "points run in parallel (default: all cores); with slurm: array throttle");
    cmd->add_flag("--dry-run", o->dry_run, "list the points and their count, run nothing");
    cmd->add_option("--backend", o->backend, "local (child processes) or slurm (sbatch job array)")
        ->check(CLI::IsMember({"local", "slurm"}));
    cmd->add_flag("--collect", o->collect,
                  "merge the result shards of a Slurm array into the database");
    cmd->add_flag("--no-submit", o->no_submit, "slurm: write the array script, do not submit it");
    cmd->add_option("--sbatch", o->sbatch,
                    "slurm: extra #SBATCH option, e.g. --sbatch=--partition=debug (repeatable)")
        ->allow_extra_args(false);
    cmd->add_option("--run-point", o->run_point,
                    "run one prepared point directory and write its result shard (what each "
                    "child process and Slurm task runs)");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
