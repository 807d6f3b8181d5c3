// The algorithm table (coll::ALGORITHMS, models/collective/coll_types.h): every row round-trips
// name -> enum -> name, the checks derived from it agree with its rows, and the docs that list
// the algorithms list the same ones.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "collective/coll_types.h"
#include "collective/schedule.h"

namespace c = ndr::coll;

namespace {

std::string read_doc(const std::string& rel) {
    std::ifstream in(NDR_TEST_DATA_DIR "/../../" + rel);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

constexpr c::op_kind ALL_OP_KINDS[] = {
    c::op_kind::allreduce, c::op_kind::reduce_scatter, c::op_kind::allgather, c::op_kind::alltoall,
    c::op_kind::broadcast, c::op_kind::reduce,         c::op_kind::barrier,   c::op_kind::send,
    c::op_kind::recv,      c::op_kind::rdma_write,     c::op_kind::rdma_read};

}  // namespace

TEST_CASE("algorithm table rows round-trip name -> enum -> name", "[collective]") {
    std::set<std::string_view> names;
    size_t i = 0;
    for (const c::algo_info& a : c::ALGORITHMS) {
        CAPTURE(a.name);
        CHECK(static_cast<size_t>(a.kind) == i++);
        CHECK(names.insert(a.name).second);
        CHECK_FALSE(a.summary.empty());
        CHECK(a.ops != 0);
        const auto k = c::parse_algo(a.name);
        REQUIRE(k.has_value());
        CHECK(*k == a.kind);
        CHECK(c::name(*k) == a.name);
        CHECK(c::find_algo(a.kind) == &a);
    }
    CHECK(c::name(static_cast<c::algo_kind>(i)) == "?");
    CHECK(c::find_algo(static_cast<c::algo_kind>(i)) == nullptr);
    CHECK(c::algo_names() ==
          "auto, ring, tree, rhd, pairwise, direct, sharp, nvls, rd, pat, collnet_direct, "
          "collnet_chain, nvls_tree, p2p");
}

TEST_CASE("algo_supported follows the table: auto always, host rows by op, sharp never",
          "[collective]") {
    for (const c::algo_info& a : c::ALGORITHMS) {
        for (c::op_kind op : ALL_OP_KINDS) {
            CAPTURE(a.name, c::name(op));
            const bool runs = (a.ops & c::op_bit(op)) != 0;
            CHECK(c::algo_runs(a.kind, op) == runs);
            const bool expected =
                a.where == c::algo_class::automatic || (a.where == c::algo_class::host && runs);
            CHECK(c::algo_supported(op, a.kind) == expected);
        }
    }
    // Every op has a host algorithm, and auto resolves to one that builds it.
    for (c::op_kind op : ALL_OP_KINDS) {
        CAPTURE(c::name(op));
        const c::algo_kind chosen = c::choose_algo(op, 1 << 20, 8);
        CHECK(c::find_algo(chosen)->where == c::algo_class::host);
        CHECK(c::algo_supported(op, chosen));
    }
}

TEST_CASE("the docs list the table's algorithms", "[collective]") {
    SECTION("docs/trace_format.md and docs/cli.md spell out every name") {
        std::string spaced, piped;
        for (const c::algo_info& a : c::ALGORITHMS) {
            spaced += (spaced.empty() ? "" : " ") + std::string(a.name);
            piped += (piped.empty() ? "`" : " \\| `") + std::string(a.name) + "`";
        }
        CHECK(read_doc("docs/trace_format.md").find("`" + spaced + "`") != std::string::npos);
        CHECK(read_doc("docs/cli.md").find("| `--algo A` | " + piped + " |") != std::string::npos);
    }
    SECTION("docs/architecture.md: one table row per host algorithm and op set") {
        const std::string doc = read_doc("docs/architecture.md");
        const size_t from = doc.find("## Collective algorithms");
        REQUIRE(from != std::string::npos);
        const std::string part = doc.substr(from, doc.find("\n## ", from + 1) - from);
        for (const c::algo_info& a : c::ALGORITHMS) {
            if (a.where != c::algo_class::host) continue;
            CAPTURE(a.name);
            // Rows `| `name` | op, op | pattern |`; a name may have several rows.
            c::op_set documented = 0;
            const std::string head = "\n| `" + std::string(a.name) + "` | ";
            for (size_t at = part.find(head); at != std::string::npos;
                 at = part.find(head, at + 1)) {
                const size_t b = at + head.size();
                std::stringstream ops(part.substr(b, part.find(" |", b) - b));
                for (std::string op; std::getline(ops, op, ',');) {
                    op.erase(0, op.find_first_not_of(' '));
                    const auto k = c::parse_op(op);
                    CAPTURE(op);
                    REQUIRE(k.has_value());
                    documented |= c::op_bit(*k);
                }
            }
            CHECK(documented == a.ops);
        }
    }
}
