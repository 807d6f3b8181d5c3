// NCCL's tuner (models/collective/nccl_tuner.h) against estimates computed by hand from the
// formulas and default constants of NVIDIA/nccl src/graph/tuning.cc (docs/domain.md §13), and
// the protocols' wire sizes (nccl_proto.h) against NCCL's line layouts.
#include <catch2/catch.hpp>

#include "collective/nccl_proto.h"
#include "collective/nccl_tuner.h"

namespace c = ndr::coll;
using c::algo_kind;
using c::op_kind;
using c::proto_kind;

namespace {

/// 128 DGX H100 nodes x 8 GPUs, 8 channels, 8 NDR HCAs of 50 GB/s per node, NVLink 450 GB/s.
c::tuner_topology dgx_1024() {
    c::tuner_topology t;
    t.nranks = 1024;
    t.nnodes = 128;
    t.channels = 8;
    t.bw_inter_GBps = 400;
    t.bw_intra_GBps = 400;
    t.nvlink = true;
    t.nvls = true;
    return t;
}

double time_of(op_kind op, algo_kind a, proto_kind p, uint64_t bytes, const c::tuner_topology& t) {
    const auto e = c::tuner_time(op, a, p, bytes, t);
    REQUIRE(e.has_value());
    return e->time_us;
}

}  // namespace

TEST_CASE("nccl tuner: 1024 GPUs 8 B allreduce is tree ll at the hand-computed estimate",
          "[nccl_tuner]") {
    const c::tuner_topology t = dgx_1024();
    // tree ll: 6.8 + 2 (7 x 0.6 + log2(128) x 5.0) = 85.2 us; bw min(min(400 x .92, 8 x 36.0)
    // / 3.8, 20.4) x .5 = 10.2 GB/s.
    CHECK(time_of(op_kind::allreduce, algo_kind::tree, proto_kind::ll, 8, t) ==
          Approx(85.2 + 8 / 10200.0));
    // tree ll128: 14 + 2 (7 x 1.25 + 7 x 8.5) = 150.5; tree simple 8.4 + 2 (7 x 4 + 7 x 14).
    CHECK(time_of(op_kind::allreduce, algo_kind::tree, proto_kind::ll128, 8, t) ==
          Approx(150.5).epsilon(1e-4));
    CHECK(time_of(op_kind::allreduce, algo_kind::tree, proto_kind::simple, 8, t) ==
          Approx(260.4).epsilon(1e-4));
    // ring ll: 6.6 + (2046 - 254) x max(0.6, 1.0 net overhead) + 254 x 2.7 = 2484.4.
    CHECK(time_of(op_kind::allreduce, algo_kind::ring, proto_kind::ll, 8, t) ==
          Approx(2484.4).epsilon(1e-4));
    const auto pick = c::tuner_pick(op_kind::allreduce, 8, t);
    REQUIRE(pick.has_value());
    CHECK(pick->algo == algo_kind::tree);
    CHECK(pick->proto == proto_kind::ll);
    // NVLS is a one-node algorithm without CollNet: never a candidate on 128 nodes; NVLSTree is
    // (317.6 us latency), but loses at 8 B.
    CHECK_FALSE(c::tuner_time(op_kind::allreduce, algo_kind::nvls, proto_kind::simple, 8, t));
}

TEST_CASE("nccl tuner: 1024 GPUs 1 MiB allreduce is tree ll128 with the tree correction",
          "[nccl_tuner]") {
    const c::tuner_topology t = dgx_1024();
    const uint64_t s = 1 << 20;
    // log2(1 MiB / 64) = 14: corrections ll .5, ll128 .6, simple .5.
    // tree ll128: bw min(288 x 120/128, 8 x 29.0) x .5 x .6 = 69.6 GB/s.
    CHECK(time_of(op_kind::allreduce, algo_kind::tree, proto_kind::ll128, s, t) ==
          Approx(150.5 + s / 69600.0).epsilon(1e-4));
    CHECK(time_of(op_kind::allreduce, algo_kind::tree, proto_kind::ll, s, t) ==
          Approx(85.2 + s / 5100.0).epsilon(1e-4));
    CHECK(time_of(op_kind::allreduce, algo_kind::tree, proto_kind::simple, s, t) ==
          Approx(260.4 + s / 72000.0).epsilon(1e-4));
    // ring simple: (8.4 + 1792 x 3.4 + 254 x 14) x 1.4 (plateau: 1 MiB / (8 x 1024) >= 64) and
    // 400 x 1024 / 2046 GB/s.
    CHECK(time_of(op_kind::allreduce, algo_kind::ring, proto_kind::simple, s, t) ==
          Approx(9657.2 * 1.4 + s / (400e3 * 1024 / 2046)).epsilon(1e-4));
    const auto pick = c::tuner_pick(op_kind::allreduce, s, t);
    REQUIRE(pick.has_value());
    CHECK(pick->algo == algo_kind::tree);
    CHECK(pick->proto == proto_kind::ll128);
}

TEST_CASE(
    "nccl tuner: 1024 GPUs 1 GiB allreduce is nvls_tree, tree simple next, ring ll128 "
    "when ring is asked",
    "[nccl_tuner]") {
    const c::tuner_topology t = dgx_1024();
    const uint64_t s = uint64_t{1} << 30;
    // log2(1 GiB / 64) = 24: no correction. tree simple 260.4 + S / 144 GB/s.
    CHECK(time_of(op_kind::allreduce, algo_kind::tree, proto_kind::simple, s, t) ==
          Approx(260.4 + s / 144000.0).epsilon(1e-4));
    // nvls_tree: 0 + 25 (NVLink) + 2 x log2(128) x 20.9 (NET) = 317.6 us; bus bandwidth
    // min(400 x .85 x 7/8 x 2, 400, 8 x 45.5) = 364 GB/s, x 1024 / 2046 to algorithm bandwidth:
    // 317.6 + 5,894 = 6,211 us against the tree's 7,717 us.
    CHECK(time_of(op_kind::allreduce, algo_kind::nvls_tree, proto_kind::simple, s, t) ==
          Approx(317.6 + s / (364e3 * 1024 / 2046)).epsilon(1e-4));
    // ring ll128: 14 + 1792 x 1.9 + 254 x 4.0 = 4434.8; bw min(368, 8 x 36.7) x 1024 / 2046.
    CHECK(time_of(op_kind::allreduce, algo_kind::ring, proto_kind::ll128, s, t) ==
          Approx(4434.8 + s / (293.6e3 * 1024 / 2046)).epsilon(1e-4));
    const auto pick = c::tuner_pick(op_kind::allreduce, s, t);
    REQUIRE(pick.has_value());
    CHECK(pick->algo == algo_kind::nvls_tree);
    CHECK(pick->proto == proto_kind::simple);
    // Without NVLink SHARP the tree (simple) wins.
    c::tuner_topology no_nvls = t;
    no_nvls.nvls = false;
    const auto tree = c::tuner_pick(op_kind::allreduce, s, no_nvls);
    REQUIRE(tree.has_value());
    CHECK(tree->algo == algo_kind::tree);
    CHECK(tree->proto == proto_kind::simple);
    // Restricted to ring (NCCL_ALGO=ring): simple 18,884 us loses to ll128 11,742 us.
    const auto ring = c::tuner_pick(op_kind::allreduce, s, t, algo_kind::ring);
    REQUIRE(ring.has_value());
    CHECK(ring->proto == proto_kind::ll128);
}

TEST_CASE(
    "nccl tuner: NVLSTree is Simple only, off on one node and without NVLS, 2x inter on 2 "
    "nodes",
    "[nccl_tuner]") {
    c::tuner_topology t = dgx_1024();
    const uint64_t s = uint64_t{1} << 30;
    CHECK_FALSE(c::tuner_time(op_kind::allreduce, algo_kind::nvls_tree, proto_kind::ll, s, t));
    CHECK_FALSE(c::tuner_time(op_kind::allreduce, algo_kind::nvls_tree, proto_kind::ll128, s, t));
    CHECK_FALSE(c::tuner_time(op_kind::allgather, algo_kind::nvls_tree, proto_kind::simple, s, t));
    // 2 nodes: interBw x 2 = 800; min(595, 800, 8 x 57.7 = 461.6) = 461.6 GB/s bus, x 16 / 30;
    // latency 25 + 2 x 1 x 20.9 = 66.8 us.
    t.nranks = 16;
    t.nnodes = 2;
    CHECK(time_of(op_kind::allreduce, algo_kind::nvls_tree, proto_kind::simple, s, t) ==
          Approx(66.8 + s / (461.6e3 * 16 / 30)).epsilon(1e-4));
    // One node: NCCL disables NVLSTree (and the Hopper per-channel cap there is 0).
    t.nranks = 8;
    t.nnodes = 1;
    CHECK_FALSE(c::tuner_time(op_kind::allreduce, algo_kind::nvls_tree, proto_kind::simple, s, t));
    t = dgx_1024();
    t.nvls = false;
    CHECK_FALSE(c::tuner_time(op_kind::allreduce, algo_kind::nvls_tree, proto_kind::simple, s, t));
}

TEST_CASE("nccl tuner: CollNet Direct, Chain and NVLS across nodes only with CollNet",
          "[nccl_tuner]") {
    c::tuner_topology t = dgx_1024();
    for (const algo_kind a :
         {algo_kind::collnet_direct, algo_kind::collnet_chain, algo_kind::nvls}) {
        CAPTURE(c::name(a));
        CHECK_FALSE(c::tuner_time(op_kind::allreduce, a, proto_kind::simple, 8, t));
    }
    t.collnet = true;
    // CollNet runs Simple only, allreduce only here.
    CHECK_FALSE(c::tuner_time(op_kind::allreduce, algo_kind::collnet_direct, proto_kind::ll, 8, t));
    CHECK_FALSE(
        c::tuner_time(op_kind::allreduce, algo_kind::collnet_chain, proto_kind::ll128, 8, t));
    CHECK_FALSE(
        c::tuner_time(op_kind::broadcast, algo_kind::collnet_direct, proto_kind::simple, 8, t));
    // Not below 2 nodes (NCCL_COLLNET_NODE_THRESHOLD), not without NVLink (NVSwitch).
    c::tuner_topology one = t;
    one.nranks = 8;
    one.nnodes = 1;
    CHECK_FALSE(
        c::tuner_time(op_kind::allreduce, algo_kind::collnet_direct, proto_kind::simple, 8, one));
    c::tuner_topology pci = t;
    pci.nvlink = false;
    CHECK_FALSE(
        c::tuner_time(op_kind::allreduce, algo_kind::collnet_chain, proto_kind::simple, 8, pci));
}

TEST_CASE("nccl tuner: 1024 GPUs with CollNet at the hand-computed estimates", "[nccl_tuner]") {
    c::tuner_topology t = dgx_1024();
    t.collnet = true;
    t.bw_nvlink_GBps = 370.8;  // 450 GB/s x 0.824 (the dgx-h100 preset's NVLink data rate)
    const uint64_t mib = 1 << 20;
    const uint64_t gib = uint64_t{1} << 30;
    // collnet_direct: 2 (min(1, 7) x 3.7 + 7 x 0.4) + 31 = 44 us; bus 370.8 / (8/8 GPUs per
    // NIC: factor 1) x .85 (Hopper) x .5 = 157.59 GB/s.
    CHECK(time_of(op_kind::allreduce, algo_kind::collnet_direct, proto_kind::simple, 8, t) ==
          Approx(44.0 + 8 / 157590.0).epsilon(1e-5));
    CHECK(time_of(op_kind::allreduce, algo_kind::collnet_direct, proto_kind::simple, gib, t) ==
          Approx(44.0 + gib / 157590.0).epsilon(1e-5));
    // collnet_chain: 2 x 7 x 2.8 + 30 = 69.2 us; 370.8 x .5 = 185.4 GB/s.
    CHECK(time_of(op_kind::allreduce, algo_kind::collnet_chain, proto_kind::simple, mib, t) ==
          Approx(69.2 + mib / 185400.0).epsilon(1e-5));
    // nvls across nodes: 25 + 18 = 43 us; min(370.8 x .85 x 7/8 x 2 = 551.57, 400) x 1024 /
    // 2046 = 200.20 GB/s.
    CHECK(time_of(op_kind::allreduce, algo_kind::nvls, proto_kind::simple, 8, t) ==
          Approx(43.0 + 8 / (400e3 * 1024 / 2046)).epsilon(1e-5));
    // NVLS + SHARP wins every size: 8 B 43.0 (collnet_direct 44.0, tree ll 85.2); 1 MiB 48.2
    // (collnet_direct 50.7, tree ll128 165.6); 1 GiB 5,406 (collnet_chain 5,860, nvls_tree
    // 6,211 with min(551.57, 400, 364)).
    for (const uint64_t s : {uint64_t{8}, mib, gib}) {
        CAPTURE(s);
        const auto pick = c::tuner_pick(op_kind::allreduce, s, t);
        REQUIRE(pick.has_value());
        CHECK(pick->algo == algo_kind::nvls);
        CHECK(pick->proto == proto_kind::simple);
    }
    // Without NVLink SHARP: collnet_direct for 8 B and 1 MiB, collnet_chain for 1 GiB
    // (69.2 + 5,791.5 = 5,860.7 us against collnet_direct's 44 + 6,813.5 and the tree's 7,717).
    t.nvls = false;
    CHECK(c::tuner_pick(op_kind::allreduce, 8, t)->algo == algo_kind::collnet_direct);
    CHECK(c::tuner_pick(op_kind::allreduce, mib, t)->algo == algo_kind::collnet_direct);
    CHECK(c::tuner_pick(op_kind::allreduce, gib, t)->algo == algo_kind::collnet_chain);
}

TEST_CASE("nccl tuner: 2 nodes x 8 GPUs 8 B allreduce is tree ll at 25.2 us", "[nccl_tuner]") {
    c::tuner_topology t = dgx_1024();
    t.nranks = 16;
    t.nnodes = 2;
    // 6.8 + 2 (7 x 0.6 + log2(2) x 5.0) = 25.2 us; ring ll 6.6 + 28 x 1.0 + 2 x 2.7 = 40.0.
    CHECK(time_of(op_kind::allreduce, algo_kind::tree, proto_kind::ll, 8, t) ==
          Approx(25.2).epsilon(1e-4));
    CHECK(time_of(op_kind::allreduce, algo_kind::ring, proto_kind::ll, 8, t) ==
          Approx(40.0).epsilon(1e-4));
    const auto pick = c::tuner_pick(op_kind::allreduce, 8, t);
    REQUIRE(pick.has_value());
    CHECK(pick->algo == algo_kind::tree);
}

TEST_CASE("nccl tuner: one node of 8 GPUs picks ring ll small and nvls large", "[nccl_tuner]") {
    c::tuner_topology t;
    t.nranks = 8;
    t.nnodes = 1;
    t.channels = 8;
    t.bw_intra_GBps = t.bw_inter_GBps = 450;
    t.nvlink = true;
    t.nvls = true;
    // ring ll: 6.6 + 14 x 0.6 = 15.0 us; tree ll 6.8 + 2 x 7 x 0.6 = 15.2 us.
    const auto small = c::tuner_pick(op_kind::allreduce, 8, t);
    REQUIRE(small.has_value());
    CHECK(small->algo == algo_kind::ring);
    CHECK(small->proto == proto_kind::ll);
    // bw min(llMaxBw 141, 450 x .5) x 8/14.
    CHECK(small->time_us == Approx(15.0 + 8 / (141e3 * 8 / 14)).epsilon(1e-6));
    // nvls: latency 25 us (NVLink NVLS simple); bw min(450 x .85 x 7/8 x 2, 450) x 8/14.
    const uint64_t s = uint64_t{1} << 30;
    CHECK(time_of(op_kind::allreduce, algo_kind::nvls, proto_kind::simple, s, t) ==
          Approx(25.0 + s / (450e3 * 8 / 14)).epsilon(1e-4));
    const auto large = c::tuner_pick(op_kind::allreduce, s, t);
    REQUIRE(large.has_value());
    CHECK(large->algo == algo_kind::nvls);
    // Without node.nvls the same size is a ring (simple 8.4 + 14 x 3.4 = 56 us latency).
    t.nvls = false;
    const auto ring = c::tuner_pick(op_kind::allreduce, s, t);
    REQUIRE(ring.has_value());
    CHECK(ring->algo == algo_kind::ring);
    CHECK(ring->proto == proto_kind::simple);
}

TEST_CASE("nccl tuner: ops NCCL does not tune and one rank have no estimate", "[nccl_tuner]") {
    const c::tuner_topology t = dgx_1024();
    CHECK_FALSE(c::tuner_pick(op_kind::alltoall, 1 << 20, t));
    CHECK_FALSE(c::tuner_pick(op_kind::send, 1 << 20, t));
    // broadcast and reduce: ring only.
    CHECK_FALSE(c::tuner_time(op_kind::broadcast, algo_kind::tree, proto_kind::ll, 8, t));
    const auto b = c::tuner_pick(op_kind::broadcast, 8, t);
    REQUIRE(b.has_value());
    CHECK(b->algo == algo_kind::ring);
    c::tuner_topology one = t;
    one.nranks = 1;
    one.nnodes = 1;
    CHECK_FALSE(c::tuner_pick(op_kind::allreduce, 8, one));
}

TEST_CASE("nccl tuner: PAT on 16 one-GPU nodes at the hand-computed estimate", "[nccl_tuner]") {
    c::tuner_topology t;
    t.nranks = 16;
    t.nnodes = 16;
    t.channels = 1;
    t.bw_inter_GBps = 50;
    t.bw_intra_GBps = 50;
    // PAT: 8.0 + log2(16) x 14 / 3.5 + 16 x 2.8 = 68.8 us; 0.75 x 50 GB/s, no algbw conversion.
    for (const op_kind op : {op_kind::allgather, op_kind::reduce_scatter}) {
        CHECK(time_of(op, algo_kind::pat, proto_kind::simple, 4096, t) ==
              Approx(68.8 + 4096 / 37500.0));
        // ring ll: 6.6 + 15 x 5.0 = 81.6 us at min(20.4, 25) x 16/15 GB/s: PAT is picked at 4 KiB
        CHECK(time_of(op, algo_kind::ring, proto_kind::ll, 4096, t) ==
              Approx(81.6 + 4096 / (20400.0 * 16 / 15)));
        const auto small = c::tuner_pick(op, 4096, t);
        REQUIRE(small.has_value());
        CHECK(small->algo == algo_kind::pat);
        // 64 MiB: ring simple 8.4 + 15 x 14 + S / (50 x 16/15) = 1476.7 beats PAT's 1858.4.
        const auto large = c::tuner_pick(op, 64 << 20, t);
        REQUIRE(large.has_value());
        CHECK(large->algo == algo_kind::ring);
        CHECK(large->proto == proto_kind::simple);
        CHECK(large->time_us == Approx(218.4 + (64 << 20) / (50000.0 * 16 / 15)));
        // Simple only, allgather and reduce_scatter only.
        CHECK_FALSE(c::tuner_time(op, algo_kind::pat, proto_kind::ll, 4096, t));
        CHECK_FALSE(c::tuner_time(op, algo_kind::pat, proto_kind::ll128, 4096, t));
    }
    CHECK_FALSE(c::tuner_time(op_kind::allreduce, algo_kind::pat, proto_kind::simple, 4096, t));
    CHECK_FALSE(c::tuner_time(op_kind::broadcast, algo_kind::pat, proto_kind::simple, 4096, t));
    // reduce_scatter with avg (NCCL's pre-multiplied / post-divided sum) never runs PAT.
    t.pat_redop = false;
    CHECK_FALSE(
        c::tuner_time(op_kind::reduce_scatter, algo_kind::pat, proto_kind::simple, 4096, t));
    CHECK(c::tuner_time(op_kind::allgather, algo_kind::pat, proto_kind::simple, 4096, t));
    CHECK(c::tuner_pick(op_kind::reduce_scatter, 4096, t)->algo == algo_kind::ring);
    t.pat_redop = true;
    // Two GPUs per node (nRanks != nNodes): NCCL disables PAT.
    t.nnodes = 8;
    CHECK_FALSE(c::tuner_time(op_kind::allgather, algo_kind::pat, proto_kind::simple, 4096, t));
    CHECK(c::tuner_pick(op_kind::allgather, 4096, t)->algo == algo_kind::ring);
}

TEST_CASE("nccl protocols: wire bytes follow NCCL's line layouts", "[nccl_proto]") {
    CHECK(c::wire_bytes(proto_kind::ll, 8) == 16);
    CHECK(c::wire_bytes(proto_kind::ll, 9) == 32);  // a second, partly filled line
    CHECK(c::wire_bytes(proto_kind::ll, 32768) == 65536);
    CHECK(c::wire_bytes(proto_kind::ll128, 120) == 128);
    CHECK(c::wire_bytes(proto_kind::ll128, 121) == 256);
    CHECK(c::wire_bytes(proto_kind::ll128, 576000) == 614400);  // one LL128 step
    CHECK(c::wire_bytes(proto_kind::simple, 12345) == 12345);
    CHECK(c::wire_bytes(proto_kind::ll, 0) == 0);
    // NCCL's default step sizes: LL 512 KiB / 8 steps / 2, LL128 4,915,200 B / 8 x 15/16.
    CHECK(c::info(proto_kind::ll).step_data == 524288 / 8 / 2);
    CHECK(c::info(proto_kind::ll128).step_data == 4915200 / 8 * 15 / 16);
    CHECK(c::parse_proto("ll128") == proto_kind::ll128);
    CHECK_FALSE(c::parse_proto("LL"));
    CHECK(c::proto_names() == "auto, ll, ll128, simple");
}
