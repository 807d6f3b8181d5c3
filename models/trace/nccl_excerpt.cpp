#include "trace/nccl_excerpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "trace/nccl_coll_line.h"

namespace ndr::trace::nccl_detail {

namespace {

/// Header placement of an excerpt (nccl_excerpt.h): only for one communicator whose views are
/// all its ranks, each with a host and a distinct [cudaDev] there, some host holding several.
template <class View, class Comm>
void place_excerpt_ranks(const std::vector<View>& views, const std::vector<Comm>& comms,
                         nccl_import& res) {
    if (comms.size() != 1 || comms.front().views != comms.front().nranks) return;
    struct member {
        uint32_t node = 0;
        uint32_t dev = 0;
        std::string host;
    };
    std::map<std::string, uint32_t> node_of;  // host -> node, in order of first appearance
    std::vector<const View*> in_line_order;
    for (uint32_t vi : comms.front().members) in_line_order.push_back(&views[vi]);
    std::stable_sort(in_line_order.begin(), in_line_order.end(),
                     [](const View* a, const View* b) { return a->line < b->line; });
    std::vector<member> ms;
    for (const View* v : in_line_order) {
        if (v->process.empty()) return;  // prefix trimmed: the hosts are unknown
        const std::string host = host_of(v->process);
        const auto it = node_of.emplace(host, static_cast<uint32_t>(node_of.size())).first;
        ms.push_back(member{it->second, v->dev, host});
    }
    std::sort(ms.begin(), ms.end(), [](const member& a, const member& b) {
        return a.node != b.node ? a.node < b.node : a.dev < b.dev;
    });
    for (std::size_t i = 1; i < ms.size(); ++i) {
        if (ms[i].node == ms[i - 1].node && ms[i].dev == ms[i - 1].dev) return;  // one GPU twice
    }
    if (node_of.size() == ms.size()) return;  // one rank per host: no placement needed
    uint32_t top = 0;
    for (const member& m : ms) {
        if (m.dev > 63 || m.node > 0xBFFF) return;  // outside a trace's placement: leave it out
        top = std::max(top, m.dev + 1);
    }
    res.t.placement.clear();
    for (std::size_t r = 0; r < ms.size(); ++r) {
        res.t.placement.push_back({ms[r].node, ms[r].dev});
        res.comments.push_back(fmt::format(
            "rank {} = host '{}' cudaDev {} -> node {} GPU {} (placed from the excerpt's host "
            "names and device indices)",
            r, ms[r].host, ms[r].dev, ms[r].node, ms[r].dev));
    }
    res.nodes = static_cast<uint32_t>(node_of.size());
    res.gpus_per_node = top;
}

}  // namespace

nccl_import import_excerpt(const std::vector<std::string>& lines,
                           const std::vector<uint32_t>& coll_line_nos, const std::string& path,
                           nccl_import res, bool placement) {
    using op_key = std::pair<uint64_t, uint32_t>;
    struct excerpt_op {
        coll_fields f;
        uint32_t line = 0;
    };
    struct view {
        uint32_t nranks = 0;
        uint32_t line = 0;
        std::string process;                 ///< "host:pid", empty when the prefix is trimmed
        uint32_t dev = 0;                    ///< [cudaDev]
        std::map<uint64_t, uint32_t> times;  ///< opCount -> lines seen so far
        std::map<op_key, excerpt_op> ops;
    };
    struct excerpt_comm {
        uint32_t nranks = 0;
        uint32_t line = 0;
        uint32_t views = 0;
        std::map<op_key, excerpt_op> ops;
        std::vector<uint32_t> members;  ///< its views (indices into `views`)
    };
    std::map<std::tuple<std::string, uint32_t, std::string>, uint32_t> view_of;
    std::vector<view> views;
    for (uint32_t no : coll_line_nos) {
        const nccl_line l = *split_info(lines[no - 1]);
        if (!missing_coll_fields(l).empty()) {
            ++res.torn;
            continue;
        }
        const coll_fields f = parse_coll(l, path, no);
        if (!f.nranks || *f.nranks == 0) {
            fail(path, no, "nranks",
                 fmt::format("expected [nranks=N] with N in 1..{}, got '[nranks={}]'", max_ranks,
                             f.nranks_text));
        }
        if (is_point_to_point(f.op)) {
            ++res.p2p_skipped;
            continue;
        }
        const auto key = std::make_tuple(l.process, l.dev, f.ptr);
        auto it = view_of.find(key);
        if (it == view_of.end()) {
            it = view_of.emplace(key, static_cast<uint32_t>(views.size())).first;
            view v;
            v.nranks = static_cast<uint32_t>(*f.nranks);
            v.line = no;
            v.process = l.process;
            v.dev = l.dev;
            views.push_back(std::move(v));
        }
        view& v = views[it->second];
        if (v.nranks != *f.nranks) {
            fail(path, no, "nranks",
                 fmt::format("[nranks={}] for comm {} in process '{}', line {} said {}",
                             f.nranks_text, f.ptr, l.process, v.line, v.nranks));
        }
        const op_key k{f.seq, v.times[f.seq]++};
        v.ops.emplace(k, excerpt_op{f, no});
        ++res.coll_lines;
    }
    if (views.empty()) {
        fail(path, coll_line_nos.back(), "comm",
             fmt::format("no complete collective line in the log ({} torn, {} point-to-point "
                         "lines skipped) and no NCCL INIT lines",
                         res.torn, res.p2p_skipped));
    }
    const auto same = [](const coll_fields& a, const coll_fields& b) {
        return a.op == b.op && a.count == b.count && a.dt == b.dt && a.rop == b.rop &&
               a.root == b.root;
    };
    std::vector<excerpt_comm> comms;
    for (uint32_t vi = 0; vi < views.size(); ++vi) {
        const view& v = views[vi];
        excerpt_comm* into = nullptr;
        for (excerpt_comm& c : comms) {
            if (c.nranks != v.nranks) continue;
            const bool agrees = std::all_of(v.ops.begin(), v.ops.end(), [&](const auto& kv) {
                const auto o = c.ops.find(kv.first);
                return o == c.ops.end() || same(o->second.f, kv.second.f);
            });
            if (agrees) {
                into = &c;
                break;
            }
        }
        if (!into) {
            comms.push_back(excerpt_comm{v.nranks, v.line, 0, {}, {}});
            into = &comms.back();
        }
        ++into->views;
        into->members.push_back(vi);
        for (const auto& [k, o] : v.ops) {
            auto [at, fresh] = into->ops.emplace(k, o);
            if (!fresh && o.line < at->second.line) at->second.line = o.line;
        }
    }
    trace& t = res.t;
    t.name = "imported from " + path + " (excerpt without INIT lines)";
    t.nranks = 0;
    for (const excerpt_comm& c : comms) t.nranks = std::max(t.nranks, c.nranks);
    res.excerpt = true;
    struct placed {
        uint32_t line = 0;
        uint32_t comm = 0;
        const coll_fields* f = nullptr;
    };
    std::vector<placed> order;
    for (std::size_t ci = 0; ci < comms.size(); ++ci) {
        communicator c;
        c.id = static_cast<uint32_t>(ci);
        for (uint32_t r = 0; r < comms[ci].nranks; ++r) c.ranks.push_back(r);
        t.comms.push_back(std::move(c));
        res.comments.push_back(fmt::format(
            "comm {} = {} ranks, {} collectives, from {} view(s) without INIT lines (first COLL "
            "line {}): every rank replays the sequence the log shows",
            ci, comms[ci].nranks, comms[ci].ops.size(), comms[ci].views, comms[ci].line));
        for (const auto& [k, o] : comms[ci].ops) {
            order.push_back(placed{o.line, static_cast<uint32_t>(ci), &o.f});
        }
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const placed& a, const placed& b) { return a.line < b.line; });
    // Every rank gets every op of its communicator: refuse before allocating a trace that
    // large (a fuzzed 20-line log claiming [nranks=65536] must not take gigabytes).
    constexpr uint64_t max_records = uint64_t{1} << 22;
    uint64_t records = 0;
    for (const placed& p : order) {
        records += comms[p.comm].nranks;
        if (records > max_records) {
            fail(path, p.line, "nranks",
                 fmt::format("replaying the excerpt on every rank of its communicators needs more "
                             "than {} op records; import a log with INIT lines instead",
                             max_records));
        }
    }
    // seq: the op's place in its communicator's sequence (an excerpt's opCounts may repeat).
    std::vector<uint64_t> next_seq(comms.size(), 0);
    for (const placed& p : order) {
        const uint64_t seq = next_seq[p.comm]++;
        for (uint32_t r = 0; r < comms[p.comm].nranks; ++r) {
            t.records.push_back(to_record(*p.f, r, p.comm, comms[p.comm].nranks, path, p.line));
            t.records.back().seq = seq;
        }
    }
    if (placement) place_excerpt_ranks(views, comms, res);
    std::vector<uint32_t> comm_lines;
    for (const excerpt_comm& c : comms) comm_lines.push_back(c.line);
    res.t = finish_trace(t, comms.front().line, comm_lines, path);
    return res;
}

}  // namespace ndr::trace::nccl_detail
