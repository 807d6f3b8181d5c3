#include "trace/nccl_excerpt.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "trace/nccl_coll_line.h"

namespace ndr::trace::nccl_detail {

nccl_import import_excerpt(const std::vector<std::string>& lines,
                           const std::vector<uint32_t>& coll_line_nos, const std::string& path,
                           nccl_import res) {
    using op_key = std::pair<uint64_t, uint32_t>;
    struct excerpt_op {
        coll_fields f;
        uint32_t line = 0;
    };
    struct view {
        uint32_t nranks = 0;
        uint32_t line = 0;
        std::map<uint64_t, uint32_t> times;  ///< opCount -> lines seen so far
        std::map<op_key, excerpt_op> ops;
    };
    struct excerpt_comm {
        uint32_t nranks = 0;
        uint32_t line = 0;
        uint32_t views = 0;
        std::map<op_key, excerpt_op> ops;
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
    for (const view& v : views) {
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
            comms.push_back(excerpt_comm{v.nranks, v.line, 0, {}});
            into = &comms.back();
        }
        ++into->views;
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
    std::vector<uint32_t> comm_lines;
    for (const excerpt_comm& c : comms) comm_lines.push_back(c.line);
    res.t = finish_trace(t, comms.front().line, comm_lines, path);
    return res;
}

}  // namespace ndr::trace::nccl_detail
