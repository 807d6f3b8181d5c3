// `ndrsim gen collective|ddp|permutation|background`: synthetic traces (models/trace/generators.h,
// docs/trace_format.md "Generators").
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "cli.h"
#include "common/rng.h"
#include "common/traffic_pattern.h"
#include "config/config_error.h"
#include "config/unit_parse.h"
#include "trace/generators.h"
#include "trace/trace_writer.h"

namespace ndr::tb {

namespace {

uint64_t size_arg(const std::string& flag, const std::string& text) {
    try {
        return cfg::parse_bytes(text).count;
    } catch (const cfg::config_error& e) {
        flag_error(flag, fmt::format("'{}': {}", text, e.reason));
    }
}

uint64_t time_ns_arg(const std::string& flag, const std::string& text) {
    uint64_t ps = 0;
    try {
        ps = cfg::parse_time(text).ps;
    } catch (const cfg::config_error& e) {
        flag_error(flag, fmt::format("'{}': {}", text, e.reason));
    }
    if (ps % 1000 != 0) flag_error(flag, fmt::format("'{}' is not a whole number of ns", text));
    return ps / 1000;
}

/// SIZE or MIN:MAX:FACTOR (nccl-tests -b/-e/-f).
std::vector<uint64_t> sizes_arg(const std::string& text) {
    const std::size_t c1 = text.find(':');
    if (c1 == std::string::npos) return {size_arg("--bytes", text)};
    const std::size_t c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos || text.find(':', c2 + 1) != std::string::npos) {
        flag_error("--bytes", fmt::format("expected SIZE or MIN:MAX:FACTOR, got '{}'", text));
    }
    const uint64_t lo = size_arg("--bytes", text.substr(0, c1));
    const uint64_t hi = size_arg("--bytes", text.substr(c1 + 1, c2 - c1 - 1));
    const std::string f = text.substr(c2 + 1);
    if (f.empty() || f.find_first_not_of("0123456789") != std::string::npos || f.size() > 9) {
        flag_error("--bytes", fmt::format("FACTOR must be a whole number, got '{}'", f));
    }
    try {
        return trace::geometric_sizes(lo, hi, std::stoull(f));
    } catch (const std::invalid_argument& e) {
        flag_error("--bytes", e.what());
    }
}

template <typename E, typename P>
E enum_arg(const std::string& flag, const std::string& text, P parse, std::string_view allowed) {
    if (auto v = parse(text)) return *v;
    flag_error(flag, fmt::format("unknown value '{}' (allowed: {})", text, allowed));
}

constexpr std::string_view op_names =
    "allreduce, reduce_scatter, allgather, alltoall, broadcast, reduce, barrier";
constexpr std::string_view dtype_names =
    "int8, uint8, int16, uint16, int32, uint32, int64, uint64, fp16, bf16, fp32, fp64, fp8e4m3, "
    "fp8e5m2";
constexpr std::string_view redop_names = "sum, prod, max, min, avg";

struct collective_opts {
    std::string op, bytes, dtype = "fp32", redop = "sum", out, name;
    std::vector<std::string> algos;
    uint32_t ranks = 0, iters = 1, root = 0;
    uint32_t nodes = 0, gpus_per_node = 0;
};

struct ddp_opts {
    std::string model, dtype = "fp32", algo = "auto", out, fwd, bwd, opt;
    uint32_t ranks = 0, steps = 1;
    uint32_t nodes = 0, gpus_per_node = 0;
    double buckets_mb = 25.0;
    double first_bucket_mb = 1.0;
};

void write_and_report(const trace::trace& t, const std::string& out,
                      const std::vector<std::string>& comments) {
    // Validate the generated text with the loader before writing it.
    const std::string text = trace::to_jsonl(t, comments);
    std::istringstream in(text);
    const trace::trace back = trace::parse_trace(in, out);
    trace::write_trace(t, out, comments);
    fmt::print("wrote {}: {} ranks, {} collectives, {} records\n", out, back.nranks,
               back.collectives.size(), back.records.size());
}

/// The ranks of `--ranks` or of `--nodes N --gpus-per-node G` (N x G ranks, GPU-major within
/// a node; the trace then carries the placement). Returns the rank count.
uint32_t ranks_arg(uint32_t ranks, uint32_t nodes, uint32_t gpus) {
    if (nodes == 0 && gpus == 0) {
        if (ranks == 0) flag_error("--ranks", "required (or --nodes N --gpus-per-node G)");
        return ranks;
    }
    if (nodes == 0) flag_error("--nodes", "required with --gpus-per-node");
    if (gpus == 0) flag_error("--gpus-per-node", "required with --nodes (1..64)");
    if (gpus > 64) flag_error("--gpus-per-node", fmt::format("{} out of range (1..64)", gpus));
    const uint64_t n = uint64_t{nodes} * gpus;
    if (n > 65536) {
        flag_error("--nodes",
                   fmt::format("{} nodes x {} GPUs = {} ranks exceed 65536", nodes, gpus, n));
    }
    if (ranks != 0 && ranks != n) {
        flag_error("--ranks", fmt::format("{} differs from --nodes {} x --gpus-per-node {} = {}",
                                          ranks, nodes, gpus, n));
    }
    return static_cast<uint32_t>(n);
}

/// Header `placement` of N nodes x G GPUs: rank r on [r / G, r % G].
void place(trace::trace& t, uint32_t nodes, uint32_t gpus) {
    if (nodes == 0) return;
    t.placement.resize(t.nranks);
    for (uint32_t r = 0; r < t.nranks; ++r) t.placement[r] = {r / gpus, r % gpus};
}

/// " --nodes N --gpus-per-node G" or " --ranks N" for the provenance comment.
std::string ranks_flags(uint32_t ranks, uint32_t nodes, uint32_t gpus) {
    return nodes != 0 ? fmt::format(" --nodes {} --gpus-per-node {}", nodes, gpus)
                      : fmt::format(" --ranks {}", ranks);
}

/// Bytes from a MiB count given as a decimal (PyTorch bucket_cap_mb semantics).
uint64_t mib_arg(const std::string& flag, double mb) {
    if (!(mb >= 0.0) || mb > 1e6) flag_error(flag, fmt::format("{} out of range (0..1e6 MiB)", mb));
    return static_cast<uint64_t>(std::llround(mb * 1024.0 * 1024.0));
}

int run_collective(const collective_opts& o) {
    trace::collective_sweep p;
    const auto op = enum_arg<coll::op_kind>("--op", o.op, coll::parse_op, op_names);
    p.op = op;
    const uint32_t ranks = ranks_arg(o.ranks, o.nodes, o.gpus_per_node);
    p.nranks = ranks;
    if (op != coll::op_kind::barrier) {
        if (o.bytes.empty()) flag_error("--bytes", fmt::format("required for {}", o.op));
        p.sizes = sizes_arg(o.bytes);
    } else if (!o.bytes.empty()) {
        flag_error("--bytes", "a barrier carries no data");
    }
    p.algos.clear();
    for (const std::string& a : o.algos) {
        p.algos.push_back(
            enum_arg<coll::algo_kind>("--algo", a, coll::parse_algo, coll::algo_names()));
    }
    if (p.algos.empty()) p.algos.push_back(coll::algo_kind::auto_);
    p.dt = enum_arg<coll::dtype>("--dtype", o.dtype, coll::parse_dtype, dtype_names);
    p.rop = enum_arg<coll::redop>("--redop", o.redop, coll::parse_redop, redop_names);
    p.root = o.root;
    p.iters = o.iters;
    std::string cmd = fmt::format("ndrsim gen collective --op {}{}", o.op,
                                  ranks_flags(ranks, o.nodes, o.gpus_per_node));
    if (!o.bytes.empty()) cmd += " --bytes " + o.bytes;
    for (const std::string& a : o.algos) cmd += " --algo " + a;
    if (o.dtype != "fp32") cmd += " --dtype " + o.dtype;
    if (o.redop != "sum") cmd += " --redop " + o.redop;
    if (o.root != 0) cmd += fmt::format(" --root {}", o.root);
    if (o.iters != 1) cmd += fmt::format(" --iters {}", o.iters);
    p.name = o.name.empty() ? fmt::format("{} {} ranks", o.op, ranks) : o.name;
    if (!o.name.empty()) cmd += fmt::format(" --name '{}'", o.name);
    cmd += " -o " + o.out;
    trace::trace t;
    try {
        t = trace::gen_collective(p);
    } catch (const std::invalid_argument& e) {
        flag_error("gen collective", e.what());
    }
    place(t, o.nodes, o.gpus_per_node);
    write_and_report(t, o.out, {"Generated by: " + cmd, "Format: docs/trace_format.md"});
    return 0;
}

struct permutation_opts {
    std::string bytes, out, name;
    uint32_t ranks = 0;
    uint64_t seed = 1;
};

int run_permutation(const permutation_opts& o) {
    if (o.ranks < 2 || o.ranks > 65536) {
        flag_error("--ranks", fmt::format("{} out of range (2..65536)", o.ranks));
    }
    const uint64_t bytes = size_arg("--bytes", o.bytes);
    const std::vector<uint32_t> dest = random_derangement(o.ranks, o.seed);
    const std::string name =
        o.name.empty() ? fmt::format("permutation {} ranks seed {}", o.ranks, o.seed) : o.name;
    trace::trace t;
    try {
        t = trace::gen_permutation(dest, bytes, name);
    } catch (const std::invalid_argument& e) {
        flag_error("gen permutation", e.what());
    }
    const std::string cmd =
        fmt::format("ndrsim gen permutation --ranks {} --bytes {} --seed {} -o {}", o.ranks,
                    o.bytes, o.seed, o.out);
    write_and_report(t, o.out, {"Generated by: " + cmd, "Format: docs/trace_format.md"});
    return 0;
}

struct background_opts {
    std::string pattern, bytes = "1MiB", duration = "1ms", rate, out, name;
    double load = 0;
    uint32_t ranks = 0;
    uint32_t target = 0;
    uint64_t seed = 1;
};

/// Destinations by traffic.pattern's rules (common::traffic_pattern, the one that
/// `ndrsim traffic` uses), each rank on its own random stream.
int run_background(const background_opts& o) {
    if (o.ranks < 2 || o.ranks > 65536) {
        flag_error("--ranks", fmt::format("{} out of range (2..65536)", o.ranks));
    }
    if (!(o.load > 0.0 && o.load <= 1.0))
        flag_error("--load",
                   fmt::format("{} out of range: a fraction of line rate in (0, 1]", o.load));
    if (o.target >= o.ranks)
        flag_error("--target", fmt::format("rank {} out of range (0..{})", o.target, o.ranks - 1));
    const uint64_t bytes = size_arg("--bytes", o.bytes);
    const uint64_t duration_ns = time_ns_arg("--duration", o.duration);
    cfg::config c;  // the defaults: link.rate is the line rate unless --rate
    uint64_t rate = c.link.rate.bps;
    if (!o.rate.empty()) {
        try {
            rate = cfg::parse_rate(o.rate).bps;
        } catch (const cfg::config_error& e) {
            flag_error("--rate", fmt::format("'{}': {}", o.rate, e.reason));
        }
    }
    c.traffic.pattern = o.pattern;
    c.traffic.hot_port = o.target;
    c.sim.seed = o.seed;
    const traffic_pattern pat(c, o.ranks);
    // One message every bytes * 8 / (load * rate): each source offers `load` of the line rate.
    const double interval_ps =
        static_cast<double>(bytes) * 8.0 / (o.load * static_cast<double>(rate)) * 1e12;
    const auto per_rank = std::max<uint64_t>(
        1, static_cast<uint64_t>(static_cast<double>(duration_ns) * 1000.0 / interval_ps));
    if (per_rank * o.ranks > 10'000'000)
        flag_error("--duration",
                   fmt::format("{} messages per rank is too many (at most 10^7 in all)", per_rank));
    std::vector<std::vector<uint32_t>> dests(o.ranks);
    for (uint32_t r = 0; r < o.ranks; ++r) {
        if (!pat.is_source(r)) continue;
        rng g(o.seed, r);
        for (uint64_t k = 0; k < per_rank; ++k) dests[r].push_back(pat.dest(r, g));
    }
    const std::string name = o.name.empty() ? fmt::format("background {} load {} {} ranks seed {}",
                                                          o.pattern, o.load, o.ranks, o.seed)
                                            : o.name;
    trace::trace t;
    try {
        t = trace::gen_background(dests, bytes, static_cast<uint64_t>(interval_ps), name);
    } catch (const std::invalid_argument& e) {
        flag_error("gen background", e.what());
    }
    const std::string cmd = fmt::format(
        "ndrsim gen background --pattern {} --load {} --ranks {} --bytes {} --duration {} "
        "--rate {} --target {} --seed {} -o {}",
        o.pattern, o.load, o.ranks, o.bytes, o.duration, cfg::format_rate(cfg::rate_bps_t{rate}),
        o.target, o.seed, o.out);
    write_and_report(t, o.out,
                     {"Generated by: " + cmd, "Format: docs/trace_format.md",
                      fmt::format("{} messages of {} B per source rank, one every {:.1f} ns",
                                  per_rank, bytes, interval_ps / 1000.0)});
    return 0;
}

int run_ddp(const ddp_opts& o) {
    auto m = trace::find_ddp_model(o.model);
    if (!m)
        flag_error("--model", fmt::format("unknown model '{}' (allowed: {})", o.model,
                                          trace::ddp_model_names()));
    if (!o.fwd.empty()) m->fwd_ns = time_ns_arg("--fwd", o.fwd);
    if (!o.bwd.empty()) m->bwd_ns = time_ns_arg("--bwd", o.bwd);
    if (!o.opt.empty()) m->opt_ns = time_ns_arg("--opt", o.opt);
    trace::ddp_params p;
    p.model = *m;
    const uint32_t ranks = ranks_arg(o.ranks, o.nodes, o.gpus_per_node);
    p.nranks = ranks;
    p.steps = o.steps;
    p.dt = enum_arg<coll::dtype>("--dtype", o.dtype, coll::parse_dtype, dtype_names);
    p.algo = enum_arg<coll::algo_kind>("--algo", o.algo, coll::parse_algo, coll::algo_names());
    p.bucket_cap_bytes = mib_arg("--buckets-mb", o.buckets_mb);
    p.first_bucket_bytes = mib_arg("--first-bucket-mb", o.first_bucket_mb);
    std::string cmd = fmt::format(
        "ndrsim gen ddp --model {}{} --buckets-mb {} --first-bucket-mb {} "
        "--steps {} --dtype {} --algo {} --fwd {} --bwd {} --opt {} -o {}",
        o.model, ranks_flags(ranks, o.nodes, o.gpus_per_node), o.buckets_mb, o.first_bucket_mb,
        o.steps, o.dtype, o.algo, cfg::format_time(cfg::time_ps_t{m->fwd_ns * 1000}),
        cfg::format_time(cfg::time_ps_t{m->bwd_ns * 1000}),
        cfg::format_time(cfg::time_ps_t{m->opt_ns * 1000}), o.out);
    trace::trace t;
    try {
        t = trace::gen_ddp(p);
    } catch (const std::invalid_argument& e) {
        flag_error("gen ddp", e.what());
    }
    place(t, o.nodes, o.gpus_per_node);
    const uint64_t grad = m->params * coll::dtype_bytes(p.dt);
    const auto buckets = trace::ddp_buckets(grad, p.first_bucket_bytes, p.bucket_cap_bytes);
    write_and_report(t, o.out,
                     {"Generated by: " + cmd, "Format: docs/trace_format.md",
                      fmt::format("{}: {} parameters, {} B of {} gradients, {} buckets per step",
                                  m->name, m->params, grad, o.dtype, buckets.size())});
    fmt::print("{} buckets per step ({} B of gradients, cap {} B, first bucket {} B)\n",
               buckets.size(), grad, p.bucket_cap_bytes, p.first_bucket_bytes);
    return 0;
}

}  // namespace

void add_gen_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand("gen", "generate a collective trace (docs/trace_format.md)");
    cmd->require_subcommand(1);

    auto c = std::make_shared<collective_opts>();
    CLI::App* coll = cmd->add_subcommand(
        "collective", "a size sweep of one collective on all ranks, nccl-tests style");
    coll->add_option("--op", c->op, std::string("collective: ") + std::string(op_names))
        ->required();
    coll->add_option("--ranks", c->ranks,
                     "number of ranks, 2..65536 (or --nodes and --gpus-per-node)");
    coll->add_option("--nodes", c->nodes,
                     "nodes: N x G ranks, rank r on node r / G, GPU r % G (header placement)");
    coll->add_option("--gpus-per-node", c->gpus_per_node, "GPUs per node with --nodes, 1..64");
    coll->add_option("--bytes", c->bytes,
                     "size S (nccl-tests) as SIZE or MIN:MAX:FACTOR, e.g. 1MiB:256MiB:4; units B, "
                     "KiB, MiB, GiB, KB, MB, GB");
    coll->add_option(
            "--algo", c->algos,
            "algorithm hint, repeatable: the sweep is emitted once per algo (default auto)")
        ->allow_extra_args(false);
    coll->add_option("--dtype", c->dtype, "element type (default fp32)");
    coll->add_option("--redop", c->redop,
                     "reduction for allreduce, reduce_scatter, reduce (default sum)");
    coll->add_option("--root", c->root, "root rank for broadcast and reduce (default 0)");
    coll->add_option("--iters", c->iters, "repetitions of each size (default 1)");
    coll->add_option("--name", c->name, "trace name in the header");
    coll->add_option("-o,--output", c->out, "trace file to write")->required();
    coll->callback([c, &action] { action = [c] { return run_collective(*c); }; });

    auto d = std::make_shared<ddp_opts>();
    CLI::App* ddp =
        cmd->add_subcommand("ddp", "data-parallel training steps with bucketed gradient allreduce");
    ddp->add_option("--model", d->model, "resnet50 or bert-large")->required();
    ddp->add_option("--ranks", d->ranks,
                    "number of ranks, 2..65536 (or --nodes and --gpus-per-node)");
    ddp->add_option("--nodes", d->nodes,
                    "nodes: N x G ranks, rank r on node r / G, GPU r % G (header placement)");
    ddp->add_option("--gpus-per-node", d->gpus_per_node, "GPUs per node with --nodes, 1..64");
    ddp->add_option("--buckets-mb", d->buckets_mb,
                    "bucket cap in MiB, as PyTorch bucket_cap_mb (default 25)");
    ddp->add_option("--first-bucket-mb", d->first_bucket_mb,
                    "first bucket cap in MiB, 0 = none (default 1)");
    ddp->add_option("--steps", d->steps, "training steps (default 1)");
    ddp->add_option("--dtype", d->dtype, "gradient element type (default fp32)");
    ddp->add_option("--algo", d->algo, "allreduce algorithm hint (default auto)");
    ddp->add_option("--fwd", d->fwd, "forward time per step, e.g. 20ms (model default)");
    ddp->add_option("--bwd", d->bwd, "backward time per step, e.g. 40ms (model default)");
    ddp->add_option("--opt", d->opt, "optimizer step time, e.g. 1ms (model default)");
    ddp->add_option("-o,--output", d->out, "trace file to write")->required();
    ddp->callback([d, &action] { action = [d] { return run_ddp(*d); }; });

    auto pm = std::make_shared<permutation_opts>();
    CLI::App* perm = cmd->add_subcommand(
        "permutation", "one RDMA WRITE per rank to a random other rank (a derangement)");
    perm->add_option("--ranks", pm->ranks, "number of ranks, 2..65536")->required();
    perm->add_option("--bytes", pm->bytes, "bytes each rank writes, e.g. 16MiB")->required();
    perm->add_option("--seed", pm->seed,
                     "seed of the permutation (the draw of traffic.pattern = permutation)");
    perm->add_option("--name", pm->name, "trace name in the header");
    perm->add_option("-o,--output", pm->out, "trace file to write")->required();
    perm->callback([pm, &action] { action = [pm] { return run_permutation(*pm); }; });

    auto bg = std::make_shared<background_opts>();
    CLI::App* back = cmd->add_subcommand(
        "background",
        "open-loop aggressor traffic: every source rank offers a fraction of line "
        "rate as RDMA WRITEs (docs/multijob.md)");
    back->add_option("--pattern", bg->pattern,
                     "incast (every rank to --target), permutation (a fixed derangement) or "
                     "uniform (each message to a random other rank)")
        ->required()
        ->check(CLI::IsMember({"incast", "permutation", "uniform"}));
    back->add_option("--load", bg->load, "fraction of line rate each source offers, (0, 1]")
        ->required();
    back->add_option("--ranks", bg->ranks, "number of ranks, 2..65536")->required();
    back->add_option("--bytes", bg->bytes, "bytes per message (default 1MiB)");
    back->add_option("--duration", bg->duration,
                     "how long each source offers traffic, e.g. 1ms (default)");
    back->add_option("--rate", bg->rate,
                     "line rate the load is a fraction of (default link.rate's default, 400Gb/s)");
    back->add_option("--target", bg->target, "incast: the rank every source writes to (default 0)");
    back->add_option("--seed", bg->seed, "seed of the destinations (permutation, uniform)");
    back->add_option("--name", bg->name, "trace name in the header");
    back->add_option("-o,--output", bg->out, "trace file to write")->required();
    back->callback([bg, &action] { action = [bg] { return run_background(*bg); }; });
}

}  // namespace ndr::tb
