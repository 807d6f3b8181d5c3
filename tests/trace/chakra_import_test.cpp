// Chakra execution traces: import of the files written by tests/data/chakra/make_chakra.py
// (an independent Python protobuf encoder) against the mapping derived by hand from that
// script, export -> import round trips, and the one-line errors of bad files.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "trace/chakra_export.h"
#include "trace/chakra_import.h"
#include "trace/et_stream.h"
#include "trace/trace.h"

namespace {

using Catch::Matchers::Equals;
using ndr::coll::op_kind;
namespace tr = ndr::trace;

const std::string data = std::string(NDR_TEST_DATA_DIR) + "/chakra/";

const tr::op_record& record(const tr::trace& t, uint32_t rank, uint32_t id) {
    for (const tr::op_record& r : t.records) {
        if (r.rank == rank && r.id == id) return r;
    }
    FAIL(fmt::format("no record {} on rank {}", id, rank));
    return t.records.front();
}

std::string import_error(const std::string& prefix) {
    try {
        tr::import_chakra(data + prefix);
    } catch (const tr::trace_error& e) {
        return e.what();
    }
    return "no error";
}

std::string import_error_of(const std::vector<tr::chakra_file>& files) {
    try {
        tr::import_chakra(files);
    } catch (const tr::trace_error& e) {
        return e.what();
    }
    return "no error";
}

/// Every record's deps made explicit (the implicit previous record of its rank).
std::vector<std::vector<uint32_t>> explicit_deps(const tr::trace& t) {
    std::vector<std::vector<uint32_t>> out;
    std::vector<const tr::op_record*> prev(t.nranks, nullptr);
    for (const tr::op_record& r : t.records) {
        if (!r.deps.empty()) {
            out.push_back(r.deps);
        } else if (!r.issue_ns && prev[r.rank] != nullptr) {
            out.push_back({prev[r.rank]->id});
        } else {
            out.push_back({});
        }
        prev[r.rank] = &r;
    }
    return out;
}

}  // namespace

TEST_CASE("chakra import: the mixed 4-rank files map as make_chakra.py describes", "[chakra]") {
    const tr::chakra_import imp = tr::import_chakra(data + "mixed");
    const tr::trace& t = imp.t;
    REQUIRE(t.nranks == 4);
    // comm 0 = all ranks; pg_name tp0 = ranks 0,1 and tp1 = ranks 2,3, in order of appearance
    REQUIRE(t.comms.size() == 3);
    CHECK(t.comms[1].ranks == std::vector<uint32_t>{0, 1});
    CHECK(t.comms[2].ranks == std::vector<uint32_t>{2, 3});
    CHECK(imp.nodes == 36);  // 9 nodes per rank
    CHECK(imp.computes == 12);
    CHECK(imp.collectives == 8);
    CHECK(imp.p2p == 8);
    CHECK(imp.unmapped ==
          std::map<std::string, uint64_t>{{"MEM_LOAD_NODE", 4}, {"COMM_COLL_NODE GATHER", 4}});
    CHECK(imp.ignored_attrs.at("num_ops") == 4);
    CHECK(imp.ignored_attrs.at("foo") == 4);
    CHECK(imp.ignored_attrs.at("is_cpu_op") == 36);
    // 1 allreduce, 2 allgathers (one per group), 4 ring send/recv pairs
    CHECK(t.collectives.size() == 7);
    for (uint32_t r = 0; r < 4; ++r) {
        const auto& c10 = record(t, r, 10);
        CHECK(c10.compute);
        CHECK(c10.duration_ns == 5000);  // 5 us
        CHECK(c10.issue_ns == uint64_t{0});
        const auto& ar = record(t, r, 12);
        CHECK(ar.op == op_kind::allreduce);
        CHECK(ar.count == 1024);                      // 4096 B of fp32
        CHECK(ar.deps == std::vector<uint32_t>{10});  // through the memory node 11
        const auto& ag = record(t, r, 13);
        CHECK(ag.op == op_kind::allgather);
        CHECK(ag.comm == (r < 2 ? 1u : 2u));
        CHECK(ag.count == 256);                           // comm_size 1024 B = each rank's input
        CHECK(ag.deps == std::vector<uint32_t>{12, 10});  // data then ctrl deps
        const auto& s = record(t, r, 14);
        CHECK(s.op == op_kind::send);
        CHECK(s.root == (r + 1) % 4);
        CHECK(s.count == 512);
        const auto& rv = record(t, r, 15);
        CHECK(rv.op == op_kind::recv);
        CHECK(rv.root == (r + 3) % 4);
        CHECK(record(t, r, 16).deps == std::vector<uint32_t>{14, 15});
        // 19 depended only on the GATHER (no record): it starts at 0
        CHECK(record(t, r, 19).deps.empty());
        CHECK(record(t, r, 19).issue_ns == uint64_t{0});
    }
    // the send of rank r pairs with the recv of rank r+1: one instance, 2048 B
    for (const tr::collective_instance& c : t.collectives) {
        if (c.op == op_kind::send) {
            CHECK(c.bytes == 2048);
            CHECK(c.ranks[1] == (c.ranks[0] + 1) % 4);
        }
    }
}

TEST_CASE("chakra import: 8-rank allreduce and all-to-all of 1 MiB", "[chakra]") {
    for (const char* p : {"ar8", "a2a8"}) {
        const tr::trace t = tr::import_chakra(data + p).t;
        REQUIRE(t.nranks == 8);
        REQUIRE(t.collectives.size() == 1);
        CHECK(t.collectives[0].op ==
              (std::string(p) == "ar8" ? op_kind::allreduce : op_kind::alltoall));
        CHECK(t.collectives[0].bytes == 1048576);
        CHECK(t.collectives[0].ranks.size() == 8);
    }
}

TEST_CASE("chakra export then import gives the same collectives, sizes and deps", "[chakra]") {
    const std::string text = R"({"type":"header","version":1,"nranks":4}
{"type":"comm","id":0,"ranks":[0,1,2,3]}
{"type":"comm","id":5,"ranks":[1,3]}
{"type":"compute","rank":0,"duration_ns":7000,"id":100}
{"type":"op","rank":0,"comm":0,"seq":0,"op":"allreduce","count":4096,"dtype":"fp32","redop":"sum","deps":[100]}
{"type":"op","rank":1,"comm":0,"seq":0,"op":"allreduce","count":4096,"dtype":"fp32","redop":"sum"}
{"type":"op","rank":2,"comm":0,"seq":0,"op":"allreduce","count":4096,"dtype":"fp32","redop":"sum"}
{"type":"op","rank":3,"comm":0,"seq":0,"op":"allreduce","count":4096,"dtype":"fp32","redop":"sum"}
{"type":"op","rank":1,"comm":5,"seq":0,"op":"allgather","count":64,"dtype":"fp32"}
{"type":"op","rank":3,"comm":5,"seq":0,"op":"allgather","count":64,"dtype":"fp32"}
{"type":"op","rank":0,"comm":0,"seq":1,"op":"reduce_scatter","count":32,"dtype":"fp32","redop":"sum"}
{"type":"op","rank":1,"comm":0,"seq":1,"op":"reduce_scatter","count":32,"dtype":"fp32","redop":"sum"}
{"type":"op","rank":2,"comm":0,"seq":1,"op":"reduce_scatter","count":32,"dtype":"fp32","redop":"sum"}
{"type":"op","rank":3,"comm":0,"seq":1,"op":"reduce_scatter","count":32,"dtype":"fp32","redop":"sum"}
{"type":"op","rank":0,"comm":0,"seq":2,"op":"broadcast","count":100,"dtype":"fp32","root":2}
{"type":"op","rank":1,"comm":0,"seq":2,"op":"broadcast","count":100,"dtype":"fp32","root":2}
{"type":"op","rank":2,"comm":0,"seq":2,"op":"broadcast","count":100,"dtype":"fp32","root":2}
{"type":"op","rank":3,"comm":0,"seq":2,"op":"broadcast","count":100,"dtype":"fp32","root":2}
{"type":"op","rank":0,"comm":0,"seq":3,"op":"alltoall","count":4000,"dtype":"fp32"}
{"type":"op","rank":1,"comm":0,"seq":3,"op":"alltoall","count":4000,"dtype":"fp32"}
{"type":"op","rank":2,"comm":0,"seq":3,"op":"alltoall","count":4000,"dtype":"fp32"}
{"type":"op","rank":3,"comm":0,"seq":3,"op":"alltoall","count":4000,"dtype":"fp32"}
{"type":"op","rank":0,"comm":0,"seq":4,"op":"send","count":256,"dtype":"fp32","peer":2}
{"type":"op","rank":2,"comm":0,"seq":4,"op":"recv","count":256,"dtype":"fp32","peer":0}
{"type":"op","rank":0,"comm":0,"seq":5,"op":"barrier","id":9,"deps":[100,1]}
{"type":"op","rank":1,"comm":0,"seq":5,"op":"barrier"}
{"type":"op","rank":2,"comm":0,"seq":5,"op":"barrier"}
{"type":"op","rank":3,"comm":0,"seq":5,"op":"barrier"}
)";
    std::istringstream in(text);
    const tr::trace a = tr::parse_trace(in, "a.jsonl");
    const tr::chakra_export ex = tr::to_chakra(a);
    REQUIRE(ex.files.size() == 4);
    CHECK(ex.nodes == a.records.size());
    std::vector<tr::chakra_file> files;
    for (std::size_t r = 0; r < ex.files.size(); ++r) {
        files.push_back({fmt::format("x.{}.et", r), ex.files[r]});
    }
    const tr::trace b = tr::import_chakra(files).t;
    REQUIRE(b.nranks == a.nranks);
    // The import lists rank 0's records first, then rank 1's, ...: compare by (rank, id), and
    // the collectives as a multiset of (op, bytes, global ranks, root).
    const auto colls = [](const tr::trace& t) {
        std::multiset<std::tuple<int, uint64_t, std::vector<uint32_t>, uint32_t>> s;
        for (const tr::collective_instance& c : t.collectives) {
            s.emplace(static_cast<int>(c.op), c.bytes, c.ranks, c.root);
        }
        return s;
    };
    CHECK(colls(b) == colls(a));
    CHECK(colls(a).size() == 7);  // 6 collectives and 1 send/recv pair
    const auto by_id = [](const tr::trace& t) {
        std::map<std::pair<uint32_t, uint32_t>,
                 std::tuple<int, bool, uint64_t, uint64_t, std::vector<uint32_t>>>
            m;
        const auto deps = explicit_deps(t);
        for (std::size_t i = 0; i < t.records.size(); ++i) {
            const tr::op_record& r = t.records[i];
            std::vector<uint32_t> d = deps[i];
            std::sort(d.begin(), d.end());
            m[{r.rank, r.id}] = {static_cast<int>(r.op), r.compute, r.count, r.duration_ns, d};
        }
        return m;
    };
    const auto ra = by_id(a);
    const auto rb = by_id(b);
    REQUIRE(ra.size() == a.records.size());
    CHECK(rb == ra);
}

TEST_CASE("chakra export refuses rdma records naming the trace line", "[chakra]") {
    std::istringstream in(R"({"type":"header","version":1,"nranks":2}
{"type":"comm","id":0,"ranks":[0,1]}
{"type":"op","rank":0,"comm":0,"seq":0,"op":"rdma_write","count":8,"dtype":"uint8","peer":1}
)");
    const tr::trace t = tr::parse_trace(in, "r.jsonl");
    CHECK_THROWS_WITH(tr::to_chakra(t), Catch::Matchers::StartsWith("r.jsonl:3: op: rdma_write"));
}

TEST_CASE("chakra import: bad files give one line naming file, node and field", "[chakra]") {
    CHECK_THAT(import_error("bad_truncated"),
               Equals(data + "bad_truncated.0.et: message 1 (byte 8): length: truncated varint "
                             "(the file ends inside it)"));
    CHECK_THAT(import_error("bad_type"),
               Equals(data + "bad_type.0.et: node 1: comm_size: must be an integer (int64_val), "
                             "got string_val"));
    CHECK_THAT(import_error("bad_gap"),
               Equals(data + "bad_gap.1.et: missing: rank 1 of the 3 ranks has no file"));
    CHECK_THAT(import_error("no_such_prefix"),
               Catch::Matchers::Contains("no_such_prefix.0.et: cannot open the file"));
    // Hand-encoded: metadata {version "1"}, then Node {id 1 (08 01), type COMP_NODE (18 04),
    // data_deps [99] (28 63)}: a dependency on a node the file does not hold.
    std::string f;
    tr::et_stream::append_framed(f, std::string("\x0a\x01"
                                                "1",
                                                3));
    tr::et_stream::append_framed(f, std::string("\x08\x01\x18\x04\x28\x63", 6));
    CHECK_THAT(import_error_of({{"m.0.et", f}}),
               Equals("m.0.et: node 1: data_deps/ctrl_deps: node 99 is not in the file"));
    // Node {id 1, type COMM_COLL_NODE, attr {name "comm_type", int64_val 0}, attr {name
    // "comm_size", int64_val 8}} on rank 0, comm_size 16 on rank 1: the loader's disagreement,
    // named by file and node.
    const auto coll = [](char size) {
        std::string n("\x08\x01\x18\x07", 4);
        const std::string t = std::string(
            "\x0a\x09"
            "comm_type"
            "\x48\x00",
            13);
        const std::string z = std::string(
                                  "\x0a\x09"
                                  "comm_size"
                                  "\x48",
                                  12) +
                              size;
        n += std::string("\x52") + static_cast<char>(t.size()) + t;
        n += std::string("\x52") + static_cast<char>(z.size()) + z;
        std::string out;
        tr::et_stream::append_framed(out, std::string("\x0a\x01"
                                                      "1",
                                                      3));
        tr::et_stream::append_framed(out, n);
        return out;
    };
    CHECK_THAT(import_error_of({{"d.0.et", coll(8)}, {"d.1.et", coll(16)}}),
               Equals("d.1.et: node 1: count: members of (comm 0, seq 0) disagree: 4 here, 2 at "
                      "d.0.et: node 1 (rank 0)"));
}
