// Every shipped trace loads; the hand-written example means what docs/trace_format.md says;
// writer and loader round-trip.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "trace/trace.h"
#include "trace/trace_writer.h"

namespace {

const std::filesystem::path traces_dir =
    std::filesystem::path(NDR_TEST_DATA_DIR) / ".." / ".." / "traces";

}  // namespace

TEST_CASE("every shipped trace loads", "[trace]") {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(traces_dir)) {
        if (e.path().extension() != ".jsonl") continue;
        INFO(e.path().string());
        CHECK_NOTHROW(ndr::trace::load_trace(e.path().string()));
        ++n;
    }
    CHECK(n >= 5);
}

TEST_CASE("default trace: 32 ranks, allreduce 1 MiB..256 MiB x4, ring then tree", "[trace]") {
    const auto t = ndr::trace::load_trace((traces_dir / "default.jsonl").string());
    CHECK(t.nranks == 32);
    REQUIRE(t.collectives.size() == 10);
    const uint64_t mib = 1 << 20;
    const uint64_t sizes[] = {1 * mib, 4 * mib, 16 * mib, 64 * mib, 256 * mib};
    for (std::size_t i = 0; i < 10; ++i) {
        const auto& c = t.collectives[i];
        CHECK(c.op == ndr::coll::op_kind::allreduce);
        CHECK(c.bytes == sizes[i % 5]);
        CHECK(c.algo == (i < 5 ? ndr::coll::algo_kind::ring : ndr::coll::algo_kind::tree));
        CHECK(c.ranks.size() == 32);
        CHECK(c.records.size() == 32);
    }
}

TEST_CASE("the every-record example", "[trace]") {
    using ndr::coll::op_kind;
    const auto t = ndr::trace::load_trace((traces_dir / "example_all_records.jsonl").string());
    CHECK(t.nranks == 4);
    CHECK(t.name == "every record type");
    REQUIRE(t.comms.size() == 2);
    CHECK(t.comms[1].ranks == std::vector<uint32_t>{2, 0});
    REQUIRE(t.records.size() == 15);
    CHECK(t.records[0].compute);
    CHECK(t.records[0].id == 100);
    CHECK(t.records[0].line == 7);
    CHECK(t.records[1].id == 0);  // default: index on rank 1
    CHECK(t.records[4].gap_ns == 200);
    REQUIRE(t.collectives.size() == 5);
    const auto& bc = t.collectives[0];
    CHECK(bc.op == op_kind::broadcast);
    CHECK(bc.bytes == 4096);
    CHECK(bc.root == 0);
    const auto& sr = t.collectives[1];
    CHECK(sr.op == op_kind::send);
    CHECK(sr.ranks == std::vector<uint32_t>{0, 1});
    CHECK(sr.records == std::vector<uint32_t>{6, 7});
    CHECK(sr.bytes == 65536);
    const auto& wr = t.collectives[2];
    CHECK(wr.op == op_kind::rdma_write);
    CHECK(wr.ranks == std::vector<uint32_t>{2, 3});
    CHECK(wr.records == std::vector<uint32_t>{8});
    CHECK(wr.algo == ndr::coll::algo_kind::direct);
    const auto& ar = t.collectives[3];
    CHECK(ar.comm == 1);
    CHECK(ar.bytes == 262144 * 2);
    CHECK(ar.ranks == std::vector<uint32_t>{2, 0});
    CHECK(ar.records == std::vector<uint32_t>{10, 9});  // communicator order: rank 2 first
    CHECK(t.records[9].deps == std::vector<uint32_t>{100});
    const auto& bar = t.collectives[4];
    CHECK(bar.op == op_kind::barrier);
    CHECK(bar.bytes == 0);
    CHECK(t.records[11].deps == std::vector<uint32_t>{7, 2});
    CHECK(t.records[14].issue_ns == 50000u);
}

TEST_CASE("writer and loader round-trip", "[trace]") {
    const auto a = ndr::trace::load_trace((traces_dir / "example_all_records.jsonl").string());
    std::istringstream in(ndr::trace::to_jsonl(a, {"round trip"}));
    const auto b = ndr::trace::parse_trace(in, "mem");
    CHECK(b.nranks == a.nranks);
    CHECK(b.name == a.name);
    REQUIRE(b.comms.size() == a.comms.size());
    REQUIRE(b.records.size() == a.records.size());
    for (std::size_t i = 0; i < a.records.size(); ++i) {
        const auto& x = a.records[i];
        const auto& y = b.records[i];
        INFO(i);
        CHECK(x.rank == y.rank);
        CHECK(x.id == y.id);
        CHECK(x.compute == y.compute);
        CHECK(x.duration_ns == y.duration_ns);
        CHECK(x.comm == y.comm);
        CHECK(x.seq == y.seq);
        CHECK(x.op == y.op);
        CHECK(x.count == y.count);
        CHECK(x.dt == y.dt);
        CHECK(x.rop == y.rop);
        CHECK(x.root == y.root);
        CHECK(x.algo == y.algo);
        CHECK(x.deps == y.deps);
        CHECK(x.gap_ns == y.gap_ns);
        CHECK(x.issue_ns == y.issue_ns);
    }
    CHECK(b.collectives.size() == a.collectives.size());
}

TEST_CASE("collective_bytes follows nccl-tests S", "[trace]") {
    using ndr::coll::dtype;
    using ndr::coll::op_kind;
    using ndr::trace::collective_bytes;
    CHECK(collective_bytes(op_kind::allreduce, 1000, dtype::fp32, 8) == 4000);
    CHECK(collective_bytes(op_kind::broadcast, 1000, dtype::fp16, 8) == 2000);
    CHECK(collective_bytes(op_kind::reduce, 1000, dtype::fp64, 8) == 8000);
    CHECK(collective_bytes(op_kind::reduce_scatter, 1000, dtype::fp32, 8) == 32000);
    CHECK(collective_bytes(op_kind::allgather, 1000, dtype::bf16, 8) == 16000);
    CHECK(collective_bytes(op_kind::alltoall, 1000, dtype::fp32, 8) == 4000);
    CHECK(collective_bytes(op_kind::send, 7, dtype::int8, 8) == 7);
    CHECK(collective_bytes(op_kind::barrier, 0, dtype::fp32, 8) == 0);
}
