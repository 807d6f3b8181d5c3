// common::sharp_an (models/common/sharp_an.h): the finite resources of one SHARP aggregation
// node, with hand-computed expectations. The ALU is one per node and shared by every tree and
// chunk (sharp.alu_bandwidth); a contribution that opens a chunk when too few OSTs are free
// waits, unconsumed, until a reduction frees them (back-pressure, not an error).
#include "common/sharp_an.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using ndr::common::cycle_t;
using ndr::common::sharp_an;
using ndr::common::sharp_emit;
using ndr::common::sharp_payloads;
using ndr::common::sharp_tree_node;

namespace {

constexpr uint32_t NO_DATA = 0xFFFFFFFFU;

/// A root node of `tree` with children on ports 1 and 2 (no parent).
sharp_tree_node root_of(uint32_t tree) {
    sharp_tree_node n;
    n.tree = tree;
    n.child_ports = {1, 2};
    return n;
}

struct feed {
    std::vector<sharp_emit> out;
    std::vector<uint64_t> taken;
};

/// Contribution of `bytes` (no data) for (tree, chunk) arriving on `port` at cycle t.
feed up(sharp_an& an, cycle_t t, uint16_t port, uint32_t tree, uint32_t chunk, uint32_t bytes,
        uint64_t token) {
    feed f;
    an.on_packet(t, port, false, tree, chunk, bytes, NO_DATA, NO_DATA, 1, token, 0, f.out, f.taken);
    return f;
}

}  // namespace

TEST_CASE("sharp_an: unlimited ALU adds only its pipeline latency", "[sharp_an]") {
    sharp_payloads pl;
    sharp_an an(256, 2048, 40, &pl);  // no set_alu_bytes_per_cycle: unlimited
    an.add_tree(root_of(0));
    CHECK(up(an, 100, 1, 0, 0, 4096, 11).out.empty());
    const feed f = up(an, 165, 2, 0, 0, 4096, 12);
    REQUIRE(f.out.size() == 2);  // down to both children
    CHECK(f.out[0].at == 165 + 40);
    CHECK(f.taken == std::vector<uint64_t>{12});
}

TEST_CASE("sharp_an: one ALU per node, shared by trees and chunks, at alu_bandwidth",
          "[sharp_an]") {
    // 4 bytes per cycle; every chunk has two 400-byte contributions = 800 B = 200 cycles of
    // ALU work. All six contributions (three chunks, two trees) arrive at cycle 10:
    //   tree 0 chunk 0: work in cycles 10..209   -> result at 209 + 40 = 249
    //   tree 0 chunk 1: work in cycles 210..409  -> 449
    //   tree 1 chunk 0: work in cycles 410..609  -> 649 (the other tree waits for the same ALU)
    // (An unlimited ALU gives last arrival + 40: work in the arrival cycle ends in it.)
    sharp_payloads pl;
    sharp_an an(256, 2048, 40, &pl);
    an.set_alu_bytes_per_cycle(4.0);
    an.add_tree(root_of(0));
    an.add_tree(root_of(1));
    std::vector<cycle_t> done;
    const uint32_t order[3][2] = {{0, 0}, {0, 1}, {1, 0}};
    for (const auto& tc : order) {
        up(an, 10, 1, tc[0], tc[1], 400, 1);
        const feed f = up(an, 10, 2, tc[0], tc[1], 400, 2);
        REQUIRE(f.out.size() == 2);
        done.push_back(f.out[0].at);
    }
    CHECK(done == std::vector<cycle_t>{249, 449, 649});
    CHECK(an.stats().alu_busy_cycles == Approx(600.0));
    // Streaming: a chunk whose contributions arrive over 300 cycles while the ALU is idle
    // needs no extra time (its 200 cycles of work fit between first and last arrival).
    up(an, 1000, 1, 0, 2, 400, 1);
    const feed f = up(an, 1300, 2, 0, 2, 400, 2);
    REQUIRE(f.out.size() == 2);
    CHECK(f.out[0].at == 1300 + 40);
}

TEST_CASE("sharp_an: out of OSTs, a contribution waits until a reduction frees them",
          "[sharp_an]") {
    // 2 OSTs of 64 B; chunks of 64 B need one OST each. Child 1 opens chunks 0, 1 and 2: the
    // third finds no OST and waits (not taken: its input buffer keeps the sender's credits).
    sharp_payloads pl;
    sharp_an an(2, 64, 0, &pl);
    an.add_tree(root_of(0));
    CHECK(up(an, 1, 1, 0, 0, 64, 100).taken == std::vector<uint64_t>{100});
    CHECK(up(an, 2, 1, 0, 1, 64, 101).taken == std::vector<uint64_t>{101});
    const feed wait = up(an, 3, 1, 0, 2, 64, 102);
    CHECK(wait.taken.empty());
    CHECK(an.waiting() == 1);
    CHECK(an.osts_in_use() == 2);
    // Child 2's contribution to chunk 0 needs no new OST: taken; chunk 0 reduces, its OST frees
    // and the waiting contribution (token 102) is let in in the same cycle.
    const feed f = up(an, 50, 2, 0, 0, 64, 200);
    CHECK(f.taken == std::vector<uint64_t>{200, 102});
    CHECK(an.waiting() == 0);
    CHECK(an.osts_in_use() == 2);  // chunks 1 and 2
    CHECK(an.stats().ost_waits == 1);
    CHECK(an.stats().ost_wait_cycles == Approx(47.0));
    // Chunks 1 and 2 complete normally.
    CHECK(up(an, 60, 2, 0, 1, 64, 201).out.size() == 2);
    CHECK(up(an, 61, 2, 0, 2, 64, 202).out.size() == 2);
    CHECK(an.osts_in_use() == 0);
    CHECK(an.stats().chunks_reduced == 3);
}
