// Generators: sizes, counts and bucket arithmetic checked against hand-computed values, and
// every generated trace loads back.
#include <catch2/catch.hpp>

#include <numeric>
#include <sstream>
#include <string>

#include "trace/generators.h"
#include "trace/trace_writer.h"

namespace {

using ndr::coll::algo_kind;
using ndr::coll::dtype;
using ndr::coll::op_kind;
constexpr uint64_t mib = 1ull << 20;

ndr::trace::trace reload(const ndr::trace::trace& t) {
    std::istringstream in(ndr::trace::to_jsonl(t));
    return ndr::trace::parse_trace(in, "generated");
}

}  // namespace

TEST_CASE("geometric size sweeps as nccl-tests -b/-e/-f", "[trace]") {
    using ndr::trace::geometric_sizes;
    CHECK(geometric_sizes(1 * mib, 16 * mib, 4) ==
          std::vector<uint64_t>{1 * mib, 4 * mib, 16 * mib});
    CHECK(geometric_sizes(1 * mib, 20 * mib, 4) ==
          std::vector<uint64_t>{1 * mib, 4 * mib, 16 * mib});
    CHECK(geometric_sizes(8, 8, 1) == std::vector<uint64_t>{8});
    CHECK(geometric_sizes(1, 1ull << 62, 2).size() == 63);
    CHECK_THROWS_AS(geometric_sizes(0, 8, 2), std::invalid_argument);
    CHECK_THROWS_AS(geometric_sizes(16, 8, 2), std::invalid_argument);
    CHECK_THROWS_AS(geometric_sizes(1, 8, 1), std::invalid_argument);
}

TEST_CASE("linear size sweeps as nccl-tests -b/-e/-i", "[trace]") {
    using ndr::trace::linear_sizes;
    CHECK(linear_sizes(1000, 3000, 500) == std::vector<uint64_t>{1000, 1500, 2000, 2500, 3000});
    CHECK(linear_sizes(1000, 2999, 1000) == std::vector<uint64_t>{1000, 2000});
    CHECK(linear_sizes(8, 8, 0) == std::vector<uint64_t>{8});
    // The last step must not wrap around 2^64.
    CHECK(linear_sizes(~0ull - 1, ~0ull, 1ull << 63) == std::vector<uint64_t>{~0ull - 1});
    CHECK_THROWS_AS(linear_sizes(0, 8, 1), std::invalid_argument);
    CHECK_THROWS_AS(linear_sizes(16, 8, 1), std::invalid_argument);
    CHECK_THROWS_AS(linear_sizes(1, 8, 0), std::invalid_argument);
    // Counted without being built: (max - min) / step + 1.
    using ndr::trace::linear_size_count;
    CHECK(linear_size_count(1000, 3000, 500) == 5);
    CHECK(linear_size_count(1000, 2999, 1000) == 2);
    CHECK(linear_size_count(8, 8, 0) == 1);
    CHECK(linear_size_count(1, 1ull << 30, 1) == (1ull << 30));
    CHECK(linear_size_count(1, ~0ull, 1) == ~0ull);
    CHECK_THROWS_AS(linear_size_count(16, 8, 1), std::invalid_argument);
}

TEST_CASE("gen sendrecv ring: every rank sends to r+1 and receives from r-1", "[trace]") {
    ndr::trace::collective_sweep p;
    p.op = op_kind::send;
    p.nranks = 4;
    p.sizes = {4096, 64};
    p.iters = 2;
    const ndr::trace::trace t = reload(ndr::trace::gen_sendrecv_ring(p));
    // 2 sizes x 2 iterations = 4 seqs, each with 4 send/recv pairs (instances).
    REQUIRE(t.collectives.size() == 16);
    REQUIRE(t.records.size() == 4 * 4 * 2);
    for (const auto& ci : t.collectives) {
        CHECK(ci.op == op_kind::send);
        REQUIRE(ci.ranks.size() == 2);
        CHECK(ci.ranks[1] == (ci.ranks[0] + 1) % 4);  // sender -> receiver
        CHECK(ci.bytes == (ci.seq < 2 ? 4096u : 64u));
    }
    // Rank 2, seq 1: its send (id 2) and recv (id 3) both wait for seq 0's pair (ids 0, 1);
    // seq 0's pair issues at time 0.
    for (const auto& r : t.records) {
        if (r.rank != 2) continue;
        if (r.seq == 0) CHECK(r.issue_ns == std::optional<uint64_t>{0});
        if (r.seq == 1) CHECK(r.deps == std::vector<uint32_t>{0, 1});
        if (r.op == op_kind::recv) CHECK(r.root == 1);
        if (r.op == op_kind::send) CHECK(r.root == 3);
        CHECK(r.count == (r.seq < 2 ? 1024u : 16u));  // fp32 elements
    }
    p.op = op_kind::allreduce;
    CHECK_THROWS_AS(ndr::trace::gen_sendrecv_ring(p), std::invalid_argument);
}

TEST_CASE("gen collective: allreduce sweep for ring and tree loads back", "[trace]") {
    ndr::trace::collective_sweep p;
    p.op = op_kind::allreduce;
    p.nranks = 8;
    p.sizes = ndr::trace::geometric_sizes(1 * mib, 16 * mib, 4);
    p.algos = {algo_kind::ring, algo_kind::tree};
    p.iters = 2;
    const auto t = reload(ndr::trace::gen_collective(p));
    CHECK(t.nranks == 8);
    CHECK(t.records.size() == 2 * 3 * 2 * 8);
    REQUIRE(t.collectives.size() == 12);
    const uint64_t expect[] = {1 * mib, 1 * mib, 4 * mib, 4 * mib, 16 * mib, 16 * mib};
    for (std::size_t i = 0; i < 12; ++i) {
        CHECK(t.collectives[i].seq == i);
        CHECK(t.collectives[i].bytes == expect[i % 6]);
        CHECK(t.collectives[i].algo == (i < 6 ? algo_kind::ring : algo_kind::tree));
        CHECK(t.collectives[i].records.size() == 8);
    }
    CHECK(t.records[0].count == 262144);  // 1 MiB of fp32
    // Ops run one after another on every rank: no explicit deps.
    for (const auto& r : t.records) CHECK(r.deps.empty());
}

TEST_CASE("gen collective: per-rank counts of reduce_scatter, allgather, alltoall", "[trace]") {
    ndr::trace::collective_sweep p;
    p.nranks = 16;
    p.sizes = {1 * mib};
    p.op = op_kind::reduce_scatter;
    auto t = reload(ndr::trace::gen_collective(p));
    CHECK(t.records[0].count == 1 * mib / 4 / 16);  // per-rank recvcount
    CHECK(t.collectives[0].bytes == 1 * mib);
    p.op = op_kind::allgather;
    p.dt = dtype::bf16;
    t = reload(ndr::trace::gen_collective(p));
    CHECK(t.records[0].count == 1 * mib / 2 / 16);  // per-rank sendcount
    CHECK(t.collectives[0].bytes == 1 * mib);
    p.op = op_kind::alltoall;
    p.sizes = {1000 * 4};  // 1000 fp32 elements do not split into 16 blocks: round down to 992
    p.dt = dtype::fp32;
    t = reload(ndr::trace::gen_collective(p));
    CHECK(t.records[0].count == 992);
    CHECK(t.collectives[0].bytes == 992 * 4);
    p.op = op_kind::broadcast;
    p.root = 3;
    t = reload(ndr::trace::gen_collective(p));
    CHECK(t.collectives[0].root == 3);
    p.op = op_kind::barrier;
    p.sizes.clear();
    t = reload(ndr::trace::gen_collective(p));
    CHECK(t.collectives.size() == 1);
    CHECK(t.collectives[0].bytes == 0);
    p.op = op_kind::send;
    CHECK_THROWS_AS(ndr::trace::gen_collective(p), std::invalid_argument);
    p.op = op_kind::allgather;
    p.sizes = {16};  // 4 fp32 elements cannot give each of 16 ranks one
    CHECK_THROWS_AS(ndr::trace::gen_collective(p), std::invalid_argument);
    // A host algorithm that cannot build the op is refused here, not by ndrsim run later.
    p.op = op_kind::alltoall;
    p.sizes = {1 * mib};
    p.algos = {ndr::coll::algo_kind::direct};
    std::string what;
    try {
        ndr::trace::gen_collective(p);
    } catch (const std::invalid_argument& e) {
        what = e.what();
    }
    CHECK(what == "algo: direct does not fit alltoall (use pairwise, p2p)");
    p.algos = {ndr::coll::algo_kind::pairwise};
    CHECK_NOTHROW(ndr::trace::gen_collective(p));
}

TEST_CASE("DDP buckets: ResNet-50 fp32 with 25 MB buckets", "[trace]") {
    // ResNet-50: 25,557,032 parameters (docs/domain.md §11) * 4 B = 102,228,128 B ("102.2 MB").
    const uint64_t grad = 25'557'032ull * 4;
    REQUIRE(grad == 102'228'128ull);
    // ceil(102.2 MB / 25 MB) = ceil(4.09) = 5 (decimal MB, as in the brief).
    CHECK((grad + 25'000'000 - 1) / 25'000'000 == 5);
    // PyTorch: 25 MiB cap and a 1 MiB first bucket: 1 MiB, then ceil((grad - 1 MiB) / 25 MiB) =
    // ceil(101,179,552 / 26,214,400) = ceil(3.86) = 4 more: 5 buckets as well.
    const auto b = ndr::trace::ddp_buckets(grad, 1 * mib, 25 * mib);
    REQUIRE(b.size() == 5);
    CHECK(b == std::vector<uint64_t>{1 * mib, 25 * mib, 25 * mib, 25 * mib, grad - 76 * mib});
    CHECK(grad - 76 * mib == 22'536'352ull);
    // Without the first bucket: ceil(102,228,128 / 26,214,400) = ceil(3.90) = 4.
    CHECK(ndr::trace::ddp_buckets(grad, 0, 25 * mib).size() == 4);
    // BERT-Large fp32: 1,360,000,000 B: 1 + ceil((1.36e9 - 1 MiB) / 25 MiB) = 1 + ceil(51.84) = 53.
    CHECK(ndr::trace::ddp_buckets(340'000'000ull * 4, 1 * mib, 25 * mib).size() == 53);
}

TEST_CASE("gen ddp: ResNet-50 step structure", "[trace]") {
    ndr::trace::ddp_params p;
    p.model = *ndr::trace::find_ddp_model("resnet50");
    p.nranks = 4;
    p.steps = 2;
    const auto t = reload(ndr::trace::gen_ddp(p));
    // Per step and rank: fwd + 5 * (slice + allreduce) + opt = 12 records.
    CHECK(t.records.size() == 2 * 4 * 12);
    REQUIRE(t.collectives.size() == 10);
    uint64_t elems = 0;
    for (std::size_t i = 0; i < 5; ++i) {
        CHECK(t.collectives[i].op == op_kind::allreduce);
        elems += t.records[t.collectives[i].records[0]].count;
    }
    CHECK(elems == 25'557'032ull);
    CHECK(t.collectives[0].bytes == 1 * mib);
    CHECK(t.collectives[1].bytes == 25 * mib);
    // Rank 0's first step: fwd, then slice/allreduce pairs, then opt.
    std::vector<const ndr::trace::op_record*> r0;
    for (const auto& r : t.records)
        if (r.rank == 0) r0.push_back(&r);
    REQUIRE(r0.size() == 24);
    CHECK(r0[0]->compute);
    CHECK(r0[0]->duration_ns == p.model.fwd_ns);
    uint64_t bwd = 0;
    for (std::size_t k = 0; k < 5; ++k) {
        const auto* slice = r0[1 + 2 * k];
        const auto* allr = r0[2 + 2 * k];
        CHECK(slice->compute);
        bwd += slice->duration_ns;
        CHECK_FALSE(allr->compute);
        // The allreduce waits for its slice and the previous allreduce (one NCCL stream).
        REQUIRE_FALSE(allr->deps.empty());
        CHECK(allr->deps[0] == slice->id);
        if (k > 0) {
            CHECK(allr->deps.size() == 2);
            CHECK(allr->deps[1] == r0[2 * k]->id);
            CHECK(slice->deps == std::vector<uint32_t>{r0[2 * k - 1]->id});  // overlap
        }
    }
    CHECK(bwd == p.model.bwd_ns);
    CHECK(r0[11]->compute);
    CHECK(r0[11]->duration_ns == p.model.opt_ns);
    CHECK(r0[11]->deps.empty());  // follows the last allreduce
    CHECK(ndr::trace::find_ddp_model("vgg") == std::nullopt);
}

TEST_CASE("gen ddp: BERT-Large bf16 halves the gradient bytes", "[trace]") {
    ndr::trace::ddp_params p;
    p.model = *ndr::trace::find_ddp_model("bert-large");
    p.nranks = 2;
    p.dt = dtype::bf16;
    const auto t = reload(ndr::trace::gen_ddp(p));
    uint64_t bytes = 0;
    for (const auto& c : t.collectives) bytes += c.bytes;
    CHECK(bytes == 680'000'000ull);
    // 1 MiB + ceil((680e6 - 1 MiB) / 25 MiB) = 1 + ceil(25.90) = 27 buckets.
    CHECK(t.collectives.size() == 27);
}

TEST_CASE("generators refuse more records than a generated trace may hold", "[trace]") {
    // 16,384 ranks x 4 sizes x 763 iterations = 50,003,968 records: just over the limit;
    // 762 iterations (49,938,432) would be allowed. Checked before anything is built.
    ndr::trace::collective_sweep p;
    p.op = op_kind::allreduce;
    p.nranks = 16384;
    p.sizes = {8, 16, 32, 64};
    p.iters = 763;
    const auto refusal = [&p](auto gen) {
        try {
            gen(p);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(refusal(ndr::trace::gen_collective) ==
          "records: 1 algorithm(s) x 4 size(s) x 763 iteration(s) x 16384 rank(s) = 50003968 "
          "records, more than the 50000000 a generated trace may hold");
    // A send/recv ring gives each rank two records per iteration: 381 iterations x 2 =
    // 49,938,432 fit, 382 do not.
    p.op = op_kind::send;
    p.iters = 382;
    CHECK(refusal(ndr::trace::gen_sendrecv_ring) ==
          "records: 1 algorithm(s) x 4 size(s) x 382 iteration(s) x 16384 rank(s) x 2 = "
          "50069504 records, more than the 50000000 a generated trace may hold");
}
