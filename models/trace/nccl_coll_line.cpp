#include "trace/nccl_coll_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "trace/trace_writer.h"

namespace ndr::trace::nccl_detail {

namespace {

std::vector<std::string> split(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        const std::size_t b = i;
        while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        if (i > b) out.emplace_back(s.substr(b, i - b));
    }
    return out;
}

std::optional<coll::op_kind> nccl_op(std::string name) {
    name.pop_back();  // the ':'
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    if (name == "allreduce") return coll::op_kind::allreduce;
    if (name == "reducescatter") return coll::op_kind::reduce_scatter;
    if (name == "allgather") return coll::op_kind::allgather;
    if (name == "alltoall") return coll::op_kind::alltoall;
    if (name == "broadcast" || name == "bcast") return coll::op_kind::broadcast;
    if (name == "reduce") return coll::op_kind::reduce;
    if (name == "send") return coll::op_kind::send;
    if (name == "recv") return coll::op_kind::recv;
    return std::nullopt;
}

}  // namespace

[[noreturn]] void fail(const std::string& path, uint32_t line, std::string_view field,
                       const std::string& reason) {
    throw trace_error(fmt::format("{}:{}: {}: {}", path, line, field, reason));
}

/// Digits only (hex: an optional 0x), overflow-checked; nullopt otherwise.
std::optional<uint64_t> to_u64(const std::string& s, int base) {
    std::string_view digits = s;
    if (base == 16 && digits.size() > 2 && digits[0] == '0' &&
        (digits[1] == 'x' || digits[1] == 'X')) {
        digits.remove_prefix(2);
    }
    if (digits.empty()) return std::nullopt;
    uint64_t v = 0;
    for (char ch : digits) {
        const auto c = static_cast<unsigned char>(ch);
        uint64_t d = 0;
        if (std::isdigit(c)) {
            d = static_cast<uint64_t>(c - '0');
        } else if (base == 16 && std::isxdigit(c)) {
            d = static_cast<uint64_t>(std::tolower(c) - 'a' + 10);
        } else {
            return std::nullopt;
        }
        const auto b = static_cast<uint64_t>(base);
        if (v > (std::numeric_limits<uint64_t>::max() - d) / b) return std::nullopt;
        v = v * b + d;
    }
    return v;
}

std::optional<nccl_line> split_info(const std::string& raw) {
    const std::string marker = " NCCL INFO ";
    std::size_t p = raw.find(marker);
    std::size_t skip = marker.size();
    if (p == std::string::npos) {
        if (raw.rfind("NCCL INFO ", 0) != 0) return std::nullopt;
        p = 0;
        skip = marker.size() - 1;
    }
    nccl_line l;
    l.words = split(std::string_view(raw).substr(p + skip));
    const std::vector<std::string> pre = split(std::string_view(raw).substr(0, p));
    for (const std::string& w : pre) {
        if (w.size() >= 3 && w.front() == '[' && w.back() == ']') {
            if (auto d = to_u64(w.substr(1, w.size() - 2), 10); d && *d < 1'000'000) {
                l.dev = static_cast<uint32_t>(*d);
            }
        } else if (std::count(w.begin(), w.end(), ':') >= 2) {
            l.process = w.substr(0, w.rfind(':'));  // host:pid:tid -> host:pid
        }
    }
    return l;
}

/// Value following `key` in words, if any.
std::optional<std::string> after(const std::vector<std::string>& w, std::string_view key) {
    for (std::size_t i = 0; i + 1 < w.size(); ++i) {
        if (w[i] == key) return w[i + 1];
    }
    return std::nullopt;
}

std::string host_of(const std::string& process) {
    return process.substr(0, process.find(':'));
}

bool looks_like_nccl(const std::string& raw) {
    for (const char* lvl :
         {" NCCL INFO", " NCCL WARN", " NCCL TRACE", " NCCL ABORT", " NCCL VERSION"}) {
        if (raw.find(lvl) != std::string::npos) return true;
    }
    return raw.rfind("NCCL ", 0) == 0;
}

bool is_coll(const nccl_line& l) {
    return l.words.size() >= 2 && l.words[0].size() > 1 && l.words[0].back() == ':' &&
           l.words[1] == "opCount";
}

bool is_init(const nccl_line& l) {
    const auto c = after(l.words, "comm");
    return c && c->rfind("0x", 0) == 0 && after(l.words, "rank") &&
           (after(l.words, "nRanks") || after(l.words, "nranks"));
}

/// The names of the COLL fields a line lacks (a torn line), empty if it has them all.
std::vector<std::string> missing_coll_fields(const nccl_line& l) {
    std::vector<std::string> m;
    for (const char* key : {"opCount", "count", "datatype", "comm"}) {
        if (!after(l.words, key)) m.emplace_back(key);
    }
    const bool has_nranks = std::any_of(l.words.begin(), l.words.end(), [](const std::string& w) {
        return w.rfind("[nranks=", 0) == 0 && w.back() == ']';
    });
    if (!has_nranks) m.emplace_back("[nranks=N]");
    return m;
}

coll_fields parse_coll(const nccl_line& l, const std::string& path, uint32_t no) {
    const auto& w = l.words;
    const auto op = nccl_op(w[0]);
    if (!op) {
        fail(path, no, "op",
             fmt::format("unsupported NCCL operation '{}' (supported: AllReduce, "
                         "ReduceScatter, AllGather, AlltoAll, Broadcast, Reduce, Send, Recv)",
                         w[0].substr(0, w[0].size() - 1)));
    }
    const auto need = [&](const char* key) {
        auto v = after(w, key);
        if (!v) fail(path, no, key, "missing in the COLL line");
        return *v;
    };
    const auto number = [&](const char* key, int base) {
        const std::string v = need(key);
        auto n = to_u64(v, base);
        if (!n) {
            fail(path, no, key,
                 fmt::format("expected a {} number 0..{}, got '{}'", base == 16 ? "hex" : "decimal",
                             base == 16 ? "0xffffffffffffffff" : "18446744073709551615", v));
        }
        return *n;
    };
    coll_fields f;
    f.op = *op;
    f.ptr = need("comm");
    for (const std::string& word : w) {
        if (word.rfind("[nranks=", 0) == 0 && word.back() == ']') {
            f.nranks_text = word.substr(8, word.size() - 9);
            const auto n = to_u64(f.nranks_text, 10);
            f.nranks = n && *n >= 1 && *n <= max_ranks ? *n : 0;
        }
    }
    f.seq = number("opCount", 16);
    f.count = number("count", 10);
    const uint64_t dt = number("datatype", 10);
    const auto d = coll::dtype_from_nccl(static_cast<int>(std::min<uint64_t>(dt, 1000)));
    if (!d)
        fail(path, no, "datatype",
             fmt::format("unknown NCCL datatype {} (0..11, docs/domain.md §12.1)", dt));
    f.dt = *d;
    if (has_redop(*op)) {
        const uint64_t o = number("op", 10);
        const auto rop = coll::redop_from_nccl(static_cast<int>(std::min<uint64_t>(o, 1000)));
        if (!rop) {
            fail(path, no, "op",
                 fmt::format("unsupported NCCL reduction {} (0 sum, 1 prod, 2 max, 3 min, "
                             "4 avg; user-defined ops are not modelled)",
                             o));
        }
        f.rop = *rop;
    }
    if (has_root(*op) || is_point_to_point(*op)) f.root = number("root", 10);
    return f;
}

/// The op record of COLL line `no` on `rank` of communicator `comm` of `nranks` ranks.
op_record to_record(const coll_fields& f, uint32_t rank, uint32_t comm, uint32_t nranks,
                    const std::string& path, uint32_t no) {
    op_record r;
    r.line = no;
    r.rank = rank;
    r.comm = comm;
    r.op = f.op;
    r.seq = f.seq;
    r.dt = f.dt;
    // NCCL's alltoall count is per peer; a trace's is the total, count * nranks: checked
    // before multiplying (2^62 x 4 must not wrap to 0).
    const uint64_t per = f.op == coll::op_kind::alltoall ? nranks : 1;
    if (f.count > max_count / per) {
        fail(path, no, "count",
             per > 1 ? fmt::format("alltoall count {} per peer x {} ranks exceeds the largest "
                                   "trace count, 2^48 = {} elements",
                                   f.count, per, max_count)
                     : fmt::format("{} exceeds the largest trace count, 2^48 = {} elements",
                                   f.count, max_count));
    }
    r.count = f.count * per;
    if (has_redop(f.op)) r.rop = f.rop;
    if (has_root(f.op) || is_point_to_point(f.op)) {
        if (f.root >= nranks) {
            fail(path, no, "root",
                 fmt::format("{} {} out of range for a communicator of {} ranks",
                             is_point_to_point(f.op) ? "peer" : "root", f.root, nranks));
        }
        r.root = static_cast<uint32_t>(f.root);
    }
    return r;
}

/// Gives every record its default id (its index on the rank) and validates `t` as a trace whose
/// records carry the log's line numbers, so that every message names the log and its line
/// (`header_line` for the header, comm_lines[i] for communicator i).
trace finish_trace(trace& t, uint32_t header_line, const std::vector<uint32_t>& comm_lines,
                   const std::string& path) {
    std::vector<uint32_t> index(t.nranks, 0);
    for (op_record& r : t.records) r.id = index[r.rank]++;
    const std::vector<std::string> json = to_json_records(t);
    std::vector<numbered_record> numbered;
    numbered.reserve(json.size());
    numbered.push_back({header_line, json[0]});
    for (std::size_t ci = 0; ci < comm_lines.size(); ++ci) {
        numbered.push_back({comm_lines[ci], json[1 + ci]});
    }
    for (std::size_t i = 0; i < t.records.size(); ++i) {
        numbered.push_back({t.records[i].line, json[1 + comm_lines.size() + i]});
    }
    return parse_records(numbered, path);
}

}  // namespace ndr::trace::nccl_detail
