// GOAL schedules: the hand-written tests/data/goal/small.goal against the trace derived by hand
// (comments in the file), a schedule written by LogGOPSim's own Schedgen2 generator, and the
// one-line errors of malformed schedules.
#include <catch2/catch.hpp>

#include <sstream>

#include "trace/goal_import.h"

namespace {

using Catch::Matchers::Equals;
using ndr::coll::op_kind;
namespace tr = ndr::trace;

const std::string data = std::string(NDR_TEST_DATA_DIR) + "/goal/";

std::string goal_error(const std::string& text) {
    std::istringstream in(text);
    try {
        tr::import_goal(in, "g.goal");
    } catch (const tr::trace_error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("goal import: the hand-written schedule gives the hand-derived trace", "[goal]") {
    const tr::goal_import imp = tr::import_goal(data + "small.goal");
    const tr::trace& t = imp.t;
    REQUIRE(t.nranks == 3);
    CHECK(imp.sends == 3);
    CHECK(imp.recvs == 3);
    CHECK(imp.calcs == 4);
    CHECK(imp.requires_ == 5);
    CHECK(imp.irequires == 2);
    CHECK(imp.cpu_nic == 1);
    REQUIRE(t.records.size() == 10);
    struct want {
        uint32_t rank, id;
        bool compute;
        op_kind op;
        uint64_t n;  // duration_ns or bytes
        uint32_t peer;
        std::vector<uint32_t> deps;  // empty: issue_ns 0
    };
    // rank 0: l1 calc 100 | l2 send 64 B to 1 after l1 | l3 recv 32 B from 2 | l4 calc 50 after
    // l3 and l2. rank 1: l1 recv 64 B | l2 send 16 B to 2, irequires l1 (l1 starts at 0, so l2
    // does too) | l3 calc 10 after l1. rank 2: l1 recv 16 B | l2 send 32 B to 0 after l1 |
    // l3 calc 20, irequires l2: it may start when l2 may, after l1.
    const std::vector<want> w = {
        {0, 0, true, op_kind::allreduce, 100, 0, {}},
        {0, 1, false, op_kind::send, 64, 1, {0}},
        {0, 2, false, op_kind::recv, 32, 2, {}},
        {0, 3, true, op_kind::allreduce, 50, 0, {2, 1}},
        {1, 0, false, op_kind::recv, 64, 0, {}},
        {1, 1, false, op_kind::send, 16, 2, {}},
        {1, 2, true, op_kind::allreduce, 10, 0, {0}},
        {2, 0, false, op_kind::recv, 16, 1, {}},
        {2, 1, false, op_kind::send, 32, 0, {0}},
        {2, 2, true, op_kind::allreduce, 20, 0, {0}},
    };
    for (std::size_t i = 0; i < w.size(); ++i) {
        INFO("record " << i);
        const tr::op_record& r = t.records[i];
        CHECK(r.rank == w[i].rank);
        CHECK(r.id == w[i].id);
        CHECK(r.compute == w[i].compute);
        if (w[i].compute) {
            CHECK(r.duration_ns == w[i].n);
        } else {
            CHECK(r.op == w[i].op);
            CHECK(r.count == w[i].n);
            CHECK(r.dt == ndr::coll::dtype::uint8);
            CHECK(r.root == w[i].peer);
        }
        CHECK(r.deps == w[i].deps);
        CHECK(r.issue_ns.has_value() == w[i].deps.empty());
    }
    // three pairs, in order of their first record in the trace (rank 0's send, rank 0's recv,
    // rank 1's send): 0->1 tag 5 (64 B), 2->0 tag 9 (32 B), 1->2 tag 0 (16 B)
    REQUIRE(t.collectives.size() == 3);
    CHECK(t.collectives[0].bytes == 64);
    CHECK(t.collectives[1].bytes == 32);
    CHECK(t.collectives[2].bytes == 16);
}

TEST_CASE("goal import: Schedgen2's ring allreduce of 64 B on 4 ranks", "[goal]") {
    // LogGOPSim's Schedgen2 (`schedgen.py allreduce --comm_size 4 --datasize 64 --ptrn ring`):
    // a ring allreduce has 2 (n - 1) = 6 steps, each rank sending S / n = 16 B per step.
    const tr::goal_import imp = tr::import_goal(data + "schedgen2_allreduce_ring4.goal");
    CHECK(imp.t.nranks == 4);
    CHECK(imp.sends == 24);
    CHECK(imp.recvs == 24);
    REQUIRE(imp.t.collectives.size() == 24);
    for (const tr::collective_instance& c : imp.t.collectives) {
        CHECK(c.bytes == 16);
        CHECK(c.ranks[1] == (c.ranks[0] + 1) % 4);  // every message goes to the next rank
    }
}

TEST_CASE("goal import: malformed schedules give one line naming file, line and field", "[goal]") {
    CHECK_THAT(goal_error("rank 0 {\n}\n"), Equals("g.goal:1: rank: before num_ranks"));
    CHECK_THAT(goal_error("num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\n}\n"),
               Equals("g.goal:3: peer: send to comm rank 1 (global rank 1) at (comm 0, seq 0) "
                      "has no matching recv"));
    CHECK_THAT(goal_error("num_ranks 2\nrank 0 {\nl1: recv 8b from -1\n}\n"),
               Equals("g.goal:3: from: any-source receives (-1) are not supported: ndrsim pairs "
                      "messages by peer and tag"));
    CHECK_THAT(goal_error("num_ranks 2\nrank 0 {\nl1: calc 5\nl2 requires l1\n}\n"),
               Equals("g.goal:4: requires: label 'l2' is not defined on rank 0"));
    CHECK_THAT(goal_error("num_ranks 2\nrank 3 {\n}\n"),
               Equals("g.goal:2: rank: 3 above the largest accepted, 1"));
    CHECK_THAT(goal_error("num_ranks 2\nrank 0 {\nl1: send 8 to 1\n}\n"),
               Equals("g.goal:3: size: '8' is not a size in bytes (e.g. 8b)"));
    CHECK_THAT(goal_error("num_ranks 2\nrank 0 {\nl1: calc 5\n"),
               Equals("g.goal:2: rank: rank 0 { is not closed by }"));
}
