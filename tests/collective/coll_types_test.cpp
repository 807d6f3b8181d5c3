// Collective names, parsers, element sizes, NCCL enum numbers (docs/domain.md §12.1) and
// nccl-tests busbw factors (docs/domain.md §9).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "collective/coll_types.h"

namespace c = ndr::coll;

TEST_CASE("coll names round-trip and match the documented spellings", "[collective]") {
    const std::vector<std::string> ops = {"allreduce", "reduce_scatter", "allgather", "alltoall",
                                          "broadcast", "reduce",         "barrier",   "send",
                                          "recv",      "rdma_write",     "rdma_read"};
    for (size_t i = 0; i < ops.size(); ++i) {
        const auto k = static_cast<c::op_kind>(i);
        CHECK(c::name(k) == ops[i]);
        REQUIRE(c::parse_op(ops[i]).has_value());
        CHECK(*c::parse_op(ops[i]) == k);
    }
    const std::vector<std::string> algos = {"auto",     "ring",   "tree", "rhd",
                                            "pairwise", "direct", "sharp"};
    for (size_t i = 0; i < algos.size(); ++i) {
        const auto a = static_cast<c::algo_kind>(i);
        CHECK(c::name(a) == algos[i]);
        CHECK(c::parse_algo(algos[i]) == a);
    }
    CHECK(c::parse_algo("auto") == c::algo_kind::auto_);
    const std::vector<std::string> dts = {"int8",    "uint8",   "int32", "uint32", "int64",
                                          "uint64",  "fp16",    "fp32",  "fp64",   "bf16",
                                          "fp8e4m3", "fp8e5m2", "int16", "uint16"};
    const std::vector<uint32_t> sizes = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1, 2, 2};
    for (size_t i = 0; i < dts.size(); ++i) {
        const auto t = static_cast<c::dtype>(i);
        CHECK(c::name(t) == dts[i]);
        CHECK(c::parse_dtype(dts[i]) == t);
        CHECK(c::dtype_bytes(t) == sizes[i]);
    }
    const std::vector<std::string> rops = {"sum", "prod", "max", "min", "avg"};
    for (size_t i = 0; i < rops.size(); ++i) {
        const auto r = static_cast<c::redop>(i);
        CHECK(c::name(r) == rops[i]);
        CHECK(c::parse_redop(rops[i]) == r);
    }
    CHECK_FALSE(c::parse_op("AllReduce").has_value());
    CHECK_FALSE(c::parse_op("").has_value());
    CHECK_FALSE(c::parse_algo("auto_").has_value());
    CHECK_FALSE(c::parse_dtype("float").has_value());
    CHECK_FALSE(c::parse_redop("add").has_value());
}

TEST_CASE("coll NCCL enum numbers follow nccl.h (docs/domain.md §12.1)", "[collective]") {
    const std::vector<std::string> nccl = {"int8",  "uint8",  "int32",   "uint32",
                                           "int64", "uint64", "fp16",    "fp32",
                                           "fp64",  "bf16",   "fp8e4m3", "fp8e5m2"};
    for (int v = 0; v < 12; ++v) {
        const auto t = c::dtype_from_nccl(v);
        REQUIRE(t.has_value());
        CHECK(c::name(*t) == nccl[static_cast<size_t>(v)]);
        CHECK(c::dtype_to_nccl(*t) == v);
    }
    CHECK_FALSE(c::dtype_from_nccl(12).has_value());
    CHECK_FALSE(c::dtype_from_nccl(-1).has_value());
    CHECK_FALSE(c::dtype_to_nccl(c::dtype::int16).has_value());
    CHECK_FALSE(c::dtype_to_nccl(c::dtype::uint16).has_value());
    const std::vector<std::string> ops = {"sum", "prod", "max", "min", "avg"};
    for (int v = 0; v < 5; ++v) {
        const auto r = c::redop_from_nccl(v);
        REQUIRE(r.has_value());
        CHECK(c::name(*r) == ops[static_cast<size_t>(v)]);
        CHECK(c::redop_to_nccl(*r) == v);
    }
    CHECK_FALSE(c::redop_from_nccl(5).has_value());
    CHECK_FALSE(c::redop_from_nccl(-1).has_value());
}

TEST_CASE("coll busbw factors match the nccl-tests table at n = 8", "[collective]") {
    using c::algo_kind;
    using c::op_kind;
    CHECK(c::busbw_factor(op_kind::allreduce, algo_kind::ring, 8) == Approx(1.75));
    CHECK(c::busbw_factor(op_kind::allreduce, algo_kind::tree, 8) == Approx(1.75));
    CHECK(c::busbw_factor(op_kind::allreduce, algo_kind::auto_, 8) == Approx(1.75));
    CHECK(c::busbw_factor(op_kind::allreduce, algo_kind::sharp, 8) == Approx(7.0 / 9.0));
    CHECK(c::busbw_factor(op_kind::reduce_scatter, algo_kind::ring, 8) == Approx(0.875));
    CHECK(c::busbw_factor(op_kind::allgather, algo_kind::ring, 8) == Approx(0.875));
    CHECK(c::busbw_factor(op_kind::alltoall, algo_kind::pairwise, 8) == Approx(0.875));
    CHECK(c::busbw_factor(op_kind::broadcast, algo_kind::ring, 8) == Approx(1.0));
    CHECK(c::busbw_factor(op_kind::reduce, algo_kind::tree, 8) == Approx(1.0));
    for (auto op : {op_kind::barrier, op_kind::send, op_kind::recv, op_kind::rdma_write,
                    op_kind::rdma_read}) {
        CHECK(c::busbw_factor(op, algo_kind::direct, 8) == Approx(1.0));
    }
    // docs/domain.md §9: the in-network factor is 0.33 at n = 2 and 0.98 at n = 128.
    CHECK(c::busbw_factor(op_kind::allreduce, algo_kind::sharp, 2) == Approx(1.0 / 3.0));
    CHECK(c::busbw_factor(op_kind::allreduce, algo_kind::sharp, 128) == Approx(127.0 / 129.0));
    CHECK(c::busbw_factor(op_kind::allreduce, algo_kind::ring, 1) == Approx(0.0));
}
