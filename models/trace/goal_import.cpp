// GOAL schedules to a trace (goal_import.h; docs/trace_format.md, "GOAL schedules").
#include "trace/goal_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "trace/line_reader.h"
#include "trace/p2p_match.h"
#include "trace/trace_writer.h"

namespace ndr::trace {

namespace {

struct goal_op {
    op_record rec;
    uint64_t tag = 0;
    std::vector<std::size_t> req;   ///< `requires`: indices (in the rank's ops) to finish first
    std::vector<std::size_t> ireq;  ///< `irequires`: indices that must have started
};

class goal_parser {
public:
    goal_parser(std::istream& in, const std::string& path) : in_(in), path_(path) {}

    goal_import parse() {
        std::string raw;
        uint32_t no = 0;
        bool in_comment = false;
        while (detail::read_line(in_, raw, path_, no + 1, "line")) {
            ++no;
            line_ = no;
            const std::string text = strip_comments(raw, in_comment);
            std::istringstream words(text);
            std::vector<std::string> w;
            for (std::string x; words >> x;) w.push_back(x);
            if (!w.empty()) statement(w);
        }
        if (in_comment) fail("comment", "a /* comment is not closed at the end of the file");
        if (!nranks_) {
            line_ = 1;
            fail("num_ranks", "missing (the schedule must start with `num_ranks N`)");
        }
        if (open_) {
            line_ = open_line_;
            fail("rank", fmt::format("rank {} {{ is not closed by }}", rank_));
        }
        return finish();
    }

private:
    [[noreturn]] void fail(std::string_view field, const std::string& why) const {
        throw trace_error(fmt::format("{}:{}: {}: {}", path_, line_, field, why));
    }

    /// The line without `//` and `/* ... */` comments (which may span lines).
    static std::string strip_comments(const std::string& s, bool& in_comment) {
        std::string out;
        for (std::size_t i = 0; i < s.size(); ++i) {
            if (in_comment) {
                if (s.compare(i, 2, "*/") == 0) {
                    in_comment = false;
                    ++i;
                }
                continue;
            }
            if (s.compare(i, 2, "//") == 0) break;
            if (s.compare(i, 2, "/*") == 0) {
                in_comment = true;
                ++i;
                continue;
            }
            out.push_back(s[i] == '\r' ? ' ' : s[i]);
        }
        return out;
    }

    uint64_t number(const std::string& s, std::string_view field, uint64_t max) const {
        if (s.empty() || s.size() > 19 ||
            !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
            fail(field, fmt::format("'{}' is not a non-negative integer", s));
        }
        const uint64_t v = std::stoull(s);
        if (v > max) fail(field, fmt::format("{} above the largest accepted, {}", v, max));
        return v;
    }

    static bool is_label(const std::string& s) {
        return !s.empty() && std::isalpha(static_cast<unsigned char>(s[0])) != 0 &&
               std::all_of(s.begin(), s.end(), [](char c) {
                   return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
               });
    }

    void statement(std::vector<std::string> w) {
        if (w[0] == "num_ranks") {
            if (nranks_) fail("num_ranks", "given twice");
            if (w.size() != 2) fail("num_ranks", "expected `num_ranks N`");
            nranks_ = static_cast<uint32_t>(number(w[1], "num_ranks", max_ranks));
            if (*nranks_ == 0) fail("num_ranks", "must be at least 1");
            header_line_ = line_;
            ops_.resize(*nranks_);
            seen_.resize(*nranks_, false);
            return;
        }
        if (w[0] == "rank") {
            if (!nranks_) fail("rank", "before num_ranks");
            if (open_) fail("rank", fmt::format("rank {} is still open (missing }})", rank_));
            if (w.size() == 2 && w[1].size() > 1 && w[1].back() == '{') {
                w.push_back("{");
                w[1].pop_back();
            }
            if (w.size() != 3 || w[2] != "{") fail("rank", "expected `rank N {`");
            rank_ = static_cast<uint32_t>(number(w[1], "rank", *nranks_ - 1));
            if (seen_[rank_]) fail("rank", fmt::format("rank {} given twice", rank_));
            seen_[rank_] = true;
            open_ = true;
            open_line_ = line_;
            labels_.clear();
            pending_.clear();
            return;
        }
        if (w[0] == "}") {
            if (w.size() != 1) fail("}", "expected `}` alone on its line");
            if (!open_) fail("}", "no rank block is open");
            close_rank();
            return;
        }
        if (!open_) fail("statement", fmt::format("'{}' outside a rank block", w[0]));
        if (w.size() == 3 && (w[1] == "requires" || w[1] == "irequires")) {
            if (!is_label(w[0]) || !is_label(w[2])) fail(w[1], "expected `LABEL requires LABEL`");
            pending_.push_back({line_, w[0], w[2], w[1] == "irequires"});
            return;
        }
        std::optional<std::string> label;
        if (w[0].back() == ':' || (w.size() > 1 && w[1] == ":")) {
            std::string l = w[0].back() == ':' ? w[0].substr(0, w[0].size() - 1) : w[0];
            w.erase(w.begin(), w.begin() + (w[0].back() == ':' ? 1 : 2));
            if (!is_label(l)) fail("label", fmt::format("'{}' is not a label", l));
            label = l;
        } else if (const auto c = w[0].find(':'); c != std::string::npos) {
            // `l1:send` without a blank
            label = w[0].substr(0, c);
            w[0] = w[0].substr(c + 1);
            if (!is_label(*label)) fail("label", fmt::format("'{}' is not a label", *label));
        }
        if (w.empty()) fail("operation", "a label without an operation");
        operation(w);
        if (label) {
            if (!labels_.emplace(*label, ops_[rank_].size() - 1).second) {
                fail("label", fmt::format("'{}' defined twice on rank {}", *label, rank_));
            }
        }
    }

    void operation(const std::vector<std::string>& w) {
        goal_op op;
        op_record& r = op.rec;
        r.rank = rank_;
        r.line = line_;
        r.id = static_cast<uint32_t>(ops_[rank_].size());
        std::size_t i = 2;
        if (w[0] == "calc") {
            if (w.size() < 2) fail("calc", "expected `calc TIME`");
            r.compute = true;
            r.duration_ns = number(w[1], "calc", max_time_ns);
            ++res_.calcs;
        } else if (w[0] == "send" || w[0] == "recv") {
            const bool send = w[0] == "send";
            r.op = send ? coll::op_kind::send : coll::op_kind::recv;
            r.dt = coll::dtype::uint8;
            if (w.size() < 4)
                fail(w[0], fmt::format("expected `{} SIZEb {} RANK`", w[0], send ? "to" : "from"));
            std::string size = w[1];
            if (size.size() < 2 || size.back() != 'b')
                fail("size", fmt::format("'{}' is not a size in bytes (e.g. 8b)", size));
            size.pop_back();
            r.count = number(size, "size", max_count);
            if (w[2] != (send ? "to" : "from"))
                fail(w[0], fmt::format("expected '{}' after the size, got '{}'",
                                       send ? "to" : "from", w[2]));
            if (w[3] == "-1")
                fail("from",
                     "any-source receives (-1) are not supported: ndrsim pairs messages by peer "
                     "and tag");
            r.root = static_cast<uint32_t>(number(w[3], send ? "to" : "from", *nranks_ - 1));
            if (r.root == rank_) fail(send ? "to" : "from", "the rank's own number");
            i = 4;
            if (i < w.size() && w[i] == "tag") {
                if (i + 1 >= w.size()) fail("tag", "expected a number after tag");
                if (w[i + 1] == "-1")
                    fail("tag",
                         "any-tag receives (-1) are not supported: ndrsim pairs messages by peer "
                         "and tag");
                op.tag = number(w[i + 1], "tag", std::numeric_limits<uint32_t>::max());
                i += 2;
            }
            ++(send ? res_.sends : res_.recvs);
        } else {
            fail("operation", fmt::format("unknown operation '{}' (send, recv, calc)", w[0]));
        }
        bool qualified = false;
        while (i < w.size()) {
            if ((w[i] == "cpu" || (w[i] == "nic" && !r.compute)) && i + 1 < w.size()) {
                number(w[i + 1], w[i], 255);
                qualified = true;
                i += 2;
                continue;
            }
            fail(w[0], fmt::format("unexpected '{}'", w[i]));
        }
        if (qualified) ++res_.cpu_nic;
        ops_[rank_].push_back(std::move(op));
    }

    void close_rank() {
        for (const pending_dep& p : pending_) {
            line_ = p.line;
            const auto a = labels_.find(p.op);
            const auto b = labels_.find(p.on);
            const std::string_view field = p.start ? "irequires" : "requires";
            if (a == labels_.end())
                fail(field, fmt::format("label '{}' is not defined on rank {}", p.op, rank_));
            if (b == labels_.end())
                fail(field, fmt::format("label '{}' is not defined on rank {}", p.on, rank_));
            goal_op& op = ops_[rank_][a->second];
            (p.start ? op.ireq : op.req).push_back(b->second);
            ++(p.start ? res_.irequires : res_.requires_);
        }
        open_ = false;
    }

    /// Effective deps of every op of a rank: its `requires`, plus for each `irequires Y` the
    /// effective deps of Y (X may start once Y may: ndrsim issues a record when its deps end).
    void resolve(std::vector<goal_op>& ops) {
        std::vector<int> state(ops.size(), 0);
        const auto add = [](std::vector<uint32_t>& v, uint32_t id) {
            if (std::find(v.begin(), v.end(), id) == v.end()) v.push_back(id);
        };
        for (std::size_t root = 0; root < ops.size(); ++root) {
            if (state[root] == 2) continue;
            std::vector<std::pair<std::size_t, std::size_t>> stack{{root, 0}};
            state[root] = 1;
            while (!stack.empty()) {
                auto& [v, i] = stack.back();
                if (i < ops[v].ireq.size()) {
                    const std::size_t d = ops[v].ireq[i++];
                    if (state[d] == 2) continue;
                    if (state[d] == 1) {
                        line_ = ops[v].rec.line;
                        fail("irequires",
                             fmt::format("cycle of irequires through line {}", ops[d].rec.line));
                    }
                    state[d] = 1;
                    stack.emplace_back(d, 0);
                    continue;
                }
                for (std::size_t d : ops[v].req) add(ops[v].rec.deps, static_cast<uint32_t>(d));
                for (std::size_t d : ops[v].ireq) {
                    for (uint32_t x : ops[d].rec.deps) add(ops[v].rec.deps, x);
                }
                state[v] = 2;
                stack.pop_back();
            }
        }
        for (goal_op& op : ops) {
            if (op.rec.deps.empty()) op.rec.issue_ns = 0;  // GOAL: ready at the start
        }
    }

    goal_import finish() {
        trace& t = res_.t;
        t.nranks = *nranks_;
        communicator world;
        for (uint32_t r = 0; r < t.nranks; ++r) world.ranks.push_back(r);
        t.comms.push_back(world);
        std::vector<uint64_t> tags;
        for (auto& ops : ops_) {
            resolve(ops);
            for (goal_op& op : ops) {
                t.records.push_back(op.rec);
                tags.push_back(op.tag);
            }
        }
        pair_point_to_point(t.records, tags, 0);
        const std::vector<std::string> json = to_json_records(t);
        std::vector<numbered_record> numbered{{header_line_, json[0]}, {header_line_, json[1]}};
        for (std::size_t i = 0; i < t.records.size(); ++i) {
            numbered.push_back({t.records[i].line, json[2 + i]});
        }
        res_.t = parse_records(numbered, path_);
        return std::move(res_);
    }

    struct pending_dep {
        uint32_t line;
        std::string op, on;
        bool start;
    };

    std::istream& in_;
    const std::string& path_;
    goal_import res_;
    uint32_t line_ = 0;
    uint32_t header_line_ = 1;
    std::optional<uint32_t> nranks_;
    std::vector<std::vector<goal_op>> ops_;
    std::vector<bool> seen_;
    bool open_ = false;
    uint32_t open_line_ = 0;
    uint32_t rank_ = 0;
    std::map<std::string, std::size_t> labels_;
    std::vector<pending_dep> pending_;
};

}  // namespace

goal_import import_goal(std::istream& in, const std::string& path) {
    return goal_parser(in, path).parse();
}

goal_import import_goal(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw trace_error(fmt::format("{}: cannot open the file", path));
    return import_goal(in, path);
}

}  // namespace ndr::trace
