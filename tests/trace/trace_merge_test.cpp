// trace::merge_traces: two jobs' traces as one, checked field by field against the inputs.
#include "trace/trace_merge.h"

#include <catch2/catch.hpp>

#include <sstream>

#include "trace/trace.h"

namespace {

ndr::trace::trace parse(const std::string& text, const std::string& path) {
    std::istringstream in(text);
    return ndr::trace::parse_trace(in, path);
}

const char* ring2 = R"({"type":"header","version":1,"nranks":2}
{"type":"comm","id":7,"ranks":[0,1]}
{"type":"op","rank":0,"comm":7,"seq":0,"op":"allreduce","count":256,"dtype":"fp32","redop":"sum"}
{"type":"op","rank":1,"comm":7,"seq":0,"op":"allreduce","count":256,"dtype":"fp32","redop":"sum"}
)";

const char* p2p3 = R"({"type":"header","version":1,"nranks":3}
{"type":"comm","id":0,"ranks":[0,1,2]}
{"type":"compute","rank":2,"duration_ns":100}
{"type":"op","rank":0,"comm":0,"seq":4,"op":"rdma_write","count":64,"dtype":"uint8","peer":2}
)";

}  // namespace

TEST_CASE("merge_traces renumbers ranks and communicators and places each job", "[jobs]") {
    const auto a = parse(ring2, "a.jsonl");
    const auto b = parse(p2p3, "b.jsonl");
    const auto m = ndr::trace::merge_traces({&a, &b}, {{5, 9}, {0, 1, 2}}, 1);
    const auto& t = m.t;
    CHECK(t.path == "a.jsonl+b.jsonl");
    CHECK(t.nranks == 5);
    REQUIRE(t.placement.size() == 5);
    CHECK(t.placement[0] == std::array<uint32_t, 2>{5, 0});
    CHECK(t.placement[1] == std::array<uint32_t, 2>{9, 0});
    CHECK(t.placement[4] == std::array<uint32_t, 2>{2, 0});
    REQUIRE(t.comms.size() == 2);
    CHECK(t.comms[0].id == 0);
    CHECK(t.comms[1].ranks == std::vector<uint32_t>{2, 3, 4});
    REQUIRE(t.collectives.size() == 2);
    CHECK(t.collectives[1].comm == 1);
    CHECK(t.collectives[1].ranks == std::vector<uint32_t>{2, 4});
    CHECK(t.collectives[1].root == 2);  // the peer, communicator-relative: unchanged
    CHECK(t.records[t.collectives[1].records[0]].rank == 2);
    CHECK(t.records[2].compute);
    CHECK(t.records[2].rank == 4);
    CHECK(m.job_of_instance == std::vector<uint32_t>{0, 1});
    CHECK(m.jobs[1].first_rank == 2);
    CHECK(m.jobs[0].comm_ids == std::vector<uint32_t>{7});
    CHECK_THROWS(ndr::trace::merge_traces({&a}, {{1}}, 1));  // 2 ranks need 2 nodes
}
