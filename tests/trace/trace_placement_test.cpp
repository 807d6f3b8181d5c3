// The header's `placement` (docs/trace_format.md): one [node, gpu] per rank, round-tripped by
// the writer; malformed lists name the field.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "trace/trace.h"
#include "trace/trace_writer.h"

namespace {

const std::string body =
    "{\"type\":\"comm\",\"id\":0,\"ranks\":[0,1]}\n"
    "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"allreduce\",\"count\":4,"
    "\"dtype\":\"fp32\",\"redop\":\"sum\"}\n"
    "{\"type\":\"op\",\"rank\":1,\"comm\":0,\"seq\":0,\"op\":\"allreduce\",\"count\":4,"
    "\"dtype\":\"fp32\",\"redop\":\"sum\"}\n";

ndr::trace::trace parse(const std::string& header) {
    std::istringstream in(header + "\n" + body);
    return ndr::trace::parse_trace(in, "t.jsonl");
}

}  // namespace

TEST_CASE("trace placement: parsed and written back", "[trace]") {
    const auto t = parse(R"({"type":"header","version":1,"nranks":2,"placement":[[0,1],[5,0]]})");
    REQUIRE(t.placement.size() == 2);
    CHECK(t.placement[0][0] == 0);
    CHECK(t.placement[0][1] == 1);
    CHECK(t.placement[1][0] == 5);
    const std::string text = ndr::trace::to_jsonl(t);
    CHECK(text.find("\"placement\":[[0,1],[5,0]]") != std::string::npos);
    std::istringstream in(text);
    CHECK(ndr::trace::parse_trace(in, "u.jsonl").placement == t.placement);
    CHECK(parse(R"({"type":"header","version":1,"nranks":2})").placement.empty());
}

TEST_CASE("trace placement: refusals name the field", "[trace]") {
    using Catch::Matchers::Contains;
    CHECK_THROWS_WITH(parse(R"({"type":"header","version":1,"nranks":2,"placement":[[0,1]]})"),
                      Contains("t.jsonl:1: placement:") && Contains("2 [node, gpu] pairs"));
    CHECK_THROWS_WITH(parse(R"({"type":"header","version":1,"nranks":2,"placement":[[0,1],[1]]})"),
                      Contains("placement[1]") && Contains("[node, gpu] pair"));
    CHECK_THROWS_WITH(
        parse(R"({"type":"header","version":1,"nranks":2,"placement":[[0,1],[-1,0]]})"),
        Contains("placement[1]"));
}
