// NCCL's hierarchical allreduce phases (models/collective/hier.h): bytes per GPU and per NVLink
// pair against hand-computed counts (CollNet Direct scatters block r of S/G to head r, CollNet
// Chain passes it along the chain r+1, ..., r), the rails' trees only between GPUs of one rail,
// the NVLS flow sizes, and end to end on real data: phase 1, the cross-node step done by hand
// (the sum over the rail, as SHARP computes it) and phase 3 leave every rank with the sum of all
// inputs.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "collective/hier.h"
#include "collective/schedule.h"
#include "collective/schedule_exec.h"

namespace c = ndr::coll;
using c::algo_kind;

namespace {

/// N nodes x G GPUs, ranks node-major (rank = node * G + gpu).
c::hier_layout layout(uint32_t nodes, uint32_t gpus) {
    c::hier_layout l;
    for (uint32_t k = 0; k < nodes; ++k) {
        l.groups.emplace_back();
        for (uint32_t g = 0; g < gpus; ++g) l.groups.back().push_back(k * gpus + g);
    }
    return l;
}

c::coll_params params(uint64_t bytes, uint64_t chunk) {
    c::coll_params p;
    p.bytes = bytes;
    p.dtype_bytes = 4;
    p.chunk_bytes = chunk;
    return p;
}

std::map<std::pair<uint32_t, uint32_t>, uint64_t> pair_bytes(const c::schedule& s) {
    std::map<std::pair<uint32_t, uint32_t>, uint64_t> m;
    for (const c::xfer& x : s.xfers) m[{x.src, x.dst}] += x.bytes;
    return m;
}

/// Random 32-bit inputs, one buffer per rank.
std::vector<std::vector<uint8_t>> inputs(uint32_t n, uint64_t bytes) {
    std::vector<std::vector<uint8_t>> in(n, std::vector<uint8_t>(bytes));
    uint64_t z = 12345;
    for (auto& b : in) {
        for (auto& v : b) {
            z = z * 6364136223846793005ULL + 1442695040888963407ULL;
            v = static_cast<uint8_t>(z >> 56);
        }
    }
    return in;
}

uint32_t word(const std::vector<uint8_t>& b, uint64_t i) {
    uint32_t w = 0;
    std::memcpy(&w, &b[i * 4], 4);
    return w;
}

void add_words(std::vector<uint8_t>& acc, const std::vector<uint8_t>& in, c::byte_range r) {
    for (uint64_t i = r.offset / 4; i < (r.offset + r.bytes) / 4; ++i) {
        const uint32_t w = word(acc, i) + word(in, i);
        std::memcpy(&acc[i * 4], &w, 4);
    }
}

/// Every rank holds the wrap-around sum of every input.
void check_allreduced(const std::vector<std::vector<uint8_t>>& out,
                      const std::vector<std::vector<uint8_t>>& in, uint64_t bytes) {
    std::vector<uint8_t> sum(bytes, 0);
    for (const auto& b : in) add_words(sum, b, c::byte_range{0, bytes});
    for (size_t r = 0; r < out.size(); ++r) {
        CAPTURE(r);
        CHECK(std::vector<uint8_t>(out[r].begin(), out[r].begin() + bytes) == sum);
    }
}

/// The cross-node step by hand: head r of every node gets the sum over the rail of block r.
void rail_allreduce(std::vector<std::vector<uint8_t>>& bufs, const c::hier_layout& l,
                    uint64_t bytes) {
    for (uint32_t r = 0; r < l.gpus(); ++r) {
        const c::byte_range b = c::block_range(bytes, 4, l.gpus(), r);
        std::vector<uint8_t> sum(bytes, 0);
        for (const auto& g : l.groups) add_words(sum, bufs[g[r]], b);
        for (const auto& g : l.groups) {
            std::memcpy(&bufs[g[r]][b.offset], &sum[b.offset], b.bytes);
        }
    }
}

}  // namespace

TEST_CASE("collnet_direct: every GPU sends block r (S/G) to head r and gets it back",
          "[collective][hier]") {
    const c::hier_layout l = layout(2, 4);
    const uint64_t s = 4096;  // blocks of 1024 B
    const c::schedule up = c::build_collnet_intra(algo_kind::collnet_direct, true, params(s, 0), l);
    const c::schedule dn =
        c::build_collnet_intra(algo_kind::collnet_direct, false, params(s, 0), l);
    // Up: 2 nodes x 4 heads x 3 peers = 24 transfers of 1024 B, each reducing at the head; down
    // the same pairs reversed, copying.
    REQUIRE(up.xfers.size() == 24);
    REQUIRE(dn.xfers.size() == 24);
    for (const c::xfer& x : up.xfers) {
        CHECK(x.bytes == 1024);
        CHECK(x.reduce);
        CHECK(x.deps.empty());
        CHECK(x.src / 4 == x.dst / 4);              // inside one node
        CHECK(x.src_offset == (x.dst % 4) * 1024);  // block of the head
    }
    const auto pu = pair_bytes(up);
    const auto pd = pair_bytes(dn);
    for (uint32_t a = 0; a < 8; ++a) {
        for (uint32_t b = 0; b < 8; ++b) {
            const uint64_t want = (a != b && a / 4 == b / 4) ? 1024 : 0;
            CHECK((pu.count({a, b}) != 0 ? pu.at({a, b}) : 0) == want);
            CHECK((pd.count({a, b}) != 0 ? pd.at({a, b}) : 0) == want);
        }
    }
    // Chunked at 256 B: 4 transfers per pair.
    CHECK(c::build_collnet_intra(algo_kind::collnet_direct, true, params(s, 256), l).xfers.size() ==
          96);
}

TEST_CASE("collnet_chain: block r goes along r+1 -> ... -> r and back", "[collective][hier]") {
    const c::hier_layout l = layout(2, 4);
    const uint64_t s = 4096;
    const c::schedule up =
        c::build_collnet_intra(algo_kind::collnet_chain, true, params(s, 256), l);
    // Per node and block: 3 hops x 4 chunks of 256 B = 12 transfers; 2 nodes x 4 blocks.
    REQUIRE(up.xfers.size() == 96);
    // GPU i sends to i+1 (mod 4) only: the three blocks it does not head, 3072 B.
    const auto pu = pair_bytes(up);
    for (uint32_t a = 0; a < 8; ++a) {
        for (uint32_t b = 0; b < 8; ++b) {
            const bool next = a / 4 == b / 4 && b % 4 == (a % 4 + 1) % 4;
            CAPTURE(a, b);
            CHECK((pu.count({a, b}) ? pu.at({a, b}) : 0) == (next ? 3072U : 0U));
        }
    }
    // Pipelined: chunk k of hop h waits for chunk k of hop h-1 only.
    for (const c::xfer& x : up.xfers) {
        REQUIRE(x.deps.size() <= 1);
        if (!x.deps.empty()) {
            const c::xfer& d = up.xfers[x.deps[0]];
            CHECK(d.dst == x.src);
            CHECK(d.dst_offset == x.src_offset);
        } else {
            // First hop: from head+1, where head = the block's owner.
            CHECK(x.src % 4 == (x.src_offset / 1024 + 1) % 4);
        }
    }
    const c::schedule dn =
        c::build_collnet_intra(algo_kind::collnet_chain, false, params(s, 256), l);
    const auto pd = pair_bytes(dn);
    for (uint32_t a = 0; a < 8; ++a) {
        for (uint32_t b = 0; b < 8; ++b) {
            const bool prev = a / 4 == b / 4 && a % 4 == (b % 4 + 1) % 4;
            CHECK((pd.count({a, b}) ? pd.at({a, b}) : 0) == (prev ? 3072U : 0U));
        }
    }
}

TEST_CASE("collnet phases with the rail sums by hand allreduce real data", "[collective][hier]") {
    for (const algo_kind a : {algo_kind::collnet_direct, algo_kind::collnet_chain}) {
        CAPTURE(c::name(a));
        const c::hier_layout l = layout(3, 4);
        const uint64_t s = 4 * 1000;  // 1000 elements: blocks of 250
        const auto in = inputs(12, s);
        const c::schedule up = c::build_collnet_intra(a, true, params(s, 256), l);
        const c::schedule dn = c::build_collnet_intra(a, false, params(s, 256), l);
        CHECK(c::find_races(up).empty());
        CHECK(c::find_races(dn).empty());
        auto mid = c::execute(up, in, c::wrapping_sum(4), {c::exec_order::latest_first, 1});
        rail_allreduce(mid, l, s);
        const auto out = c::execute(dn, mid, c::wrapping_sum(4), {c::exec_order::random, 7});
        check_allreduced(out, in, s);
    }
}

TEST_CASE("nvls_tree: the rails' trees stay on their rail and carry the tree's bytes",
          "[collective][hier]") {
    const c::hier_layout l = layout(4, 2);
    const uint64_t s = 4096;  // rail blocks of 2048 B
    const c::schedule t = c::build_rail_trees(params(s, 0), l);
    // Per rail: two trees over 4 nodes, each carrying half the block (1024 B) up 3 edges and
    // down 3 edges: 12 transfers, 12,288 B.
    REQUIRE(t.xfers.size() == 24);
    uint64_t rail_bytes[2] = {0, 0};
    for (const c::xfer& x : t.xfers) {
        CHECK(x.src % 2 == x.dst % 2);  // the same local GPU: one rail
        CHECK(x.src / 2 != x.dst / 2);  // across nodes
        CHECK(x.bytes == 1024);
        CHECK(x.src_offset / 2048 == x.src % 2);  // block of the rail
        rail_bytes[x.src % 2] += x.bytes;
    }
    CHECK(rail_bytes[0] == 12288);
    CHECK(rail_bytes[1] == 12288);
    // End to end: NVLS reduce-scatter by hand (head r gets its node's sum of block r), the
    // trees, the multicast by hand.
    const auto in = inputs(8, s);
    auto bufs = in;
    for (const auto& g : l.groups) {
        for (uint32_t r = 0; r < 2; ++r) {
            const c::byte_range b = c::block_range(s, 4, 2, r);
            for (uint32_t i = 0; i < 2; ++i) {
                if (i != r) add_words(bufs[g[r]], in[g[i]], b);
            }
        }
    }
    auto out = c::execute(c::build_rail_trees(params(s, 512), l), bufs, c::wrapping_sum(4));
    for (const auto& g : l.groups) {
        for (uint32_t r = 0; r < 2; ++r) {
            const c::byte_range b = c::block_range(s, 4, 2, r);
            for (uint32_t i = 0; i < 2; ++i) {
                std::memcpy(&out[g[i]][b.offset], &out[g[r]][b.offset], b.bytes);
            }
        }
    }
    check_allreduced(out, in, s);
}

TEST_CASE("nvls flows: reduce-scatter S out and S/G in, multicast S/G out and S in",
          "[collective][hier]") {
    const auto rs = c::nvls_flows(true, 4096, 4, 8, 3);
    CHECK(rs.egress == 4096);
    CHECK(rs.ingress == 512);
    const auto mc = c::nvls_flows(false, 4096, 4, 8, 3);
    CHECK(mc.egress == 512);
    CHECK(mc.ingress == 4096);
    // 1000 elements over 8 GPUs: 125 each.
    CHECK(c::nvls_flows(true, 4000, 4, 8, 7).ingress == 500);
}

TEST_CASE("hierarchical phases refuse one node, one GPU and other algorithms",
          "[collective][hier]") {
    CHECK_THROWS_AS(c::build_collnet_intra(algo_kind::ring, true, params(4096, 0), layout(2, 4)),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        c::build_collnet_intra(algo_kind::collnet_direct, true, params(4096, 0), layout(1, 8)),
        std::invalid_argument);
    CHECK_THROWS_AS(c::build_rail_trees(params(4096, 0), layout(8, 1)), std::invalid_argument);
    c::coll_params p = params(4096, 0);
    p.algo = algo_kind::nvls_tree;
    p.nranks = 16;
    CHECK_THROWS_AS(c::build_schedule(p), std::invalid_argument);
}
