// Reference executor and static checks (models/collective/schedule_exec.h): validation,
// legal execution orders, and — the point of the executor — that a dropped dependency is
// caught, both by find_races (exact) and by executing in adversarial orders (the wrong bytes
// reach the final buffers and the comparison with the expected collective fails).
#include <catch2/catch.hpp>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "coll_test_util.h"
#include "collective/schedule.h"
#include "collective/schedule_exec.h"

namespace c = ndr::coll;
namespace t = ndr::coll::test;
using c::algo_kind;
using c::op_kind;

namespace {

c::coll_params params(op_kind op, algo_kind algo, uint32_t n, uint64_t elems, uint64_t chunk_el) {
    c::coll_params p;
    p.op = op;
    p.algo = algo;
    p.nranks = n;
    p.dtype_bytes = 8;
    p.bytes = elems * 8;
    p.chunk_bytes = chunk_el * 8;
    return p;
}

}  // namespace

TEST_CASE("collective validate_schedule rejects malformed schedules", "[collective]") {
    const auto good = c::build_schedule(params(op_kind::allreduce, algo_kind::ring, 4, 16, 2));
    REQUIRE_NOTHROW(c::validate_schedule(good));
    auto bad = good;
    bad.xfers[0].deps = {0};
    CHECK_THROWS_WITH(c::validate_schedule(bad), Catch::Contains("not an earlier transfer"));
    bad = good;
    bad.xfers[3].dst = 4;
    CHECK_THROWS_WITH(c::validate_schedule(bad), Catch::Contains("out of range"));
    bad = good;
    bad.xfers[3].dst = bad.xfers[3].src;
    bad.xfers[3].dst_offset = bad.xfers[3].src_offset + bad.xfers[3].bytes - 1;
    CHECK_THROWS_WITH(c::validate_schedule(bad), Catch::Contains("overlapping"));
    bad.xfers[3].dst_offset = bad.xfers[3].src_offset + bad.xfers[3].bytes;  // a legal local step
    CHECK_NOTHROW(c::validate_schedule(bad));
    bad = good;
    bad.xfers[5].src_offset = good.buffer_bytes - 4;
    CHECK_THROWS_WITH(c::validate_schedule(bad), Catch::Contains("exceed"));
    bad = good;
    bad.algo = algo_kind::auto_;
    CHECK_THROWS_WITH(c::validate_schedule(bad), Catch::Contains("auto"));
    bad = c::build_schedule(params(op_kind::alltoall, algo_kind::pairwise, 4, 16, 0));
    bad.local_copies[0].dst_offset = bad.buffer_bytes;
    CHECK_THROWS_WITH(c::validate_schedule(bad), Catch::Contains("local copy"));
}

TEST_CASE("collective execution orders are topological permutations", "[collective]") {
    const auto s = c::build_schedule(params(op_kind::allreduce, algo_kind::tree, 7, 50, 3));
    for (auto ord : {c::exec_order::listed, c::exec_order::random, c::exec_order::latest_first}) {
        for (uint64_t seed = 1; seed <= 4; ++seed) {
            const auto order = c::execution_order(s, {ord, seed});
            REQUIRE(order.size() == s.xfers.size());
            std::vector<int64_t> pos(s.xfers.size(), -1);
            for (size_t k = 0; k < order.size(); ++k) {
                REQUIRE(pos[order[k]] == -1);
                pos[order[k]] = static_cast<int64_t>(k);
            }
            for (size_t i = 0; i < s.xfers.size(); ++i) {
                for (uint32_t d : s.xfers[i].deps) CHECK(pos[d] < pos[i]);
            }
        }
    }
    // Random orders really differ from the listed one and from each other.
    CHECK(c::execution_order(s, {c::exec_order::random, 1}) !=
          c::execution_order(s, {c::exec_order::random, 2}));
    CHECK(c::execution_order(s, {c::exec_order::latest_first, 0}) !=
          c::execution_order(s, {c::exec_order::listed, 0}));
}

TEST_CASE("collective execute checks its inputs and applies local copies", "[collective]") {
    const auto s = c::build_schedule(params(op_kind::alltoall, algo_kind::pairwise, 1, 4, 0));
    REQUIRE(s.local_copies.size() == 1);
    REQUIRE(s.buffer_bytes == 64);  // 32 B send + 32 B receive
    std::vector<uint8_t> in(64);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i);
    const auto out = c::execute(s, {in}, c::wrapping_sum(8));
    CHECK(std::memcmp(out[0].data() + 32, in.data(), 32) == 0);
    CHECK_THROWS_AS(c::execute(s, {in, in}, c::wrapping_sum(8)), std::invalid_argument);
    CHECK_THROWS_AS(c::execute(s, {std::vector<uint8_t>(65)}, c::wrapping_sum(8)),
                    std::invalid_argument);
    CHECK_THROWS_AS(c::wrapping_sum(3), std::invalid_argument);
    std::vector<uint8_t> a = {0xff, 0x01};
    const std::vector<uint8_t> b = {0x02, 0x00};
    c::wrapping_sum(1)(a.data(), b.data(), 2);
    CHECK(a == std::vector<uint8_t>{0x01, 0x01});
}

// Mutation test: drop every dependency of one transfer at a time (each schedule below, every
// transfer that has deps) and require that the mistake is caught. find_races must name an
// unordered pair; executing latest-first or in one of 8 random orders must produce a wrong
// final buffer (latest-first runs the now dependency-free transfer before its old producer).
TEST_CASE("collective dropped dependencies are caught by find_races and by execution",
          "[collective]") {
    const std::vector<c::coll_params> cases = {
        params(op_kind::allreduce, algo_kind::ring, 4, 13, 2),
        params(op_kind::allreduce, algo_kind::tree, 6, 13, 2),
        params(op_kind::allreduce, algo_kind::rhd, 6, 13, 2),
        params(op_kind::reduce_scatter, algo_kind::rhd, 5, 13, 0),
        params(op_kind::allgather, algo_kind::ring, 5, 13, 2),
        params(op_kind::broadcast, algo_kind::tree, 7, 9, 2),
        params(op_kind::reduce, algo_kind::ring, 4, 9, 2),
        params(op_kind::reduce, algo_kind::tree, 7, 9, 4),
    };
    for (const auto& p : cases) {
        const auto good = c::build_schedule(p);
        REQUIRE(c::find_races(good).empty());
        const t::buffers in = t::random_inputs(p.nranks, good.buffer_bytes, 7);
        size_t mutants = 0;
        for (size_t i = 0; i < good.xfers.size(); ++i) {
            if (good.xfers[i].deps.empty()) continue;
            ++mutants;
            auto bad = good;
            bad.xfers[i].deps.clear();
            INFO(c::name(p.op) << "/" << c::name(p.algo) << " n " << p.nranks << ": xfer " << i
                               << " without deps");
            CHECK_FALSE(c::find_races(bad).empty());
            bool caught = !t::check_result(bad, in,
                                           c::execute(bad, in, c::wrapping_sum(8),
                                                      {c::exec_order::latest_first, 0}))
                               .empty();
            for (uint64_t seed = 1; seed <= 8 && !caught; ++seed) {
                caught = !t::check_result(bad, in,
                                          c::execute(bad, in, c::wrapping_sum(8),
                                                     {c::exec_order::random, seed}))
                              .empty();
            }
            CHECK(caught);
        }
        CHECK(mutants > 0);
    }
}

TEST_CASE("collective find_races reports unordered writes to the same bytes", "[collective]") {
    c::schedule s;
    s.params.nranks = 3;
    s.algo = algo_kind::direct;
    s.buffer_bytes = 16;
    c::xfer a;
    a.src = 0;
    a.dst = 2;
    a.bytes = 8;
    c::xfer b = a;
    b.src = 1;
    s.xfers = {a, b};  // two copies into rank 2's [0,8): order decides the result
    CHECK(c::find_races(s).size() == 1);
    s.xfers[0].reduce = s.xfers[1].reduce = true;  // two reductions commute: allowed
    CHECK(c::find_races(s).empty());
    s.xfers[1].reduce = false;
    s.xfers[1].deps = {0};  // ordered
    CHECK(c::find_races(s).empty());
}
