// coll::ring_stream (models/collective/ring_stream.h), which build_schedule's ring also uses: the
// ring schedule unfolded level by level must be the reference ring of the definition
// (ring_reference.h), transfer for transfer (fields, indices, deps), and build_schedule must
// return the same levels in order, for
// every op it unfolds, with channels, rail-spread orders, uneven blocks, empty blocks and
// chunking; locate() must find every transfer where level() put it; events_per_rank() must
// equal the count of sends plus receives per rank in the built schedule; check() refuses
// counts beyond 32-bit indices; and the dependency structure the replay relies on holds: every
// transfer of level k > 0 depends on one of level k-1 of its chain, level-0 ones on none.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "coll_test_util.h"
#include "collective/ring_stream.h"
#include "collective/schedule.h"
#include "ring_reference.h"

namespace c = ndr::coll;
using c::algo_kind;
using c::op_kind;

namespace {

c::coll_params ring(op_kind op, uint32_t n, uint64_t bytes, uint32_t e, uint64_t chunk,
                    uint32_t channels) {
    return ndr::coll::test::params(op, algo_kind::ring, n, bytes, e, chunk, channels);
}

/// n ranks in nodes of g (n % g == 0), node k holding ranks k, k + n/g, ... (not contiguous,
/// so orders are not the identity).
std::vector<std::vector<uint32_t>> strided_nodes(uint32_t n, uint32_t g) {
    std::vector<std::vector<uint32_t>> nodes(n / g);
    for (uint32_t r = 0; r < n; ++r) nodes[r % (n / g)].push_back(r);
    return nodes;
}

void check_same(const c::coll_params& p) {
    const c::schedule s = c::build_schedule(p);
    REQUIRE(c::ring_stream::applies(p));
    const c::ring_stream rs(p);
    REQUIRE(rs.total() == s.xfers.size());
    REQUIRE(rs.total() == c::transfer_count(p));
    const std::vector<c::xfer> ref = ndr::coll::test::reference_ring(p);
    REQUIRE(ref.size() == s.xfers.size());
    std::vector<c::xfer> lv;
    uint64_t seen = 0;
    std::vector<uint32_t> chain_of(s.xfers.size(), 0);
    std::vector<uint32_t> level_of(s.xfers.size(), 0);
    for (uint32_t ch = 0; ch < rs.chains(); ++ch) {
        for (uint32_t k = 0; k < rs.levels(); ++k) {
            rs.level(ch, k, lv);
            const uint64_t first = rs.level_first(ch, k);
            for (uint64_t i = 0; i < lv.size(); ++i) {
                const uint64_t x = first + i;
                INFO("chain " << ch << " level " << k << " transfer " << x);
                REQUIRE(x < s.xfers.size());
                const c::xfer& a = ref[x];
                const c::xfer& b = lv[i];
                CHECK(a.src == b.src);
                CHECK(a.dst == b.dst);
                CHECK(a.bytes == b.bytes);
                CHECK(a.src_offset == b.src_offset);
                CHECK(a.dst_offset == b.dst_offset);
                CHECK(a.reduce == b.reduce);
                CHECK(a.deps == b.deps);
                const c::xfer& built = s.xfers[x];
                CHECK(built.src == b.src);
                CHECK(built.dst == b.dst);
                CHECK(built.bytes == b.bytes);
                CHECK(built.src_offset == b.src_offset);
                CHECK(built.dst_offset == b.dst_offset);
                CHECK(built.reduce == b.reduce);
                CHECK(built.deps == b.deps);
                const c::ring_stream::place w = rs.locate(x);
                CHECK(w.chain == ch);
                CHECK(w.level == k);
                CHECK(w.offset == i);
                chain_of[x] = ch;
                level_of[x] = k;
                // The unfolding rule of the replay: level 0 has no deps, level k one in k-1.
                if (k == 0) {
                    CHECK(b.deps.empty());
                } else {
                    REQUIRE(b.deps.size() == 1);
                    CHECK(b.deps[0] < x);
                }
                ++seen;
            }
        }
    }
    CHECK(seen == s.xfers.size());
    for (std::size_t x = 0; x < s.xfers.size(); ++x) {
        for (const uint32_t d : s.xfers[x].deps) {
            CHECK(chain_of[d] == chain_of[x]);
            CHECK(level_of[d] + 1 == level_of[x]);
        }
    }
    std::vector<uint64_t> ev(p.nranks, 0);
    for (const c::xfer& x : s.xfers) {
        ++ev[x.src];
        ++ev[x.dst];
    }
    CHECK(rs.events_per_rank() == ev);
}

}  // namespace

TEST_CASE(
    "ring_stream: the unfolded levels are the reference ring and build_schedule's, transfer for "
    "transfer",
    "[collective]") {
    for (const op_kind op : {op_kind::allreduce, op_kind::reduce_scatter, op_kind::allgather}) {
        for (const uint32_t n : {2U, 3U, 5U, 8U}) {
            for (const uint32_t ch : {1U, 2U, 3U}) {
                // Even blocks, uneven blocks (remainder elements), blocks of zero elements
                // (fewer elements than ranks), chunked into several pieces and unchunked.
                for (const uint64_t bytes : {uint64_t{0}, uint64_t{12}, uint64_t{4096},
                                             uint64_t{4100}, uint64_t{1} << 16}) {
                    for (const uint64_t chunk : {uint64_t{0}, uint64_t{64}, uint64_t{1000}}) {
                        INFO(c::name(op) << " n " << n << " channels " << ch << " bytes " << bytes
                                         << " chunk " << chunk);
                        check_same(ring(op, n, bytes, 4, chunk, ch));
                    }
                }
            }
        }
    }
}

TEST_CASE("ring_stream: rail-spread channel orders over multi-GPU nodes", "[collective]") {
    for (const op_kind op : {op_kind::allreduce, op_kind::allgather}) {
        for (const uint32_t ch : {1U, 4U, 8U}) {
            c::coll_params p = ring(op, 16, uint64_t{3} << 14, 2, 1024, ch);
            p.node_groups = strided_nodes(16, 4);
            INFO(c::name(op) << " channels " << ch);
            check_same(p);
        }
    }
}

TEST_CASE("ring_stream: which collectives unfold", "[collective]") {
    c::coll_params p = ring(op_kind::allreduce, 8, 1 << 20, 4, 1 << 16, 1);
    CHECK(c::ring_stream::applies(p));
    p.algo = algo_kind::tree;
    CHECK_FALSE(c::ring_stream::applies(p));
    p.algo = algo_kind::auto_;  // plain rule: ring from 1 MiB
    CHECK(c::ring_stream::applies(p));
    p.bytes = 1024;  // tree below 1 MiB on more than 4 ranks
    CHECK_FALSE(c::ring_stream::applies(p));
    p.algo = algo_kind::ring;
    p.op = op_kind::broadcast;  // a chain, built whole
    CHECK_FALSE(c::ring_stream::applies(p));
}

TEST_CASE("ring_stream: check() refuses more transfers than 32-bit indices hold", "[collective]") {
    // 4 ranks, fp64, 2^20-byte chunks: 2^48 elements are 2^51 B, 48 * 2^31 transfers (as
    // transfer_count_test): beyond 2^32 - 1.
    const c::coll_params big = ring(op_kind::allreduce, 4, uint64_t{8} << 48, 8, 1 << 20, 1);
    std::string what;
    try {
        c::ring_stream::check(big);
    } catch (const c::schedule_too_large& e) {
        what = e.what();
    }
    CHECK(what == "decomposes into " + std::to_string(48 * (uint64_t{1} << 28)) +
                      " transfers, more than the 4294967295 a replay can index: use a larger "
                      "collective.chunk or a smaller count");
    // 2^40 elements: 48 * 2^20 transfers, beyond what build_schedule builds whole, unfold.
    const c::coll_params mid = ring(op_kind::allreduce, 4, uint64_t{8} << 40, 8, 1 << 20, 1);
    CHECK_NOTHROW(c::ring_stream::check(mid));
    CHECK_THROWS_AS(c::check_schedule(mid), c::schedule_too_large);
    const c::ring_stream rs(mid);
    CHECK(rs.total() == 48 * (uint64_t{1} << 20));
    CHECK(rs.chains() == 1);
    CHECK(rs.levels() == 6);
}
