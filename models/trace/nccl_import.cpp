// NCCL INFO log import: INIT lines -> communicators, ranks and node placement; COLL lines ->
// op records (their parsing: nccl_coll_line.h); logs without INIT lines: nccl_excerpt.h.
#include "trace/nccl_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "trace/line_reader.h"
#include "trace/nccl_coll_line.h"
#include "trace/nccl_excerpt.h"

namespace ndr::trace {

namespace {

using nccl_detail::after;
using nccl_detail::coll_fields;
using nccl_detail::fail;
using nccl_detail::finish_trace;
using nccl_detail::host_of;
using nccl_detail::is_coll;
using nccl_detail::is_init;
using nccl_detail::looks_like_nccl;
using nccl_detail::nccl_line;
using nccl_detail::parse_coll;
using nccl_detail::split_info;
using nccl_detail::to_record;
using nccl_detail::to_u64;

/// Decimal value of `key` in an INIT line, if the key is there; fails on anything else.
std::optional<uint32_t> init_number(const nccl_line& l, std::string_view key,
                                    const std::string& path, uint32_t line) {
    const auto v = after(l.words, key);
    if (!v) return std::nullopt;
    const auto n = to_u64(*v, 10);
    if (!n || *n > std::numeric_limits<uint32_t>::max()) {
        fail(path, line, key, fmt::format("expected a decimal number 0..4294967295, got '{}'", *v));
    }
    return static_cast<uint32_t>(*n);
}

/// Up to 16 names or numbers, then "... (N in all)".
template <typename T>
std::string listing(const std::vector<T>& items, bool quote) {
    constexpr std::size_t shown = 16;
    std::string m;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i) {
        m +=
            (i ? ", " : "") + (quote ? fmt::format("'{}'", items[i]) : fmt::format("{}", items[i]));
    }
    if (items.size() > shown) m += fmt::format(", ... ({} in all)", items.size());
    return m;
}

/// One process's handle on a communicator, from its INIT line(s).
struct local_comm {
    std::string process;
    uint32_t dev = 0;
    std::string ptr;
    uint32_t rank = 0;
    uint32_t nranks = 0;
    std::string comm_id;  ///< "commId 0x..." when printed, else empty
    uint32_t line = 0;    ///< first INIT line
    uint32_t global = 0;  ///< global communicator index
    /// `comm ... nNodes N localRanks L localRank R [MNNVL M]` (the first such line), if any.
    struct node_shape {
        uint32_t nnodes = 0;
        uint32_t local_ranks = 0;
        uint32_t local_rank = 0;
        bool mnnvl = false;  ///< MNNVL != 0: "local" spans hosts, no check
        uint32_t line = 0;
    };
    std::optional<node_shape> shape;
};

/// An endpoint's physical GPU index from `nvmlDev N` (NCCL prints it in its Init START /
/// COMPLETE lines), with the line that said it.
struct nvml_dev {
    uint32_t dev = 0;
    uint32_t line = 0;
};

struct endpoint_key {
    std::string process;
    uint32_t dev;
    bool operator<(const endpoint_key& o) const {
        return std::tie(process, dev) < std::tie(o.process, o.dev);
    }
};

/// A communicator across processes: its members' local communicators.
struct global_comm {
    uint32_t nranks = 0;
    std::map<uint32_t, uint32_t> by_rank;  ///< rank -> local (memory grows with INIT lines,
                                           ///< not with the nRanks they claim)
    std::vector<uint32_t> locals;          ///< by communicator rank, once all are present
    uint32_t line = 0;
    std::string label;
};

/// The INIT lines' own view of the nodes must agree with the host names: NCCL groups the ranks of
/// a communicator by host and prints `nNodes` (its hosts), `localRanks` (its ranks on this
/// host) and `localRank` (this rank's index among them, in rank order). Skipped for MNNVL != 0.
void check_node_shapes(const std::string& path, const std::vector<local_comm>& locals,
                       const std::vector<global_comm>& globals) {
    for (const local_comm& c : locals) {
        if (!c.shape || c.shape->mnnvl) continue;
        const local_comm::node_shape& sh = *c.shape;
        const global_comm& g = globals[c.global];
        const std::string mine = host_of(c.process);
        std::vector<std::string> hosts;  // of the communicator, in rank order of first rank
        std::vector<uint32_t> here;      // its ranks on c's host
        for (std::size_t k = 0; k < g.locals.size(); ++k) {
            const std::string h = host_of(locals[g.locals[k]].process);
            if (std::find(hosts.begin(), hosts.end(), h) == hosts.end()) hosts.push_back(h);
            if (h == mine) here.push_back(static_cast<uint32_t>(k));
        }
        if (sh.nnodes != hosts.size()) {
            fail(path, sh.line, "nNodes",
                 fmt::format("{} here, but the {} ranks of {} are on {} host{} ({})", sh.nnodes,
                             g.nranks, g.label, hosts.size(), hosts.size() > 1 ? "s" : "",
                             listing(hosts, true)));
        }
        if (sh.local_ranks != here.size()) {
            fail(path, sh.line, "localRanks",
                 fmt::format("{} here, but {} has {} rank{} on host '{}' ({})", sh.local_ranks,
                             g.label, here.size(), here.size() > 1 ? "s" : "", mine,
                             listing(here, false)));
        }
        const auto pos =
            static_cast<uint32_t>(std::find(here.begin(), here.end(), c.rank) - here.begin());
        if (sh.local_rank != pos) {
            fail(path, sh.line, "localRank",
                 fmt::format("{} here, but rank {} is local rank {} of {} on host '{}' (its "
                             "ranks there: {})",
                             sh.local_rank, c.rank, pos, g.label, mine, listing(here, false)));
        }
    }
}

/// Header placement: node = the host of the process (hosts numbered in order of their lowest
/// global rank), GPU = nvmlDev when an INIT line of the rank prints it, else cudaDev. Written
/// only when every line names its host and some host holds several ranks; `where` gets each
/// rank's " -> node N ('host') GPU G" for the provenance comments.
void place_ranks(const std::string& path, const std::vector<local_comm>& locals,
                 const std::vector<global_comm>& globals,
                 const std::vector<endpoint_key>& endpoints,
                 const std::map<endpoint_key, nvml_dev>& nvml_of, nccl_import& res,
                 std::vector<std::string>& where) {
    for (const endpoint_key& e : endpoints) {
        if (e.process.empty()) return;  // prefix trimmed: the hosts are unknown
    }
    check_node_shapes(path, locals, globals);
    const std::size_t n = endpoints.size();
    std::vector<std::string> host(n);
    std::vector<uint32_t> node(n);
    std::map<std::string, uint32_t> node_of;
    std::vector<uint32_t> per_node;
    for (std::size_t r = 0; r < n; ++r) {
        host[r] = host_of(endpoints[r].process);
        const auto [it, fresh] = node_of.emplace(host[r], static_cast<uint32_t>(node_of.size()));
        if (fresh) per_node.push_back(0);
        node[r] = it->second;
        ++per_node[it->second];
    }
    if (std::all_of(per_node.begin(), per_node.end(), [](uint32_t k) { return k == 1; })) {
        return;  // one rank per host: one host per rank, as before placement existed
    }
    std::map<endpoint_key, uint32_t> first_line;
    for (const local_comm& c : locals) first_line.emplace(endpoint_key{c.process, c.dev}, c.line);
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> owner;  // (node, gpu) -> rank
    std::vector<std::array<uint32_t, 2>> placement(n);
    uint32_t top = 0;
    for (std::size_t r = 0; r < n; ++r) {
        const endpoint_key& e = endpoints[r];
        const auto nv = nvml_of.find(e);
        const bool by_nvml = nv != nvml_of.end();
        const uint32_t gpu = by_nvml ? nv->second.dev : e.dev;
        const uint32_t line = by_nvml ? nv->second.line : first_line.at(e);
        const char* field = by_nvml ? "nvmlDev" : "cudaDev";
        if (node[r] > 0xBFFF) {
            fail(path, line, "rank",
                 fmt::format("host '{}' is the 49153rd host of the log; a trace's placement "
                             "holds nodes 0..49151",
                             host[r]));
        }
        if (gpu > 63) {
            fail(path, line, field,
                 fmt::format("GPU {} of host '{}' is above 63, the highest GPU index of a node "
                             "(node.gpus 1..64)",
                             gpu, host[r]));
        }
        const auto [it, fresh] =
            owner.emplace(std::make_pair(node[r], gpu), static_cast<uint32_t>(r));
        if (!fresh) {
            fail(
                path, line, field,
                fmt::format("rank {} (process '{}') is on GPU {} of host '{}' like rank {} "
                            "(process '{}'): NCCL runs one rank per GPU (import with "
                            "--no-placement for one host per rank)",
                            r, e.process, gpu, host[r], it->second, endpoints[it->second].process));
        }
        placement[r] = {node[r], gpu};
        top = std::max(top, gpu + 1);
        where[r] = fmt::format(" -> node {} ('{}') GPU {}", node[r], host[r], gpu);
    }
    res.t.placement = std::move(placement);
    res.nodes = static_cast<uint32_t>(per_node.size());
    res.gpus_per_node = top;
}

/// A communicator on which some rank's log shows an opCount twice (nccl#1238: NCCL versions and
/// wrappers that restart opCount per iteration or per group) cannot use opCount as `seq`. There,
/// each rank's COLL lines count in log order (one rank's lines come from one thread, so they are
/// in issue order) and seq = that index; every rank must then show the same opCount sequence.
/// Communicators whose opCounts never repeat keep seq = opCount.
void renumber_repeated_op_counts(trace& t, const std::string& path, nccl_import& res) {
    std::set<std::tuple<uint32_t, uint32_t, uint64_t>> seen;  // (comm, rank, opCount)
    std::set<uint32_t> repeated;
    for (const op_record& r : t.records) {
        if (!seen.emplace(r.comm, r.rank, r.seq).second) repeated.insert(r.comm);
    }
    if (repeated.empty()) return;
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> next;  // (comm, rank) -> index
    // (comm, index) -> opCount and the line that set it, from the first rank to get there
    std::map<std::pair<uint32_t, uint64_t>, std::tuple<uint64_t, uint32_t, uint32_t>> at;
    for (op_record& r : t.records) {
        if (repeated.count(r.comm) == 0) continue;
        const uint64_t i = next[{r.comm, r.rank}]++;
        const auto [it, fresh] =
            at.emplace(std::make_pair(r.comm, i), std::make_tuple(r.seq, r.line, r.rank));
        if (!fresh && std::get<0>(it->second) != r.seq) {
            fail(path, r.line, "opCount",
                 fmt::format("{:x} in COLL line {} of rank {} on comm {}, but line {} (rank {}) "
                             "has opCount {:x} there: with repeated opCounts the ranks' lines "
                             "must show the same sequence",
                             r.seq, i + 1, r.rank, r.comm, std::get<1>(it->second),
                             std::get<2>(it->second), std::get<0>(it->second)));
        }
        r.seq = i;
    }
    res.repeated_op_count_comms = static_cast<uint32_t>(repeated.size());
}

}  // namespace

nccl_import import_nccl_log(std::istream& in, const std::string& path,
                            const nccl_import_options& opts) {
    nccl_import res;
    std::vector<std::string> lines;
    for (std::string raw;
         detail::read_line(in, raw, path, static_cast<uint32_t>(lines.size() + 1), "log");) {
        lines.push_back(std::move(raw));
    }
    if (in.bad()) throw trace_error(fmt::format("{}: read error", path));
    // Pass 1: INIT lines -> local communicators keyed by (process, comm pointer).
    std::map<std::pair<std::string, std::string>, uint32_t> local_of;
    std::vector<local_comm> locals;
    std::vector<uint32_t> coll_line_nos;
    std::map<endpoint_key, nvml_dev> nvml_of;  // endpoints whose INIT lines print nvmlDev
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto no = static_cast<uint32_t>(i + 1);
        const std::string& raw = lines[i];
        if (raw.find_first_not_of(" \t") == std::string::npos) continue;
        const auto l = split_info(raw);
        if (l && is_coll(*l)) {
            coll_line_nos.push_back(no);
            continue;
        }
        if (!l || !is_init(*l)) {
            ++res.skipped;
            if (!looks_like_nccl(raw)) ++res.unrecognised;
            continue;
        }
        ++res.init_lines;
        local_comm c;
        c.process = l->process;
        c.dev = l->dev;
        c.ptr = *after(l->words, "comm");
        c.line = no;
        const auto rank = to_u64(*after(l->words, "rank"), 10);
        auto nr_text = after(l->words, "nRanks");
        if (!nr_text) nr_text = after(l->words, "nranks");
        const auto nr = to_u64(*nr_text, 10);
        if (!rank)
            fail(path, no, "rank",
                 fmt::format("expected a decimal rank, got '{}'", *after(l->words, "rank")));
        if (!nr || *nr == 0 || *nr > max_ranks) {
            fail(path, no, "nRanks",
                 fmt::format("expected a rank count 1..{}, got '{}'", max_ranks, *nr_text));
        }
        if (*rank >= *nr)
            fail(path, no, "rank", fmt::format("rank {} is not below nRanks {}", *rank, *nr));
        c.rank = static_cast<uint32_t>(*rank);
        c.nranks = static_cast<uint32_t>(*nr);
        if (auto id = after(l->words, "commId")) c.comm_id = *id;
        if (opts.placement) {
            if (const auto d = init_number(*l, "nvmlDev", path, no)) {
                const auto [at, fresh] =
                    nvml_of.emplace(endpoint_key{c.process, c.dev}, nvml_dev{*d, no});
                if (!fresh && at->second.dev != *d) {
                    fail(path, no, "nvmlDev",
                         fmt::format("{} here, {} at line {} for the same process '{}' and "
                                     "cudaDev {}",
                                     *d, at->second.dev, at->second.line, c.process, c.dev));
                }
            }
            const auto nn = init_number(*l, "nNodes", path, no);
            const auto lrs = init_number(*l, "localRanks", path, no);
            const auto lr = init_number(*l, "localRank", path, no);
            const auto mnnvl = init_number(*l, "MNNVL", path, no);
            if (nn && lrs && lr) {
                c.shape = local_comm::node_shape{*nn, *lrs, *lr, mnnvl && *mnnvl != 0, no};
            }
        }
        const auto key = std::make_pair(c.process, c.ptr);
        auto it = local_of.find(key);
        if (it == local_of.end()) {
            local_of.emplace(key, static_cast<uint32_t>(locals.size()));
            locals.push_back(std::move(c));
            continue;
        }
        local_comm& old = locals[it->second];
        if (old.rank != c.rank || old.nranks != c.nranks || old.dev != c.dev ||
            (!old.comm_id.empty() && !c.comm_id.empty() && old.comm_id != c.comm_id)) {
            fail(path, no, "comm",
                 fmt::format("INIT line for comm {} in process '{}' says rank {} of {} "
                             "[{}], line {} said rank {} of {} [{}]",
                             c.ptr, c.process, c.rank, c.nranks, c.dev, old.line, old.rank,
                             old.nranks, old.dev));
        }
        if (old.comm_id.empty()) old.comm_id = c.comm_id;
        if (!old.shape) old.shape = c.shape;
    }

    if (locals.empty() && !coll_line_nos.empty()) {
        return nccl_detail::import_excerpt(lines, coll_line_nos, path, std::move(res),
                                           opts.placement);
    }
    if (locals.empty()) {
        fail(path, static_cast<uint32_t>(std::max<std::size_t>(lines.size(), 1)), "comm",
             "no NCCL INIT lines (`comm 0x... rank R nRanks N`) in the log; record it with "
             "NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,COLL");
    }
    // Global communicators: by commId when printed, else by (nRanks, how many communicators the
    // same process and device initialised before this one).
    std::map<std::string, uint32_t> global_of;
    std::map<endpoint_key, uint32_t> ordinal;
    std::vector<global_comm> globals;
    for (std::size_t i = 0; i < locals.size(); ++i) {
        local_comm& c = locals[i];
        const uint32_t ord = ordinal[{c.process, c.dev}]++;
        const std::string key =
            !c.comm_id.empty() ? "id " + c.comm_id : fmt::format("n {} #{}", c.nranks, ord);
        auto it = global_of.find(key);
        if (it == global_of.end()) {
            it = global_of.emplace(key, static_cast<uint32_t>(globals.size())).first;
            global_comm g;
            g.nranks = c.nranks;
            g.line = c.line;
            g.label = !c.comm_id.empty()
                          ? "commId " + c.comm_id
                          : fmt::format("communicator #{} of {} ranks (no commId)", ord, c.nranks);
            globals.push_back(std::move(g));
        }
        global_comm& g = globals[it->second];
        if (g.nranks != c.nranks) {
            fail(path, c.line, "nRanks",
                 fmt::format("{} has {} ranks (line {}), this INIT line says {}", g.label, g.nranks,
                             g.line, c.nranks));
        }
        if (const auto dup = g.by_rank.find(c.rank); dup != g.by_rank.end()) {
            fail(path, c.line, "rank",
                 fmt::format("{}: rank {} initialised twice (also line {})", g.label, c.rank,
                             locals[dup->second].line));
        }
        g.by_rank.emplace(c.rank, static_cast<uint32_t>(i));
        c.global = it->second;
    }
    for (global_comm& g : globals) {
        if (g.by_rank.size() != g.nranks) {
            constexpr std::size_t shown = 16;  // a 65,536-rank communicator must not list them all
            std::string m;
            std::size_t missing = 0;
            for (uint32_t r = 0; r < g.nranks; ++r) {
                if (g.by_rank.count(r) != 0) continue;
                if (missing++ < shown) m += (m.empty() ? "" : ", ") + std::to_string(r);
            }
            if (missing > shown) m += fmt::format(", ... ({} in all)", missing);
            fail(path, g.line, "comm",
                 fmt::format("{}: no INIT line for rank{} {} (the log must hold every "
                             "rank's lines)",
                             g.label, missing > 1 ? "s" : "", m));
        }
        for (const auto& [rank, local] : g.by_rank) g.locals.push_back(local);
    }

    // Global ranks: the ranks of the largest communicator (the first initialised among equals),
    // then endpoints outside it in order of first INIT line.
    std::map<endpoint_key, uint32_t> global_rank;
    constexpr uint32_t none = std::numeric_limits<uint32_t>::max();
    uint32_t world = none;
    for (std::size_t gi = 0; gi < globals.size(); ++gi) {
        if (world == none || globals[gi].locals.size() > globals[world].locals.size()) {
            world = static_cast<uint32_t>(gi);
        }
    }
    std::vector<endpoint_key> endpoints;
    if (world != none) {
        for (uint32_t li : globals[world].locals) {
            global_rank.emplace(endpoint_key{locals[li].process, locals[li].dev},
                                static_cast<uint32_t>(endpoints.size()));
            endpoints.push_back({locals[li].process, locals[li].dev});
        }
    }
    for (const local_comm& c : locals) {
        if (global_rank
                .emplace(endpoint_key{c.process, c.dev}, static_cast<uint32_t>(endpoints.size()))
                .second) {
            endpoints.push_back({c.process, c.dev});
            if (endpoints.size() > max_ranks) {
                fail(path, c.line, "rank",
                     fmt::format("more than {} ranks (distinct process and cudaDev) in the log",
                                 max_ranks));
            }
        }
    }

    trace& t = res.t;
    t.nranks = static_cast<uint32_t>(endpoints.size());
    std::vector<std::string> where(endpoints.size());  // " on node N GPU G" per rank, or empty
    if (opts.placement) {
        place_ranks(path, locals, globals, endpoints, nvml_of, res, where);
    }
    t.name = "imported from " + path;
    for (std::size_t gi = 0; gi < globals.size(); ++gi) {
        communicator c;
        c.id = static_cast<uint32_t>(gi);
        for (uint32_t li : globals[gi].locals) {
            c.ranks.push_back(global_rank.at({locals[li].process, locals[li].dev}));
        }
        t.comms.push_back(std::move(c));
        res.comments.push_back(fmt::format("comm {} = {} (first INIT at log line {})", gi,
                                           globals[gi].label, globals[gi].line));
    }
    for (std::size_t r = 0; r < endpoints.size(); ++r) {
        res.comments.push_back(fmt::format("rank {} = process '{}' cudaDev {}{}", r,
                                           endpoints[r].process, endpoints[r].dev, where[r]));
    }

    // Pass 2: COLL lines.
    for (uint32_t no : coll_line_nos) {
        const nccl_line l = *split_info(lines[no - 1]);
        const coll_fields f = parse_coll(l, path, no);
        const auto it = local_of.find({l.process, f.ptr});
        if (it == local_of.end()) {
            fail(path, no, "comm",
                 fmt::format("no INIT line for comm {} in process '{}'", f.ptr, l.process));
        }
        const local_comm& lc = locals[it->second];
        if (f.nranks && *f.nranks != lc.nranks) {
            fail(path, no, "nranks",
                 fmt::format("[nranks={}] disagrees with the INIT line (line {}: nRanks {})",
                             f.nranks_text, lc.line, lc.nranks));
        }
        t.records.push_back(
            to_record(f, global_rank.at({lc.process, lc.dev}), lc.global, lc.nranks, path, no));
        ++res.coll_lines;
    }
    renumber_repeated_op_counts(t, path, res);
    // The header's line: the first INIT line; a comm's: its first INIT line.
    std::vector<uint32_t> comm_lines;
    for (const global_comm& g : globals) comm_lines.push_back(g.line);
    res.t = finish_trace(t, locals.front().line, comm_lines, path);
    return res;
}

nccl_import import_nccl_log(const std::string& path, const nccl_import_options& opts) {
    std::ifstream in(path);
    if (!in) throw trace_error(fmt::format("{}: cannot open the file", path));
    return import_nccl_log(in, path, opts);
}

}  // namespace ndr::trace
