// Trace loader: JSON Lines in, validated trace out (docs/trace_format.md). The first problem
// found is thrown as `FILE:LINE: FIELD: REASON`; nothing is skipped silently.
#include "trace/trace.h"
#include "trace/line_reader.h"
#include "trace/record_fields.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace ndr::trace {

namespace {

using namespace detail;  // NOLINT: the loader's own helpers (record_fields.h)

struct coll_key {
    uint32_t comm;
    uint64_t seq;
    bool operator<(const coll_key& o) const {
        return std::tie(comm, seq) < std::tie(o.comm, o.seq);
    }
};

/// What a (comm, seq) is used for: one collective, or any number of point-to-point records.
struct seq_use {
    bool collective = false;
    uint32_t first_line = 0;
    uint32_t instance = none;      ///< collectives: index into trace::collectives
    uint32_t first_record = none;  ///< collectives: the record that opened it (earliest line)
    coll::op_kind op = coll::op_kind::allreduce;
};

struct p2p_key {
    uint32_t comm;
    uint64_t seq;
    uint32_t src;  ///< communicator ranks
    uint32_t dst;
    coll::op_kind kind;  ///< send (for a send/recv pair), rdma_write or rdma_read
    bool operator<(const p2p_key& o) const {
        return std::tie(comm, seq, src, dst, kind) < std::tie(o.comm, o.seq, o.src, o.dst, o.kind);
    }
};

struct loader {
    std::string path;
    trace t;
    bool have_header = false;
    uint32_t header_line = 0;
    std::map<uint32_t, uint32_t> comm_index;  ///< comm id -> index in t.comms
    std::vector<uint32_t> comm_line;          ///< per comm: its line
    std::vector<std::unordered_map<uint32_t, uint32_t>>
        comm_rank_of;                               ///< per comm: global -> comm rank
    std::vector<std::map<uint32_t, uint32_t>> ids;  ///< per rank: id -> record index
    std::vector<uint32_t> rank_count;               ///< per rank: records so far
    std::map<coll_key, seq_use> seqs;
    std::map<p2p_key, uint32_t> p2p;  ///< -> instance index

    void header(const fields& f, uint32_t line) {
        f.only({"type", "version", "nranks", "name", "placement"}, "header");
        const uint64_t v = f.u64("version", std::numeric_limits<uint32_t>::max());
        if (v != 1)
            f.fail("version",
                   fmt::format("unsupported version {} (this build reads version 1)", v));
        t.version = 1;
        const uint32_t n = f.u32("nranks", max_ranks);
        if (n == 0) f.fail("nranks", "must be at least 1");
        t.nranks = n;
        if (f.has("name")) t.name = f.str("name");
        if (f.has("placement")) placement(f, n);
        have_header = true;
        header_line = line;
        ids.resize(n);
        rank_count.resize(n, 0);
    }

    /// `placement`: a list of nranks [node, gpu] pairs.
    void placement(const fields& f, uint32_t n) {
        const json& j = f.need("placement");
        if (!j.is_array() || j.size() != n) {
            f.fail("placement", fmt::format("expected a list of {} [node, gpu] pairs (one per "
                                            "rank), got {}",
                                            n,
                                            j.is_array() ? fmt::format("{} entries", j.size())
                                                         : std::string("no list")));
        }
        t.placement.resize(n);
        for (uint32_t r = 0; r < n; ++r) {
            const std::string name = fmt::format("placement[{}]", r);
            if (!j[r].is_array() || j[r].size() != 2)
                f.fail(name, "expected a [node, gpu] pair of integers");
            t.placement[r] = {static_cast<uint32_t>(f.to_u64(j[r][0], name, 0xBFFF)),
                              static_cast<uint32_t>(f.to_u64(j[r][1], name, 4095))};
        }
    }

    void comm(const fields& f, uint32_t line) {
        f.only({"type", "id", "ranks"}, "comm");
        const uint32_t id = f.u32("id");
        if (auto it = comm_index.find(id); it != comm_index.end()) {
            f.fail("id", fmt::format("communicator {} declared twice (first at line {})", id,
                                     comm_line[it->second]));
        }
        std::vector<uint32_t> ranks = f.u32_list("ranks", std::numeric_limits<uint32_t>::max());
        if (ranks.empty()) f.fail("ranks", "a communicator needs at least one rank");
        std::unordered_map<uint32_t, uint32_t> pos;
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            if (ranks[i] >= t.nranks) {
                f.fail(fmt::format("ranks[{}]", i),
                       fmt::format("rank {} out of range (header nranks {}: ranks 0..{})", ranks[i],
                                   t.nranks, t.nranks - 1));
            }
            if (!pos.emplace(ranks[i], static_cast<uint32_t>(i)).second) {
                f.fail(
                    fmt::format("ranks[{}]", i),
                    fmt::format("rank {} listed twice (also ranks[{}])", ranks[i], pos[ranks[i]]));
            }
        }
        comm_index[id] = static_cast<uint32_t>(t.comms.size());
        comm_line.push_back(line);
        comm_rank_of.push_back(std::move(pos));
        t.comms.push_back(communicator{id, std::move(ranks)});
    }

    /// Fields shared by op and compute records: rank, id, deps, gap_ns, issue_ns.
    void common(const fields& f, op_record& r) {
        r.rank = f.u32("rank");
        if (r.rank >= t.nranks) {
            f.fail("rank", fmt::format("rank {} out of range (header nranks {}: ranks 0..{})",
                                       r.rank, t.nranks, t.nranks - 1));
        }
        const uint32_t index = rank_count[r.rank];
        if (f.has("id")) {
            r.id = f.u32("id");
            if (auto it = ids[r.rank].find(r.id); it != ids[r.rank].end()) {
                f.fail("id", fmt::format("id {} used twice on rank {} (first at line {}; records "
                                         "without an id take their index on the rank)",
                                         r.id, r.rank, t.records[it->second].line));
            }
        } else {
            r.id = index;
            if (auto it = ids[r.rank].find(r.id); it != ids[r.rank].end()) {
                f.fail("id", fmt::format("this record's default id {} (its index on rank {}) is "
                                         "already taken at line {}; give it an explicit id",
                                         r.id, r.rank, t.records[it->second].line));
            }
        }
        if (f.has("deps")) {
            r.deps = f.u32_list("deps", std::numeric_limits<uint32_t>::max());
            if (r.deps.empty()) {
                f.fail("deps",
                       "empty list: omit deps to follow the previous record, or give "
                       "issue_ns for an absolute start");
            }
            std::set<uint32_t> seen;
            for (uint32_t d : r.deps) {
                if (!seen.insert(d).second) f.fail("deps", fmt::format("id {} listed twice", d));
            }
        }
        if (auto g = f.opt_u64("gap_ns", max_time_ns)) r.gap_ns = *g;
        if (f.has("issue_ns")) {
            if (f.has("deps"))
                f.fail("issue_ns", "not allowed together with deps (issue_ns is absolute)");
            if (f.has("gap_ns"))
                f.fail("issue_ns", "not allowed together with gap_ns (issue_ns is absolute)");
            r.issue_ns = f.u64("issue_ns", max_time_ns);
        }
    }

    void add_record(op_record r) {
        const auto idx = static_cast<uint32_t>(t.records.size());
        ids[r.rank][r.id] = idx;
        ++rank_count[r.rank];
        t.records.push_back(std::move(r));
    }

    void compute(const fields& f, uint32_t line) {
        f.only({"type", "rank", "duration_ns", "id", "deps", "gap_ns", "issue_ns"}, "compute");
        op_record r;
        r.line = line;
        r.compute = true;
        common(f, r);
        r.duration_ns = f.u64("duration_ns", max_time_ns);
        add_record(std::move(r));
    }

    void op(const fields& f, uint32_t line) {
        f.only({"type", "rank", "comm", "seq", "op", "count", "dtype", "redop", "root", "peer",
                "algo", "proto", "id", "deps", "gap_ns", "issue_ns"},
               "op");
        op_record r;
        r.line = line;
        r.op = f.named("op", coll::parse_op, all_ops, "op");
        const std::string opname(coll::name(r.op));
        common(f, r);

        // Communicator and membership.
        r.comm = f.u32("comm");
        const auto ci = comm_index.find(r.comm);
        if (ci == comm_index.end()) {
            f.fail("comm", fmt::format("communicator {} not declared (a comm record must come "
                                       "before the records that use it)",
                                       r.comm));
        }
        const communicator& c = t.comms[ci->second];
        const auto& rank_of = comm_rank_of[ci->second];
        const auto me = rank_of.find(r.rank);
        if (me == rank_of.end()) {
            f.fail("rank",
                   fmt::format("rank {} is not a member of communicator {} (ranks {}; line {})",
                               r.rank, r.comm,
                               join(c.ranks, [](uint32_t x) { return std::to_string(x); }),
                               comm_line[ci->second]));
        }
        const uint32_t my_crank = me->second;
        const auto n = static_cast<uint32_t>(c.ranks.size());
        r.seq = f.u64("seq", std::numeric_limits<uint64_t>::max());

        // Payload.
        const bool barrier = r.op == coll::op_kind::barrier;
        if (barrier) {
            f.forbid("count", "a barrier carries no data (remove count)");
            f.forbid("dtype", "a barrier carries no data (remove dtype)");
            r.count = 0;
        } else {
            r.count = f.u64("count", max_count);
            r.dt = f.named("dtype", coll::parse_dtype, all_dtypes, "dtype");
        }
        if (has_redop(r.op)) {
            r.rop = f.named("redop", coll::parse_redop, all_redops, "redop");
        } else {
            f.forbid("redop", fmt::format("{} does not reduce (remove redop)", opname));
        }
        if (has_root(r.op)) {
            r.root = f.u32("root");
            if (r.root >= n) {
                f.fail("root",
                       fmt::format("root {} out of range: communicator {} has {} ranks (root is "
                                   "a communicator rank, 0..{})",
                                   r.root, r.comm, n, n - 1));
            }
        } else {
            f.forbid("root", fmt::format("{} has no root (remove root{})", opname,
                                         is_point_to_point(r.op) ? "; use peer" : ""));
        }
        if (is_point_to_point(r.op)) {
            r.root = f.u32("peer");
            if (r.root >= n) {
                f.fail("peer",
                       fmt::format("peer {} out of range: communicator {} has {} ranks (peer is "
                                   "a communicator rank, 0..{})",
                                   r.root, r.comm, n, n - 1));
            }
            if (r.root == my_crank) {
                f.fail("peer",
                       fmt::format("peer {} is the record's own communicator rank", r.root));
            }
        } else {
            f.forbid("peer",
                     fmt::format("{} has no peer (peer is for send, recv, rdma_write, rdma_read)",
                                 opname));
        }
        if (f.has("algo")) r.algo = f.named("algo", coll::parse_algo, coll::algo_names(), "algo");
        if (f.has("proto")) {
            r.proto = f.named("proto", coll::parse_proto, coll::proto_names(), "proto");
        }
        if (r.op == coll::op_kind::alltoall && r.count % n != 0) {
            f.fail("count", fmt::format("alltoall count is the total each rank sends, n blocks of "
                                        "count/n: {} is not a multiple of the communicator size {}",
                                        r.count, n));
        }
        if (!barrier) {
            // count <= 2^48 and size <= 8, so count * size <= 2^51 cannot overflow.
            const uint64_t per = r.count * coll::dtype_bytes(r.dt);
            const uint64_t mult =
                (r.op == coll::op_kind::reduce_scatter || r.op == coll::op_kind::allgather) ? n
                                                                                            : 1u;
            if (per > max_bytes / mult) {
                f.fail("count", fmt::format("too large: S = count * size{} exceeds 2^62 bytes",
                                            mult > 1 ? " * n" : ""));
            }
        }

        const auto idx = static_cast<uint32_t>(t.records.size());
        if (is_point_to_point(r.op)) {
            match_p2p(f, r, c, my_crank, idx);
        } else {
            match_collective(f, r, c, my_crank, idx);
        }
        add_record(std::move(r));
    }

    void match_collective(const fields& f, const op_record& r, const communicator& c,
                          uint32_t my_crank, uint32_t idx) {
        const coll_key key{r.comm, r.seq};
        auto it = seqs.find(key);
        if (it == seqs.end()) {
            collective_instance ci;
            ci.comm = r.comm;
            ci.seq = r.seq;
            ci.op = r.op;
            ci.algo = r.algo;
            ci.proto = r.proto;
            ci.bytes = collective_bytes(r.op, r.count, r.dt, static_cast<uint32_t>(c.ranks.size()));
            ci.root = r.root;
            ci.ranks = c.ranks;
            ci.records.assign(c.ranks.size(), none);
            ci.records[my_crank] = idx;
            ci.line = r.line;
            seq_use u;
            u.collective = true;
            u.first_line = r.line;
            u.instance = static_cast<uint32_t>(t.collectives.size());
            u.first_record = idx;
            u.op = r.op;
            seqs.emplace(key, u);
            t.collectives.push_back(std::move(ci));
            return;
        }
        const seq_use& u = it->second;
        if (!u.collective) {
            f.fail("seq",
                   fmt::format("(comm {}, seq {}) is used by point-to-point records (first at "
                               "line {}); a collective needs its own seq",
                               r.comm, r.seq, u.first_line));
        }
        collective_instance& ci = t.collectives[u.instance];
        if (ci.records[my_crank] != none) {
            f.fail("seq", fmt::format("duplicate (comm {}, seq {}) on rank {} (first at line {})",
                                      r.comm, r.seq, r.rank, t.records[ci.records[my_crank]].line));
        }
        // Compare with the first record of the collective (records arrive in line order, so
        // the one that opened it has the earliest line; kept, not searched: O(1) per record).
        const op_record& a = t.records[u.first_record];
        const auto differs = [&](std::string_view field, const std::string& mine,
                                 const std::string& theirs) {
            f.fail(field,
                   fmt::format("members of (comm {}, seq {}) disagree: {} here, {} at line {} "
                               "(rank {})",
                               r.comm, r.seq, mine, theirs, a.line, a.rank));
        };
        if (a.op != r.op)
            differs("op", std::string(coll::name(r.op)), std::string(coll::name(a.op)));
        if (a.count != r.count) differs("count", std::to_string(r.count), std::to_string(a.count));
        if (a.dt != r.dt)
            differs("dtype", std::string(coll::name(r.dt)), std::string(coll::name(a.dt)));
        if (a.rop != r.rop)
            differs("redop", std::string(coll::name(r.rop)), std::string(coll::name(a.rop)));
        if (a.root != r.root) differs("root", std::to_string(r.root), std::to_string(a.root));
        if (a.algo != r.algo)
            differs("algo", std::string(coll::name(r.algo)), std::string(coll::name(a.algo)));
        if (a.proto != r.proto)
            differs("proto", std::string(coll::name(r.proto)), std::string(coll::name(a.proto)));
        ci.records[my_crank] = idx;
    }

    void match_p2p(const fields& f, const op_record& r, const communicator& c, uint32_t my_crank,
                   uint32_t idx) {
        const coll_key key{r.comm, r.seq};
        auto it = seqs.find(key);
        if (it != seqs.end() && it->second.collective) {
            f.fail("seq",
                   fmt::format("(comm {}, seq {}) is the {} at line {}; a {} needs its own seq",
                               r.comm, r.seq, coll::name(it->second.op), it->second.first_line,
                               coll::name(r.op)));
        }
        if (it == seqs.end()) {
            seq_use u;
            u.first_line = r.line;
            u.op = r.op;
            seqs.emplace(key, u);
        }
        const bool recv = r.op == coll::op_kind::recv;
        const uint32_t src = recv ? r.root : my_crank;
        const uint32_t dst = recv ? my_crank : r.root;
        const coll::op_kind kind =
            (r.op == coll::op_kind::send || recv) ? coll::op_kind::send : r.op;
        const p2p_key pk{r.comm, r.seq, src, dst, kind};
        auto pit = p2p.find(pk);
        if (pit == p2p.end()) {
            collective_instance ci;
            ci.comm = r.comm;
            ci.seq = r.seq;
            ci.op = kind;
            ci.algo = r.algo;
            ci.proto = r.proto;
            ci.bytes = collective_bytes(r.op, r.count, r.dt, static_cast<uint32_t>(c.ranks.size()));
            ci.root = recv ? my_crank : r.root;
            ci.ranks = {c.ranks[src], c.ranks[dst]};
            ci.line = r.line;
            if (kind == coll::op_kind::send) {
                ci.records = {none, none};
                ci.records[recv ? 1 : 0] = idx;
            } else {
                ci.records = {idx};
            }
            p2p.emplace(pk, static_cast<uint32_t>(t.collectives.size()));
            t.collectives.push_back(std::move(ci));
            return;
        }
        collective_instance& ci = t.collectives[pit->second];
        const std::size_t slot = recv ? 1 : 0;
        if (kind != coll::op_kind::send || ci.records[slot] != none) {
            const uint32_t other = kind != coll::op_kind::send ? ci.records[0] : ci.records[slot];
            f.fail("seq",
                   fmt::format(
                       "duplicate {} with peer {} at (comm {}, seq {}) on rank {} (first at "
                       "line {})",
                       coll::name(r.op), r.root, r.comm, r.seq, r.rank, t.records[other].line));
        }
        const op_record& a = t.records[ci.records[1 - slot]];
        const auto differs = [&](std::string_view field, const std::string& mine,
                                 const std::string& theirs) {
            f.fail(field,
                   fmt::format("{} does not match its {} at line {} (rank {}): {} here, {} there",
                               coll::name(r.op), coll::name(a.op), a.line, a.rank, mine, theirs));
        };
        if (a.count != r.count) differs("count", std::to_string(r.count), std::to_string(a.count));
        if (a.dt != r.dt)
            differs("dtype", std::string(coll::name(r.dt)), std::string(coll::name(a.dt)));
        if (a.algo != r.algo)
            differs("algo", std::string(coll::name(r.algo)), std::string(coll::name(a.algo)));
        if (a.proto != r.proto)
            differs("proto", std::string(coll::name(r.proto)), std::string(coll::name(a.proto)));
        ci.records[slot] = idx;
    }

    void line(const std::string& raw, uint32_t line_no) {
        const json j = parse_line(raw, path, line_no);
        const fields f(j, path, line_no);
        const std::string type = f.str("type");
        if (type == "header") {
            if (have_header)
                f.fail("type", fmt::format("second header (first at line {})", header_line));
            if (!t.records.empty() || !t.comms.empty()) {
                f.fail("type", "the header must be the first record");
            }
            header(f, line_no);
            return;
        }
        if (type != "comm" && type != "op" && type != "compute") {
            f.fail(
                "type",
                fmt::format("unknown record type '{}' (allowed: header, comm, op, compute)", type));
        }
        if (!have_header) {
            f.fail("type", fmt::format("the first record must be the header, got '{}'", type));
        }
        if (type == "comm")
            comm(f, line_no);
        else if (type == "op")
            op(f, line_no);
        else
            compute(f, line_no);
    }

    /// Checks done once every line is read: missing members, unmatched point-to-point records,
    /// dependencies.
    void finish(uint32_t last_line) {
        if (!have_header)
            fail_at(path, std::max(last_line, 1u), "type",
                    "missing header record (the file has no records)");
        // Missing collective members / unmatched p2p, reported in line order.
        uint32_t worst = none;
        std::string field, reason;
        for (const collective_instance& ci : t.collectives) {
            std::vector<uint32_t> missing;
            for (std::size_t i = 0; i < ci.records.size(); ++i) {
                if (ci.records[i] == none) missing.push_back(static_cast<uint32_t>(i));
            }
            if (missing.empty() || (worst != none && ci.line >= worst)) continue;
            worst = ci.line;
            if (is_point_to_point(ci.op)) {
                const bool no_recv = missing.front() == 1;
                const op_record& r = t.records[ci.records[no_recv ? 0 : 1]];
                field = "peer";
                reason =
                    no_recv
                        ? fmt::format(
                              "send to comm rank {} (global rank {}) at (comm {}, seq {}) has "
                              "no matching recv",
                              r.root, ci.ranks[1], ci.comm, ci.seq)
                        : fmt::format(
                              "recv from comm rank {} (global rank {}) at (comm {}, seq {}) has "
                              "no matching send",
                              r.root, ci.ranks[0], ci.comm, ci.seq);
            } else {
                field = "seq";
                reason = fmt::format(
                    "{} (comm {}, seq {}) has no record for global rank{} {} (members of "
                    "comm {}: {})",
                    coll::name(ci.op), ci.comm, ci.seq, missing.size() > 1 ? "s" : "",
                    join(missing, [&](uint32_t m) { return std::to_string(ci.ranks[m]); }), ci.comm,
                    join(ci.ranks, [](uint32_t x) { return std::to_string(x); }));
            }
        }
        if (worst != none) fail_at(path, worst, field, reason);
        check_deps();
    }

    void check_deps() {
        // Edges per record: explicit deps, or the previous record of the same rank.
        const auto nrec = static_cast<uint32_t>(t.records.size());
        std::vector<std::vector<uint32_t>> preds(nrec);
        std::vector<uint32_t> prev(t.nranks, none);
        for (uint32_t i = 0; i < nrec; ++i) {
            const op_record& r = t.records[i];
            if (!r.deps.empty()) {
                for (uint32_t d : r.deps) {
                    auto it = ids[r.rank].find(d);
                    if (it == ids[r.rank].end()) {
                        fail_at(path, r.line, "deps",
                                fmt::format("no record with id {} on rank {}", d, r.rank));
                    }
                    if (it->second == i)
                        fail_at(path, r.line, "deps",
                                fmt::format("record depends on itself (id {})", d));
                    preds[i].push_back(it->second);
                }
            } else if (!r.issue_ns && prev[r.rank] != none) {
                preds[i].push_back(prev[r.rank]);
            }
            prev[r.rank] = i;
        }
        // Kahn's algorithm; what remains lies on or behind a cycle.
        std::vector<std::vector<uint32_t>> succs(nrec);
        std::vector<uint32_t> indeg(nrec, 0);
        for (uint32_t i = 0; i < nrec; ++i) {
            for (uint32_t p : preds[i]) succs[p].push_back(i);
            indeg[i] = static_cast<uint32_t>(preds[i].size());
        }
        std::vector<uint32_t> ready;
        for (uint32_t i = 0; i < nrec; ++i)
            if (indeg[i] == 0) ready.push_back(i);
        uint32_t done = 0;
        while (!ready.empty()) {
            const uint32_t x = ready.back();
            ready.pop_back();
            ++done;
            for (uint32_t s : succs[x])
                if (--indeg[s] == 0) ready.push_back(s);
        }
        if (done == nrec) return;
        // Walk predecessors inside the remainder until a record repeats: that is a cycle.
        uint32_t start = none;
        for (uint32_t i = 0; i < nrec && start == none; ++i)
            if (indeg[i] != 0) start = i;
        std::vector<uint32_t> seen_at(nrec, none);
        std::vector<uint32_t> path_recs;
        uint32_t x = start;
        while (seen_at[x] == none) {
            seen_at[x] = static_cast<uint32_t>(path_recs.size());
            path_recs.push_back(x);
            for (uint32_t p : preds[x]) {
                if (indeg[p] != 0) {
                    x = p;
                    break;
                }
            }
        }
        std::vector<uint32_t> cyc(path_recs.begin() + seen_at[x], path_recs.end());
        std::reverse(cyc.begin(), cyc.end());
        const auto first = std::min_element(cyc.begin(), cyc.end(), [&](uint32_t a, uint32_t b) {
            return t.records[a].line < t.records[b].line;
        });
        std::rotate(cyc.begin(), first, cyc.end());
        std::string chain;
        for (uint32_t c : cyc)
            chain += fmt::format("line {} (id {}) -> ", t.records[c].line, t.records[c].id);
        chain += fmt::format("line {}", t.records[cyc.front()].line);
        fail_at(path, t.records[cyc.front()].line, "deps",
                fmt::format(
                    "dependency cycle on rank {}: {} (a record without deps follows the previous "
                    "record of its rank)",
                    t.records[cyc.front()].rank, chain));
    }
};

}  // namespace

bool is_point_to_point(coll::op_kind op) {
    return op == coll::op_kind::send || op == coll::op_kind::recv ||
           op == coll::op_kind::rdma_write || op == coll::op_kind::rdma_read;
}

bool has_redop(coll::op_kind op) {
    return op == coll::op_kind::allreduce || op == coll::op_kind::reduce_scatter ||
           op == coll::op_kind::reduce;
}

bool has_root(coll::op_kind op) {
    return op == coll::op_kind::broadcast || op == coll::op_kind::reduce;
}

uint64_t collective_bytes(coll::op_kind op, uint64_t count, coll::dtype dt, uint32_t comm_size) {
    const uint64_t b = count * coll::dtype_bytes(dt);
    switch (op) {
        case coll::op_kind::barrier:
            return 0;
        case coll::op_kind::reduce_scatter:
        case coll::op_kind::allgather:
            return b * comm_size;
        default:
            return b;
    }
}

trace parse_trace(std::istream& in, const std::string& path) {
    loader l;
    l.path = path;
    l.t.path = path;
    std::string raw;
    uint32_t line_no = 0;
    while (read_line(in, raw, path, line_no + 1, "json")) {
        ++line_no;
        const auto b = raw.find_first_not_of(" \t");
        if (b == std::string::npos || raw[b] == '#') continue;
        l.line(raw, line_no);
    }
    if (in.bad()) throw trace_error(fmt::format("{}: read error", path));
    l.finish(line_no);
    return std::move(l.t);
}

trace parse_records(const std::vector<numbered_record>& records, const std::string& path) {
    loader l;
    l.path = path;
    l.t.path = path;
    uint32_t last = 0;
    for (const numbered_record& r : records) {
        l.line(r.json, r.line);
        last = std::max(last, r.line);
    }
    l.finish(last);
    return std::move(l.t);
}

trace load_trace(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw trace_error(fmt::format("{}: cannot open the file", path));
    return parse_trace(in, path);
}

}  // namespace ndr::trace
