// trace::gen_background (`ndrsim gen background`): issue times from the interval, one RDMA WRITE
// per destination, checked against hand-computed values; the trace loads back.
#include <catch2/catch.hpp>

#include <sstream>

#include "trace/generators.h"
#include "trace/trace_writer.h"

TEST_CASE("gen_background issues message k at k times the interval rounded down", "[trace][jobs]") {
    // 1 MiB at half of 400 Gb/s: 8388608 bits / 200 Gb/s = 41943.04 ns = 41943040 ps.
    const std::vector<std::vector<uint32_t>> dests{{}, {0, 0, 0}, {0, 0, 0}};
    const auto t = ndr::trace::gen_background(dests, 1U << 20, 41'943'040, "incast");
    std::istringstream in(ndr::trace::to_jsonl(t));
    const auto back = ndr::trace::parse_trace(in, "generated");
    REQUIRE(back.records.size() == 6);
    CHECK(back.records[0].rank == 1);
    CHECK(back.records[0].issue_ns == 0ULL);
    CHECK(back.records[1].issue_ns == 41'943ULL);
    CHECK(back.records[2].issue_ns == 83'886ULL);
    CHECK(back.records[3].rank == 2);
    CHECK(back.records[1].count == (1ULL << 20));
    CHECK(back.collectives.size() == 6);
    CHECK(back.collectives[1].ranks == std::vector<uint32_t>{1, 0});
    CHECK_THROWS(ndr::trace::gen_background({{0}, {}}, 64, 1000, "self"));
}
