// `ndrsim nccl-tests BINARY [nccl-tests flags]`: an nccl-tests run (all_reduce_perf, ...) on the
// model. The whole benchmark (warm-ups, every size, out-of-place and in-place passes) is one
// trace, built in memory by the `ndrsim gen collective` generators and replayed once in this
// process (one SystemC elaboration); the output is nccl-tests' own table (docs/nccl_tests.md).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "cli.h"
#include "collective/coll_types.h"
#include "config/config_error.h"
#include "config/cross_check.h"
#include "nccl_tests_table.h"
#include "run_sim.h"
#include "sim_level.h"
#include "trace/generators.h"
#include "trace/trace.h"
#include "trace/trace_writer.h"

namespace ndr::tb {

namespace {

/// One nccl-tests binary: the collective it times and what its table prints.
struct nccl_binary {
    std::string_view name;
    coll::op_kind op;
    bool redop;  ///< prints -o (reducing ops, and sendrecv as nccl-tests 2.13 does); else none
    bool root;   ///< takes -r
};

constexpr std::array<nccl_binary, 7> binaries{{
    {"all_reduce_perf", coll::op_kind::allreduce, true, false},
    {"all_gather_perf", coll::op_kind::allgather, false, false},
    {"reduce_scatter_perf", coll::op_kind::reduce_scatter, true, false},
    {"alltoall_perf", coll::op_kind::alltoall, false, false},
    {"broadcast_perf", coll::op_kind::broadcast, false, true},
    {"reduce_perf", coll::op_kind::reduce, true, true},
    {"sendrecv_perf", coll::op_kind::send, true, false},
}};

/// nccl-tests' -d names (test_typenames) and ndrsim's dtype for each.
constexpr std::array<std::pair<std::string_view, coll::dtype>, 12> types{{
    {"int8", coll::dtype::int8},
    {"uint8", coll::dtype::uint8},
    {"int32", coll::dtype::int32},
    {"uint32", coll::dtype::uint32},
    {"int64", coll::dtype::int64},
    {"uint64", coll::dtype::uint64},
    {"half", coll::dtype::fp16},
    {"float", coll::dtype::fp32},
    {"double", coll::dtype::fp64},
    {"bfloat16", coll::dtype::bf16},
    {"f8e4m3", coll::dtype::fp8e4m3},
    {"f8e5m2", coll::dtype::fp8e5m2},
}};

struct nccl_tests_opts {
    config_options cfg;
    std::string binary;
    // nccl-tests' defaults (src/common.cu): -b 32M -e 32M -i 1M -f 1 -n 20 -w 5 -c 1.
    std::string minbytes = "32M", maxbytes = "32M", stepbytes = "1M";
    uint64_t stepfactor = 1;
    std::optional<uint32_t> gpus;
    uint32_t iters = 20, warmup = 5, check = 1, nodes = 1;
    std::string op = "sum", dtype = "float";
    int64_t root = 0;
};

std::string names_of_binaries() {
    std::string s;
    for (const nccl_binary& b : binaries) s += (s.empty() ? "" : ", ") + std::string(b.name);
    return s;
}

const nccl_binary& binary_arg(const std::string& name) {
    for (const nccl_binary& b : binaries)
        if (b.name == name) return b;
    flag_error("BINARY", fmt::format("unknown nccl-tests binary '{}' (allowed: {})", name,
                                     names_of_binaries()));
}

coll::dtype dtype_arg(const std::string& name) {
    for (const auto& [n, t] : types)
        if (n == name) return t;
    std::string allowed;
    for (const auto& [n, t] : types) allowed += (allowed.empty() ? "" : ", ") + std::string(n);
    flag_error("-d", fmt::format("unsupported datatype '{}' (allowed: {}; 'all' is not: run once "
                                 "per type)",
                                 name, allowed));
}

coll::redop redop_arg(const std::string& name) {
    if (name != "all" && name != "mulsum")
        if (auto r = coll::parse_redop(name)) return *r;
    flag_error("-o", fmt::format("unsupported reduction '{}' (allowed: sum, prod, min, max, avg; "
                                 "'all' is not: run once per op)",
                                 name));
}

/// nccl-tests' parsesize: a number with an optional K, M or G (powers of 1024), e.g. 8, 1.5K,
/// 8G. Whole bytes only.
uint64_t size_arg(const std::string& flag, const std::string& text) {
    std::size_t used = 0;
    double v = -1.0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    double unit = 1.0;
    const std::string rest = text.substr(used);
    if (rest == "K" || rest == "k") unit = 1024.0;
    if (rest == "M" || rest == "m") unit = 1024.0 * 1024.0;
    if (rest == "G" || rest == "g") unit = 1024.0 * 1024.0 * 1024.0;
    const bool suffix_ok = rest.empty() || unit > 1.0;
    const double bytes = v * unit;
    if (used == 0 || !suffix_ok || !(bytes >= 0.0) || bytes > 1e15 || bytes != std::floor(bytes))
        flag_error(flag,
                   fmt::format("'{}' is not a size (bytes, or a number with K, M or G)", text));
    return static_cast<uint64_t>(bytes);
}

/// Which seqs of the trace are timed: per size, the n out-of-place then the n in-place ones.
struct schedule {
    std::vector<uint64_t> sizes;   ///< the sweep, one row each
    std::vector<uint64_t> seq;     ///< size of every seq of the trace, in replay order
    std::vector<uint64_t> oop_at;  ///< per row: first timed out-of-place seq
    std::vector<uint64_t> ip_at;   ///< per row: first timed in-place seq
};

/// Collectives make_schedule lays out: -w warm-ups at the largest and at the smallest size, then
/// per size and pass (out of place, in place) one untimed call and n timed ones.
uint64_t schedule_length(std::size_t sizes, uint32_t n, uint32_t w) {
    return 2 * uint64_t{w} + sizes * 2 * (1 + uint64_t{n});
}

/// nccl-tests 2.13's order (TimeTest, BenchTime): -w warm-ups at maxbytes, -w at minbytes,
/// then per size one untimed synchronising call and n timed ones out of place, the same in
/// place.
schedule make_schedule(const std::vector<uint64_t>& sizes, uint64_t maxb, uint32_t n, uint32_t w) {
    schedule s;
    s.sizes = sizes;
    s.seq.reserve(schedule_length(sizes.size(), n, w));
    s.seq.insert(s.seq.end(), w, maxb);
    s.seq.insert(s.seq.end(), w, sizes.front());
    for (uint64_t b : sizes) {
        for (std::vector<uint64_t>* at : {&s.oop_at, &s.ip_at}) {
            s.seq.push_back(b);
            at->push_back(s.seq.size());
            s.seq.insert(s.seq.end(), n, b);
        }
    }
    return s;
}

trace::trace build_trace(const nccl_binary& bin, const schedule& s, uint32_t nranks, coll::dtype dt,
                         coll::redop rop, uint32_t root) {
    trace::collective_sweep p;
    p.op = bin.op;
    p.nranks = nranks;
    p.sizes = s.seq;
    p.dt = dt;
    p.rop = rop;
    p.root = root;
    p.name = fmt::format("nccl-tests {} {} ranks", bin.name, nranks);
    trace::trace t;
    try {
        t = bin.op == coll::op_kind::send ? trace::gen_sendrecv_ring(p) : trace::gen_collective(p);
    } catch (const std::invalid_argument& e) {
        flag_error(std::string(bin.name), e.what());
    }
    // The loader builds the collective instances and checks the trace as for a file.
    std::istringstream in(trace::to_jsonl(t, {}));
    try {
        return trace::parse_trace(in, t.name);
    } catch (const trace::trace_error& e) {
        throw cfg::config_error(e.what());
    }
}

/// Per seq: the time from the first instance's start to the last one's end (a sendrecv seq is
/// n pairs), and whether every instance checked its data.
struct seq_time {
    uint64_t start = std::numeric_limits<uint64_t>::max();
    uint64_t end = 0;
    bool checked = true;
};

nccl_tests_pass pass_of(const std::vector<seq_time>& st, uint64_t first, uint32_t n,
                        double cycle_us, bool check) {
    double sum = 0.0;
    bool all_checked = true;
    for (uint64_t q = first; q < first + n; ++q) {
        sum += static_cast<double>(st[q].end - st[q].start) * cycle_us;
        all_checked = all_checked && st[q].checked;
    }
    nccl_tests_pass p;
    p.time_us = sum / n;
    // #wrong is 0 only where the model compared every result with the golden reduction.
    if (check && all_checked) p.wrong = 0;
    return p;
}

int run(const nccl_tests_opts& o) {
    const nccl_binary& bin = binary_arg(o.binary);
    const coll::dtype dt = dtype_arg(o.dtype);
    const coll::redop rop = redop_arg(o.op);
    if (o.iters < 1 || o.iters > 1'000'000)
        flag_error("-n", fmt::format("{} iterations out of range (1..1000000)", o.iters));
    if (o.warmup > 1'000'000)
        flag_error("-w", fmt::format("{} iterations out of range (0..1000000)", o.warmup));
    if (o.check > 1) flag_error("-c", fmt::format("{}: 0 or 1", o.check));
    if (o.nodes < 1) flag_error("--nodes", "at least 1");
    config_options co = o.cfg;
    if (o.gpus) co.flags.push_back({"-g", "node.gpus", std::to_string(*o.gpus)});
    // A whole benchmark is seconds of simulated time (8 B .. 1 GiB on 2 x 8 GPUs: 3.7 s), past
    // sim.run_time_limit's default of 1 s: unless a layer sets the limit, this command raises
    // it to one hour as its lowest --set (docs/cli.md).
    if (co.resolve().sim.run_time_limit.ps == cfg::sim_config{}.run_time_limit.ps)
        co.sets.insert(co.sets.begin(), "sim.run_time_limit=3600s");
    // nccl-tests runs NCCL: unless a layer chooses an endpoint stack, the NCCL one applies
    // (kernel launch, proxy steps, WQE post, CQE poll; docs/architecture.md "Endpoint software
    // costs"), as the lowest --set, like the time limit above.
    if (co.resolve().host.stack == cfg::host_config{}.stack)
        co.sets.insert(co.sets.begin(), "host.stack=nccl");
    const cfg::config c = co.resolve();
    for (const std::string& w : cfg::cross_check(c))
        fmt::print(stderr, "ndrsim nccl-tests: warning: {}\n", w);
    const uint32_t g = c.node.gpus;
    const uint64_t nranks = uint64_t{o.nodes} * g;
    if (nranks < 2 || nranks > trace::max_ranks) {
        flag_error("--nodes", fmt::format("{} nodes x {} GPUs = {} ranks (2..{})", o.nodes, g,
                                          nranks, trace::max_ranks));
    }
    if (bin.root && (o.root < 0 || static_cast<uint64_t>(o.root) >= nranks)) {
        flag_error("-r", fmt::format("{} out of range (0..{}; -1, every root in turn, is not "
                                     "supported)",
                                     o.root, nranks - 1));
    }
    const uint64_t minb = size_arg("-b", o.minbytes), maxb = size_arg("-e", o.maxbytes);
    if (minb == 0) flag_error("-b", "the smallest size must be at least 1 byte");
    if (maxb < minb) flag_error("-e", fmt::format("{} B is below -b {} B", maxb, minb));
    const bool by_factor = o.stepfactor > 1;
    const uint64_t step = by_factor ? o.stepfactor : size_arg("-i", o.stepbytes);
    // The sweep is counted before any size is made: a linear sweep (-f 1) can ask for 10^9.
    std::vector<uint64_t> sizes;
    uint64_t nsizes = 0;
    try {
        if (by_factor) {
            sizes = trace::geometric_sizes(minb, maxb, step);
            nsizes = sizes.size();
        } else {
            nsizes = trace::linear_size_count(minb, maxb, step);
        }
    } catch (const std::invalid_argument& e) {
        flag_error(by_factor ? "-f" : "-i", e.what());
    }
    // Every size is at least 2 collectives on every rank; below that bound (and with -n and -w
    // at most 10^6) `calls` cannot overflow. The product with the ranks is compared by division.
    if (nsizes > trace::max_generated_records / 2 / nranks) {
        flag_error(
            by_factor ? "-f" : "-i",
            fmt::format("{} sizes from {} B to {} B on {} ranks are more than the {} records "
                        "a generated trace may hold",
                        nsizes, minb, maxb, nranks, trace::max_generated_records));
    }
    const uint64_t calls = schedule_length(nsizes, o.iters, o.warmup);
    if (calls > trace::max_generated_records / nranks) {
        flag_error("-n", fmt::format("{} collectives ({} sizes, -n {}, -w {}) on {} ranks "
                                     "are more than the {} records a generated trace may hold",
                                     calls, nsizes, o.iters, o.warmup, nranks,
                                     trace::max_generated_records));
    }
    if (!by_factor) sizes = trace::linear_sizes(minb, maxb, step);
    const schedule s = make_schedule(sizes, maxb, o.iters, o.warmup);
    const auto n = static_cast<uint32_t>(nranks);
    const uint32_t root = bin.root ? static_cast<uint32_t>(o.root) : 0;
    const trace::trace tr = build_trace(bin, s, n, dt, rop, root);

    const level_choice choice = choose_replay_level(c, tr);
    const run_outcome out = run_trace_at(choice.level, c, tr);
    std::vector<seq_time> st(s.seq.size());
    for (const collective_result& r : out.collectives) {
        seq_time& q = st[tr.collectives[r.instance].seq];
        q.start = std::min<uint64_t>(q.start, r.start);
        q.end = std::max<uint64_t>(q.end, r.end);
        q.checked = q.checked && r.data_checked;
    }
    const double cycle_us = static_cast<double>(out.tm.cycle_ps) / 1e6;

    nccl_tests_header h;
    h.gpus_per_node = g;
    h.nodes = o.nodes;
    h.min_bytes = minb;
    h.max_bytes = maxb;
    h.step = step;
    h.step_is_factor = by_factor;
    h.warmup_iters = o.warmup;
    h.iters = o.iters;
    h.check = o.check;
    h.device = fmt::format("ndrsim model GPU ({})",
                           o.cfg.preset.empty() ? "default config" : o.cfg.preset);
    fmt::print("{}", nccl_tests_header_text(h));
    std::string type_name;
    for (const auto& [nm, t] : types)
        if (t == dt) type_name = nm;
    std::vector<nccl_tests_row> rows;
    for (std::size_t k = 0; k < s.sizes.size(); ++k) {
        // The first instance of the row's first timed call (the trace holds every seq).
        const trace::collective_instance& ci = *std::find_if(
            tr.collectives.begin(), tr.collectives.end(),
            [&](const trace::collective_instance& x) { return x.seq == s.oop_at[k]; });
        nccl_tests_row row;
        row.bytes = ci.bytes;
        row.count = tr.records[ci.records.front()].count;
        if (bin.op == coll::op_kind::alltoall) row.count /= n;  // nccl-tests prints count / n
        row.type = type_name;
        row.redop = bin.redop ? std::string(coll::name(rop)) : "none";
        row.root = bin.root ? o.root : -1;
        // nccl-tests' factor for the op whatever the algorithm (SHARP included).
        row.busbw_factor = coll::busbw_factor(bin.op, coll::algo_kind::ring, n);
        row.out_of_place = pass_of(st, s.oop_at[k], o.iters, cycle_us, o.check != 0);
        row.in_place = pass_of(st, s.ip_at[k], o.iters, cycle_us, o.check != 0);
        fmt::print("{}", nccl_tests_row_text(row));
        rows.push_back(row);
    }
    fmt::print("{}", nccl_tests_footer_text(rows));
    fmt::print(
        "# ndrsim: {} level ({}), {}; out-of-place and in-place cost the same in the "
        "model\n",
        level_name(choice.level), choice.reason, out.topology);
    return 0;
}

}  // namespace

void add_nccl_tests_command(CLI::App& app, command_action& action) {
    CLI::App* cmd = app.add_subcommand(
        "nccl-tests",
        "an nccl-tests benchmark (all_reduce_perf, ...) on the model, printed as nccl-tests "
        "prints it (docs/nccl_tests.md)");
    auto o = std::make_shared<nccl_tests_opts>();
    cmd->add_option("binary", o->binary, "nccl-tests binary: " + names_of_binaries())->required();
    cmd->add_option("-b,--minbytes", o->minbytes, "minimum size, e.g. 8, 1K, 8M (default 32M)");
    cmd->add_option("-e,--maxbytes", o->maxbytes, "maximum size, e.g. 8G (default 32M)");
    cmd->add_option("-i,--stepbytes", o->stepbytes, "size increment when -f is 1 (default 1M)");
    cmd->add_option("-f,--stepfactor", o->stepfactor,
                    "size multiplication factor; 1 = step by -i (default 1)");
    cmd->add_option("-g,--ngpus", o->gpus,
                    "GPUs per process, one process per node (= --set node.gpus=...; default: "
                    "node.gpus of the config)");
    cmd->add_option("-n,--iters", o->iters, "timed iterations per size and pass (default 20)");
    cmd->add_option("-w,--warmup_iters", o->warmup,
                    "warm-up iterations at maxbytes and at minbytes (default 5)");
    cmd->add_option("-c,--check", o->check,
                    "1: report #wrong where the model checks data (N/A where it does not); 0: "
                    "N/A (default 1)");
    cmd->add_option("-o,--op", o->op, "reduction: sum, prod, min, max, avg (default sum)");
    cmd->add_option("-d,--datatype", o->dtype,
                    "int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16, "
                    "f8e4m3, f8e5m2 (default float)");
    cmd->add_option("-r,--root", o->root, "root rank of broadcast_perf, reduce_perf (default 0)");
    cmd->add_option("--nodes", o->nodes, "nodes (processes of -g GPUs each; default 1)");
    o->cfg.add_to(*cmd);
    o->cfg.add_key_flag(*cmd, "--level", "sim.level",
                        "model level: cycle, tlm or auto (tlm above sim.tlm_above_hosts hosts)");
    cmd->callback([o, &action] { action = [o] { return run(*o); }; });
}

}  // namespace ndr::tb
