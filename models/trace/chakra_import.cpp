// Chakra execution traces to a trace (chakra_import.h; docs/trace_format.md, "Chakra execution
// traces").
#include "trace/chakra_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <string_view>

#include <google/protobuf/stubs/logging.h>

#include "chakra_et.pb.h"
#include "trace/chakra_attr.h"
#include "trace/et_stream.h"
#include "trace/p2p_match.h"
#include "trace/trace_writer.h"

namespace ndr::trace {

namespace pb = ndr::chakra_et;

namespace {

/// One Node message of one rank, as read.
struct node_in {
    uint64_t id = 0;
    uint64_t message = 0;        ///< index in the file (0 = the metadata)
    std::vector<uint64_t> deps;  ///< data_deps then ctrl_deps, duplicates removed
    bool mapped = false;
    op_record rec;     ///< mapped nodes: the record, deps not yet set
    std::string pg;    ///< COMM_COLL: pg_name ("" = all ranks)
    uint32_t tag = 0;  ///< COMM_SEND/RECV: comm_tag
};

std::optional<coll::op_kind> coll_op(int64_t comm_type) {
    switch (comm_type) {
        case pb::ALL_REDUCE:
            return coll::op_kind::allreduce;
        case pb::REDUCE:
            return coll::op_kind::reduce;
        case pb::ALL_GATHER:
            return coll::op_kind::allgather;
        case pb::BROADCAST:
            return coll::op_kind::broadcast;
        case pb::ALL_TO_ALL:
            return coll::op_kind::alltoall;
        case pb::REDUCE_SCATTER:
            return coll::op_kind::reduce_scatter;
        case pb::BARRIER:
            return coll::op_kind::barrier;
        default:
            return std::nullopt;  // GATHER, SCATTER, REDUCE_SCATTER_BLOCK: no ndrsim op
    }
}

std::string type_name(int type) {
    const std::string& n = pb::NodeType_Name(static_cast<pb::NodeType>(type));
    return n.empty() ? fmt::format("NodeType {}", type) : n;
}

class rank_reader {
public:
    rank_reader(const chakra_file& f, uint32_t rank, uint32_t nranks,
                const chakra_import_options& opts, chakra_import& res)
        : f_(f), rank_(rank), nranks_(nranks), opts_(opts), res_(res) {}

    std::vector<node_in> read() {
        et_stream s(f_.bytes, f_.path);
        std::string_view msg;
        if (!s.next(msg)) {
            throw trace_error(fmt::format("{}: no GlobalMetadata message (empty file)", f_.path));
        }
        pb::GlobalMetadata meta;
        if (!meta.ParseFromArray(msg.data(), static_cast<int>(msg.size()))) {
            throw trace_error(
                fmt::format("{}: message 0 (byte 0): not a GlobalMetadata message "
                            "(protobuf parse error)",
                            f_.path));
        }
        if (rank_ == 0) {
            res_.comments.push_back(
                fmt::format("Chakra GlobalMetadata version '{}'", meta.version()));
        }
        std::vector<node_in> nodes;
        std::set<uint64_t> ids;
        while (s.next(msg)) {
            pb::Node n;
            if (!n.ParseFromArray(msg.data(), static_cast<int>(msg.size()))) {
                throw trace_error(fmt::format(
                    "{}: message {} (byte {}): not a Chakra Node message (protobuf parse error: a "
                    "field of the wrong wire type or a truncated message)",
                    f_.path, s.index(), s.offset()));
            }
            ++res_.nodes;
            if (n.id() > std::numeric_limits<uint32_t>::max()) {
                fail(n.id(), "id", "above 4294967295 (trace record ids are 32-bit)");
            }
            if (!ids.insert(n.id()).second) fail(n.id(), "id", "given twice in this file");
            node_in in;
            in.id = n.id();
            in.message = s.index();
            for (const auto* list : {&n.data_deps(), &n.ctrl_deps()}) {
                for (uint64_t d : *list) {
                    if (std::find(in.deps.begin(), in.deps.end(), d) == in.deps.end()) {
                        in.deps.push_back(d);
                    }
                }
            }
            map_node(n, in);
            nodes.push_back(std::move(in));
        }
        return nodes;
    }

private:
    [[noreturn]] void fail(uint64_t id, std::string_view field, const std::string& why) const {
        throw trace_error(fmt::format("{}: node {}: {}: {}", f_.path, id, field, why));
    }

    void ignore_others(const pb::Node& n, std::initializer_list<std::string_view> used) {
        for (const pb::AttributeProto& a : n.attr()) {
            if (std::find(used.begin(), used.end(), a.name()) == used.end()) {
                ++res_.ignored_attrs[a.name()];
            }
        }
    }

    uint64_t count_of(uint64_t id, coll::op_kind op, uint64_t bytes, uint32_t n) const {
        const uint64_t size = coll::dtype_bytes(opts_.dt);
        // comm_size is the per-rank input buffer: S for every op but allgather (S/n).
        const uint64_t per = (op == coll::op_kind::reduce_scatter) ? size * n : size;
        if (bytes % per != 0) {
            fail(id, "comm_size",
                 fmt::format("{} bytes is not a whole number of {} elements{} (import with "
                             "--dtype uint8, or a size that divides)",
                             bytes, coll::name(opts_.dt),
                             op == coll::op_kind::reduce_scatter ? fmt::format(" per rank of {}", n)
                                                                 : std::string()));
        }
        const uint64_t count = bytes / per;
        if (op == coll::op_kind::alltoall && count % n != 0) {
            fail(id, "comm_size",
                 fmt::format("an all-to-all of {} elements does not split into {} equal blocks",
                             count, n));
        }
        if (count > max_count) {
            fail(id, "comm_size", fmt::format("{} elements, above the trace format's 2^48", count));
        }
        return count;
    }

    void map_node(const pb::Node& n, node_in& in) {
        const chakra_attrs attrs(n, f_.path);
        op_record& r = in.rec;
        r.rank = rank_;
        r.id = static_cast<uint32_t>(n.id());
        r.dt = opts_.dt;
        switch (n.type()) {
            case pb::COMP_NODE: {
                if (n.duration_micros() > max_time_ns / 1000) {
                    fail(n.id(), "duration_micros",
                         fmt::format("{} us, above the trace format's 10^15 ns",
                                     n.duration_micros()));
                }
                r.compute = true;
                r.duration_ns = n.duration_micros() * 1000;
                in.mapped = true;
                ++res_.computes;
                ignore_others(n, {});
                return;
            }
            case pb::COMM_COLL_NODE: {
                const int64_t ct = attrs.required_int("comm_type", 0, 1000);
                const auto op = coll_op(ct);
                if (!op) {
                    if (ct > pb::CollectiveCommType_MAX) {
                        fail(n.id(), "comm_type",
                             fmt::format("{} is not a CollectiveCommType (0..{})", ct,
                                         pb::CollectiveCommType_MAX));
                    }
                    ++res_.unmapped[fmt::format(
                        "COMM_COLL_NODE {}",
                        pb::CollectiveCommType_Name(static_cast<pb::CollectiveCommType>(ct)))];
                    ignore_others(n, {});
                    return;
                }
                r.op = *op;
                in.pg = attrs.string_or("pg_name", "");
                if (*op != coll::op_kind::barrier) {
                    // The communicator's size is only known once every rank is read: keep the
                    // bytes in count for now (finish_counts).
                    r.count = static_cast<uint64_t>(
                        attrs.required_int("comm_size", 0, std::numeric_limits<int64_t>::max()));
                }
                if (has_root(*op)) {
                    r.root = static_cast<uint32_t>(attrs.int_or("comm_root", 0, 0, max_ranks - 1));
                }
                in.mapped = true;
                ++res_.collectives;
                ignore_others(
                    n, {"comm_type", "comm_size", "pg_name", "comm_root"});  // barrier: comm_size 0
                return;
            }
            case pb::COMM_SEND_NODE:
            case pb::COMM_RECV_NODE: {
                const bool send = n.type() == pb::COMM_SEND_NODE;
                r.op = send ? coll::op_kind::send : coll::op_kind::recv;
                const std::string_view self_field = send ? "comm_src" : "comm_dst";
                const std::string_view peer_field = send ? "comm_dst" : "comm_src";
                const int64_t self = attrs.int_or(self_field, rank_, 0, nranks_ - 1);
                if (self != rank_) {
                    fail(n.id(), self_field,
                         fmt::format("{}, but this file is rank {}", self, rank_));
                }
                const int64_t peer = attrs.required_int(peer_field, 0, nranks_ - 1);
                if (peer == rank_) fail(n.id(), peer_field, "the node's own rank");
                r.root = static_cast<uint32_t>(peer);
                in.tag = static_cast<uint32_t>(
                    attrs.int_or("comm_tag", 0, 0, std::numeric_limits<uint32_t>::max()));
                const bool by_comm = attrs.has("comm_size");
                const auto bytes = static_cast<uint64_t>(
                    by_comm
                        ? attrs.required_int("comm_size", 0, std::numeric_limits<int64_t>::max())
                        : attrs.required_int("tensor_size", 0,
                                             std::numeric_limits<int64_t>::max()));
                r.count = count_of(n.id(), r.op, bytes, 2);
                in.mapped = true;
                ++res_.p2p;
                ignore_others(
                    n, {"comm_src", "comm_dst", "comm_tag", by_comm ? "comm_size" : "tensor_size"});
                return;
            }
            default:
                ++res_.unmapped[type_name(n.type())];
                ignore_others(n, {});
                return;
        }
    }

public:
    /// A collective's count from its bytes (kept in count by map_node) once the communicator's
    /// size is known.
    void finish_count(node_in& in, uint32_t comm_size) const {
        if (in.rec.op == coll::op_kind::barrier) return;
        in.rec.count = count_of(in.id, in.rec.op, in.rec.count, comm_size);
    }

private:
    const chakra_file& f_;
    uint32_t rank_;
    uint32_t nranks_;
    const chakra_import_options& opts_;
    chakra_import& res_;
};

/// Resolves every node's deps to mapped nodes' ids: a dependency on an unmapped node becomes
/// that node's own (resolved) dependencies.
void resolve_deps(std::vector<node_in>& nodes, const std::string& path) {
    std::map<uint64_t, std::size_t> index;
    for (std::size_t i = 0; i < nodes.size(); ++i) index[nodes[i].id] = i;
    const auto lookup = [&](const node_in& n, uint64_t d) {
        const auto it = index.find(d);
        if (it == index.end()) {
            throw trace_error(
                fmt::format("{}: node {}: data_deps/ctrl_deps: node {} is not in "
                            "the file",
                            path, n.id, d));
        }
        return it->second;
    };
    // Resolved ids of unmapped nodes, by an iterative depth-first walk (chains may be long).
    std::vector<int> state(nodes.size(), 0);  // 0 new, 1 on the stack, 2 done
    std::vector<std::vector<uint32_t>> via(nodes.size());
    const auto add = [](std::vector<uint32_t>& v, uint32_t id) {
        if (std::find(v.begin(), v.end(), id) == v.end()) v.push_back(id);
    };
    for (std::size_t root = 0; root < nodes.size(); ++root) {
        if (nodes[root].mapped || state[root] == 2) continue;
        std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};
        state[root] = 1;
        while (!stack.empty()) {
            auto& [v, i] = stack.back();
            if (i < nodes[v].deps.size()) {
                const std::size_t d = lookup(nodes[v], nodes[v].deps[i++]);
                if (nodes[d].mapped || state[d] == 2) continue;
                if (state[d] == 1) {
                    throw trace_error(
                        fmt::format("{}: node {}: data_deps/ctrl_deps: dependency "
                                    "cycle through node {}",
                                    path, nodes[v].id, nodes[d].id));
                }
                state[d] = 1;
                stack.emplace_back(d, 0);
                continue;
            }
            for (uint64_t dep : nodes[v].deps) {
                const std::size_t d = index.at(dep);
                if (nodes[d].mapped) {
                    add(via[v], static_cast<uint32_t>(nodes[d].id));
                } else {
                    for (uint32_t x : via[d]) add(via[v], x);
                }
            }
            state[v] = 2;
            stack.pop_back();
        }
    }
    for (node_in& n : nodes) {
        if (!n.mapped) continue;
        for (uint64_t dep : n.deps) {
            const std::size_t d = lookup(n, dep);
            if (nodes[d].mapped) {
                add(n.rec.deps, static_cast<uint32_t>(nodes[d].id));
            } else {
                for (uint32_t x : via[d]) add(n.rec.deps, x);
            }
        }
        if (n.rec.deps.empty()) n.rec.issue_ns = 0;  // no deps in Chakra: ready at the start
    }
}

}  // namespace

std::vector<std::string> chakra_rank_files(const std::string& prefix,
                                           std::optional<uint32_t> ranks) {
    namespace fs = std::filesystem;
    const auto name = [&](uint64_t r) { return fmt::format("{}.{}.et", prefix, r); };
    std::vector<std::string> files;
    if (ranks) {
        for (uint32_t r = 0; r < *ranks; ++r) files.push_back(name(r));
    } else {
        const fs::path p(prefix);
        const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
        const std::string base = p.filename().string() + ".";
        uint64_t top = 0;
        bool any = false;
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string f = it->path().filename().string();
            if (f.size() <= base.size() + 3 || f.compare(0, base.size(), base) != 0 ||
                f.compare(f.size() - 3, 3, ".et") != 0) {
                continue;
            }
            const std::string mid = f.substr(base.size(), f.size() - base.size() - 3);
            if (mid.empty() || mid.size() > 6 ||
                !std::all_of(mid.begin(), mid.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                continue;
            }
            top = std::max<uint64_t>(top, std::stoull(mid));
            any = true;
        }
        if (!any)
            throw trace_error(fmt::format("{}: cannot open the file (no rank files {}.<rank>.et)",
                                          name(0), prefix));
        if (top >= max_ranks) {
            throw trace_error(fmt::format("{}: rank {} above the trace format's {} ranks",
                                          name(top), top, max_ranks));
        }
        for (uint64_t r = 0; r <= top; ++r) files.push_back(name(r));
    }
    for (std::size_t r = 0; r < files.size(); ++r) {
        if (!std::filesystem::exists(files[r])) {
            throw trace_error(fmt::format("{}: missing: rank {} of the {} ranks has no file",
                                          files[r], r, files.size()));
        }
    }
    return files;
}

chakra_import import_chakra(const std::vector<chakra_file>& files,
                            const chakra_import_options& opts) {
    if (files.empty() || files.size() > max_ranks) {
        throw trace_error(
            fmt::format("chakra: {} rank files (1..{} accepted)", files.size(), max_ranks));
    }
    // libprotobuf logs parse problems (invalid UTF-8 in a string field, ...) to stderr; the
    // failed parse is reported as one line of ours instead.
    static const bool quiet = [] {
        google::protobuf::SetLogHandler(nullptr);
        return true;
    }();
    (void)quiet;
    chakra_import res;
    trace& t = res.t;
    t.nranks = static_cast<uint32_t>(files.size());
    std::vector<std::vector<node_in>> ranks(files.size());
    std::vector<rank_reader> readers;
    for (uint32_t r = 0; r < t.nranks; ++r) {
        readers.emplace_back(files[r], r, t.nranks, opts, res);
        ranks[r] = readers[r].read();
        resolve_deps(ranks[r], files[r].path);
    }

    // Communicators: 0 = every rank (collectives without pg_name, all point-to-point); one per
    // pg_name, its members the ranks with collectives of that name, in rank order.
    communicator world;
    for (uint32_t r = 0; r < t.nranks; ++r) world.ranks.push_back(r);
    t.comms.push_back(world);
    std::map<std::string, std::size_t> pg_comm;
    for (uint32_t r = 0; r < t.nranks; ++r) {
        for (const node_in& n : ranks[r]) {
            if (!n.mapped || n.rec.compute || is_point_to_point(n.rec.op) || n.pg.empty()) continue;
            auto [it, fresh] = pg_comm.try_emplace(n.pg, t.comms.size());
            if (fresh) {
                communicator c;
                c.id = static_cast<uint32_t>(t.comms.size());
                t.comms.push_back(c);
                res.comments.push_back(fmt::format("comm {} = pg_name '{}'", c.id, n.pg));
            }
            auto& members = t.comms[it->second].ranks;
            if (members.empty() || members.back() != r) members.push_back(r);
        }
    }
    // seq: a collective's index among its rank's collectives on the communicator, in file order.
    // Point-to-point: paired by (src, dst, tag) after them (pair_point_to_point).
    std::vector<std::map<uint32_t, uint64_t>> next_seq(t.nranks);
    uint64_t world_colls = 0;
    for (uint32_t r = 0; r < t.nranks; ++r) {
        for (node_in& n : ranks[r]) {
            if (!n.mapped || n.rec.compute || is_point_to_point(n.rec.op)) continue;
            const uint32_t comm = n.pg.empty() ? 0 : static_cast<uint32_t>(pg_comm.at(n.pg));
            n.rec.comm = comm;
            n.rec.seq = next_seq[r][comm]++;
            if (comm == 0) world_colls = std::max(world_colls, next_seq[r][comm]);
            readers[r].finish_count(n, static_cast<uint32_t>(t.comms[comm].ranks.size()));
            if (has_root(n.rec.op) && n.rec.root >= t.comms[comm].ranks.size()) {
                throw trace_error(
                    fmt::format("{}: node {}: comm_root: {} out of range for {} ranks",
                                files[r].path, n.id, n.rec.root, t.comms[comm].ranks.size()));
            }
        }
    }
    // Validate with the loader; its messages name the rank file and node of the record.
    std::vector<std::string> where{fmt::format("{}: metadata", files[0].path)};
    std::vector<uint64_t> tags;
    for (uint32_t r = 0; r < t.nranks; ++r) {
        for (node_in& n : ranks[r]) {
            if (!n.mapped) continue;
            n.rec.line = static_cast<uint32_t>(where.size() + 1);
            where.push_back(fmt::format("{}: node {}", files[r].path, n.id));
            t.records.push_back(n.rec);
            tags.push_back(n.tag);
        }
    }
    pair_point_to_point(t.records, tags, world_colls);
    const std::vector<std::string> json = to_json_records(t);
    std::vector<numbered_record> numbered;
    for (std::size_t i = 0; i < 1 + t.comms.size(); ++i) numbered.push_back({1, json[i]});
    for (std::size_t i = 0; i < t.records.size(); ++i) {
        numbered.push_back({t.records[i].line, json[1 + t.comms.size() + i]});
    }
    static const std::string tag = "chakra-import";
    try {
        res.t = parse_records(numbered, tag);
    } catch (const trace_error& e) {
        const std::string m = e.what();
        const std::size_t colon = m.find(':', tag.size() + 1);
        if (m.compare(0, tag.size() + 1, tag + ":") != 0 || colon == std::string::npos) throw;
        const std::size_t line = std::stoul(m.substr(tag.size() + 1, colon - tag.size() - 1));
        const std::string at = line >= 1 && line <= where.size() ? where[line - 1] : where[0];
        std::string rest = m.substr(colon + 1);
        // The loader names other records by "line N": name their node instead.
        for (std::size_t p = rest.find("line "); p != std::string::npos;
             p = rest.find("line ", p + 1)) {
            std::size_t q = p + 5;
            while (q < rest.size() && rest[q] >= '0' && rest[q] <= '9') ++q;
            if (q == p + 5) continue;
            const std::size_t other = std::stoul(rest.substr(p + 5, q - p - 5));
            if (other < 2 || other > where.size()) continue;
            rest.replace(p, q - p, where[other - 1]);
        }
        throw trace_error(at + ":" + rest);
    }
    return res;
}

chakra_import import_chakra(const std::string& prefix, const chakra_import_options& opts) {
    std::vector<chakra_file> files;
    for (const std::string& path : chakra_rank_files(prefix, opts.ranks)) {
        std::ifstream in(path, std::ios::binary);
        if (!in) throw trace_error(fmt::format("{}: cannot open the file", path));
        files.push_back({path, std::string((std::istreambuf_iterator<char>(in)),
                                           std::istreambuf_iterator<char>())});
    }
    return import_chakra(files, opts);
}

}  // namespace ndr::trace
