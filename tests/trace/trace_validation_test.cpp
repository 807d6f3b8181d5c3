// One malformed trace per validation rule of load_trace: the message must name the exact
// file, line and field (docs/trace_format.md, "Validation").
#include <catch2/catch.hpp>

#include <string>

#include "temp_trace.h"
#include "trace/trace.h"

namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using ndr::trace::test::temp_trace;

// Lines 1 and 2.
const std::string head =
    "{\"type\":\"header\",\"version\":1,\"nranks\":4}\n"
    "{\"type\":\"comm\",\"id\":0,\"ranks\":[0,1,2,3]}\n";

std::string ar(int rank, int seq, const std::string& extra = "") {
    return "{\"type\":\"op\",\"rank\":" + std::to_string(rank) +
           ",\"comm\":0,\"seq\":" + std::to_string(seq) +
           ",\"op\":\"allreduce\",\"count\":1024,\"dtype\":\"fp32\",\"redop\":\"sum\"" + extra +
           "}\n";
}

std::string all_ar(int seq) {
    return ar(0, seq) + ar(1, seq) + ar(2, seq) + ar(3, seq);
}

/// The error message of loading `text`, with the temp path replaced by "F".
std::string error_of(const std::string& text) {
    temp_trace f(text);
    try {
        ndr::trace::load_trace(f.path());
    } catch (const ndr::trace::trace_error& e) {
        std::string m = e.what();
        if (m.rfind(f.path(), 0) == 0) m = "F" + m.substr(f.path().size());
        return m;
    }
    return "no error";
}

}  // namespace

TEST_CASE("a valid minimal trace loads", "[trace]") {
    CHECK(error_of(head + all_ar(0)) == "no error");
}

TEST_CASE("malformed JSON and record shape", "[trace]") {
    CHECK_THAT(error_of(head + "{\"type\":\"op\",\n"),
               StartsWith("F:3: json: malformed JSON: ") && Contains("column"));
    CHECK_THAT(error_of(head + "[1, 2]\n"),
               StartsWith("F:3: json: expected one JSON object per line, got array"));
    CHECK_THAT(error_of(head + "{\"rank\":0}\n"), StartsWith("F:3: type: missing field"));
    CHECK_THAT(
        error_of(head + "{\"type\":\"opp\"}\n"),
        StartsWith("F:3: type: unknown record type 'opp' (allowed: header, comm, op, compute)"));
    CHECK_THAT(error_of(head + "{\"type\":7}\n"),
               StartsWith("F:3: type: expected a string, got number"));
    CHECK_THAT(error_of(head + ar(0, 0, ",\"count\":5")),
               StartsWith("F:3: count: field given twice"));
}

TEST_CASE("comments and blank lines count as lines", "[trace]") {
    CHECK_THAT(error_of("# comment\n\n  # indented comment\n" + head + "{\"type\":\"opp\"}\n"),
               StartsWith("F:6: type: unknown record type"));
}

TEST_CASE("a byte-order mark starts the file or nothing", "[trace]") {
    const std::string bom = "\xEF\xBB\xBF";
    // Before a comment line it was a garbled malformed-JSON error, before a record accepted.
    CHECK(error_of(bom + "# comment\n" + head + all_ar(0)) == "no error");
    CHECK(error_of(bom + head + all_ar(0)) == "no error");
    CHECK_THAT(error_of(bom + "# comment\n" + head + "{\"type\":\"opp\"}\n"),
               StartsWith("F:4: type: unknown record type"));  // the mark counts no line
    CHECK(error_of(head + bom + all_ar(0)) ==
          "F:3: json: a UTF-8 byte-order mark (EF BB BF) is allowed only at the start of the "
          "file");
    CHECK(error_of("# a\n" + bom + "# b\n" + head + all_ar(0)) ==
          "F:2: json: a UTF-8 byte-order mark (EF BB BF) is allowed only at the start of the "
          "file");
}

TEST_CASE("unknown and missing fields", "[trace]") {
    CHECK_THAT(
        error_of(head + ar(0, 0, ",\"cout\":5,\"colour\":1")),
        StartsWith("F:3: colour: unknown fields 'colour', 'cout' in a op record (allowed: "));
    CHECK_THAT(
        error_of(head + "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"allreduce\","
                        "\"dtype\":\"fp32\",\"redop\":\"sum\"}\n"),
        StartsWith("F:3: count: missing field"));
    CHECK_THAT(error_of(head + "{\"type\":\"compute\",\"rank\":0}\n"),
               StartsWith("F:3: duration_ns: missing field"));
    CHECK_THAT(error_of("{\"type\":\"header\",\"version\":1,\"nranks\":4,\"ranks\":4}\n"),
               StartsWith("F:1: ranks: unknown field 'ranks' in a header record"));
    CHECK_THAT(
        error_of(head + "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"broadcast\","
                        "\"count\":4,\"dtype\":\"fp32\"}\n"),
        StartsWith("F:3: root: missing field"));
    CHECK_THAT(
        error_of(head + "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"broadcast\","
                        "\"count\":4,\"dtype\":\"fp32\",\"root\":0,\"redop\":\"sum\"}\n"),
        StartsWith("F:3: redop: broadcast does not reduce"));
    CHECK_THAT(error_of(head + ar(0, 0, ",\"peer\":1")),
               StartsWith("F:3: peer: allreduce has no peer"));
    CHECK_THAT(
        error_of(
            head +
            "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"barrier\",\"count\":4}\n"),
        StartsWith("F:3: count: a barrier carries no data"));
}

TEST_CASE("field names with line breaks stay on one line", "[trace]") {
    // Found by fuzzing (tests/fuzz): an escaped carriage return in a field name reached the
    // message as is, so a terminal overwrote the start of the line.
    CHECK(error_of(head + "{\"type\":\"compute\",\"rank\":0,\"du\\ration_ns\":5}\n") ==
          "F:3: du ation_ns: unknown field 'du ation_ns' in a compute record (allowed: type, "
          "rank, duration_ns, id, deps, gap_ns, issue_ns)");
    CHECK(error_of(head + "{\"type\":\"compute\",\"rank\":0,\"a\\nb\\r\\nc\":5}\n") ==
          "F:3: a b  c: unknown field 'a b  c' in a compute record (allowed: type, rank, "
          "duration_ns, id, deps, gap_ns, issue_ns)");
}

TEST_CASE("wrong types, negative and out-of-range numbers", "[trace]") {
    CHECK_THAT(error_of(head + ar(0, 0, "").replace(ar(0, 0).find("1024"), 4, "\"1024\"")),
               StartsWith("F:3: count: expected a non-negative integer, got string \"1024\""));
    CHECK_THAT(error_of(head + ar(0, 0).replace(ar(0, 0).find("1024"), 4, "-1")),
               StartsWith("F:3: count: must not be negative, got -1"));
    CHECK_THAT(error_of(head + ar(0, 0, ",\"gap_ns\":1.5")),
               StartsWith("F:3: gap_ns: expected a non-negative integer, got 1.5"));
    CHECK_THAT(error_of(head + ar(0, 0).replace(ar(0, 0).find("1024"), 4, "281474976710657")),
               StartsWith("F:3: count: out of range: 281474976710657 > 281474976710656"));
    CHECK_THAT(error_of("{\"type\":\"header\",\"version\":1,\"nranks\":65537}\n"),
               StartsWith("F:1: nranks: out of range: 65537 > 65536"));
    CHECK_THAT(error_of("{\"type\":\"header\",\"version\":1,\"nranks\":0}\n"),
               StartsWith("F:1: nranks: must be at least 1"));
    CHECK_THAT(error_of("{\"type\":\"header\",\"version\":2,\"nranks\":4}\n"),
               StartsWith("F:1: version: unsupported version 2"));
    CHECK_THAT(error_of(head + ar(0, 0, ",\"deps\":\"x\"")),
               StartsWith("F:3: deps: expected a list of integers"));
    CHECK_THAT(error_of(head + "{\"type\":\"comm\",\"id\":1,\"ranks\":[0,-2]}\n"),
               StartsWith("F:3: ranks[1]: must not be negative, got -2"));
}

TEST_CASE("unknown names list the allowed ones", "[trace]") {
    const std::string good = ar(0, 0);
    auto with = [&](const std::string& from, const std::string& to) {
        std::string s = good;
        return s.replace(s.find(from), from.size(), to);
    };
    CHECK_THAT(error_of(head + with("\"allreduce\"", "\"allreduc\"")),
               StartsWith("F:3: op: unknown op 'allreduc' (allowed: allreduce, reduce_scatter,") &&
                   Contains("rdma_read)"));
    CHECK_THAT(error_of(head + with("\"fp32\"", "\"float\"")),
               StartsWith("F:3: dtype: unknown dtype 'float' (allowed: ") && Contains("fp32"));
    CHECK_THAT(error_of(head + with("\"sum\"", "\"add\"")),
               StartsWith("F:3: redop: unknown redop 'add' (allowed: sum, prod, max, min, avg)"));
    CHECK_THAT(error_of(head + ar(0, 0, ",\"algo\":\"rings\"")),
               StartsWith("F:3: algo: unknown algo 'rings' (allowed: auto, ring, tree, rhd, "
                          "pairwise, direct, sharp, nvls, rd, pat, collnet_direct, collnet_chain, "
                          "nvls_tree, p2p)"));
    CHECK_THAT(error_of(head + ar(0, 0, ",\"proto\":\"LL\"")),
               StartsWith("F:3: proto: unknown proto 'LL' (allowed: auto, ll, ll128, simple)"));
}

TEST_CASE("ranks and communicators", "[trace]") {
    CHECK_THAT(error_of(head + ar(4, 0)),
               StartsWith("F:3: rank: rank 4 out of range (header nranks 4"));
    CHECK_THAT(
        error_of(head + "{\"type\":\"op\",\"rank\":0,\"comm\":5,\"seq\":0,\"op\":\"barrier\"}\n"),
        StartsWith("F:3: comm: communicator 5 not declared"));
    CHECK_THAT(error_of(head + "{\"type\":\"comm\",\"id\":0,\"ranks\":[0,1]}\n"),
               StartsWith("F:3: id: communicator 0 declared twice (first at line 2)"));
    CHECK_THAT(error_of(head + "{\"type\":\"comm\",\"id\":1,\"ranks\":[0,1,1]}\n"),
               StartsWith("F:3: ranks[2]: rank 1 listed twice (also ranks[1])"));
    CHECK_THAT(error_of(head + "{\"type\":\"comm\",\"id\":1,\"ranks\":[0,9]}\n"),
               StartsWith("F:3: ranks[1]: rank 9 out of range"));
    CHECK_THAT(error_of(head + "{\"type\":\"comm\",\"id\":1,\"ranks\":[]}\n"),
               StartsWith("F:3: ranks: a communicator needs at least one rank"));
    CHECK_THAT(
        error_of(head + "{\"type\":\"comm\",\"id\":1,\"ranks\":[0,1]}\n"
                        "{\"type\":\"op\",\"rank\":2,\"comm\":1,\"seq\":0,\"op\":\"barrier\"}\n"),
        StartsWith("F:4: rank: rank 2 is not a member of communicator 1 (ranks 0, 1; line 3)"));
    CHECK_THAT(
        error_of(head + "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"broadcast\","
                        "\"count\":4,\"dtype\":\"fp32\",\"root\":4}\n"),
        StartsWith("F:3: root: root 4 out of range: communicator 0 has 4 ranks"));
    CHECK_THAT(error_of(head + "{\"type\":\"op\",\"rank\":1,\"comm\":0,\"seq\":0,\"op\":\"send\","
                               "\"count\":4,\"dtype\":\"fp32\",\"peer\":1}\n"),
               StartsWith("F:3: peer: peer 1 is the record's own communicator rank"));
    CHECK_THAT(
        error_of(head + "{\"type\":\"op\",\"rank\":1,\"comm\":0,\"seq\":0,\"op\":\"alltoall\","
                        "\"count\":6,\"dtype\":\"fp32\"}\n"),
        StartsWith("F:3: count: alltoall count is the total each rank sends") &&
            Contains("6 is not a multiple of the communicator size 4"));
}

TEST_CASE("collective matching", "[trace]") {
    CHECK_THAT(error_of(head + ar(0, 0) + ar(0, 0)),
               StartsWith("F:4: seq: duplicate (comm 0, seq 0) on rank 0 (first at line 3)"));
    std::string bad = ar(1, 0);
    bad.replace(bad.find("1024"), 4, "2048");
    CHECK_THAT(
        error_of(head + ar(0, 0) + bad + ar(2, 0) + ar(3, 0)),
        StartsWith(
            "F:4: count: members of (comm 0, seq 0) disagree: 2048 here, 1024 at line 3 (rank 0)"));
    bad = ar(2, 0);
    bad.replace(bad.find("fp32"), 4, "bf16");
    CHECK_THAT(error_of(head + ar(0, 0) + ar(1, 0) + bad),
               StartsWith("F:5: dtype: members of (comm 0, seq 0) "
                          "disagree: bf16 here, fp32 at line 3"));
    bad = ar(1, 0);
    bad.replace(bad.find("sum"), 3, "max");
    CHECK_THAT(error_of(head + ar(0, 0) + bad),
               StartsWith("F:4: redop: members of (comm 0, seq 0) disagree: max"));
    CHECK_THAT(
        error_of(head + ar(0, 0) + ar(1, 0, ",\"algo\":\"tree\"")),
        StartsWith("F:4: algo: members of (comm 0, seq 0) disagree: tree here, auto at line 3"));
    CHECK_THAT(
        error_of(head + ar(0, 0, ",\"proto\":\"ll\"") + ar(1, 0, ",\"proto\":\"simple\"")),
        StartsWith("F:4: proto: members of (comm 0, seq 0) disagree: simple here, ll at line 3"));
    bad = ar(1, 0);
    bad.replace(bad.find("allreduce"), 9, "reduce");
    bad.replace(bad.find("}"), 1, ",\"root\":0}");
    CHECK_THAT(
        error_of(head + ar(0, 0) + bad),
        StartsWith(
            "F:4: op: members of (comm 0, seq 0) disagree: reduce here, allreduce at line 3"));
    const std::string bc =
        "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"broadcast\","
        "\"count\":4,\"dtype\":\"fp32\",\"root\":0}\n";
    std::string bc1 = bc;
    bc1.replace(bc1.find("\"rank\":0"), 8, "\"rank\":1");
    bc1.replace(bc1.find("\"root\":0"), 8, "\"root\":2");
    CHECK_THAT(error_of(head + bc + bc1),
               StartsWith("F:4: root: members of (comm 0, seq 0) disagree: 2 here, 0"));
    CHECK_THAT(
        error_of(head + ar(0, 0) + ar(1, 0) + all_ar(1)),
        StartsWith(
            "F:3: seq: allreduce (comm 0, seq 0) has no record for global ranks 2, 3 (members of "
            "comm 0: 0, 1, 2, 3)"));
}

TEST_CASE("send/recv pairing and one-sided RDMA", "[trace]") {
    const std::string send =
        "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"send\",\"count\":8,"
        "\"dtype\":\"fp32\",\"peer\":1}\n";
    const std::string recv =
        "{\"type\":\"op\",\"rank\":1,\"comm\":0,\"seq\":0,\"op\":\"recv\",\"count\":8,"
        "\"dtype\":\"fp32\",\"peer\":0}\n";
    CHECK(error_of(head + send + recv) == "no error");
    CHECK(error_of(head + recv + send) == "no error");
    CHECK_THAT(error_of(head + recv), StartsWith("F:3: peer: recv from comm rank 0 (global rank 0) "
                                                 "at (comm 0, seq 0) has no matching send"));
    CHECK_THAT(error_of(head + send), StartsWith("F:3: peer: send to comm rank 1 (global rank 1) "
                                                 "at (comm 0, seq 0) has no matching recv"));
    std::string r2 = recv;
    r2.replace(r2.find("\"count\":8"), 9, "\"count\":9");
    CHECK_THAT(
        error_of(head + send + r2),
        StartsWith("F:4: count: recv does not match its send at line 3 (rank 0): 9 here, 8 there"));
    CHECK_THAT(error_of(head + send + send + recv),
               StartsWith("F:4: seq: duplicate send with peer 1 at (comm 0, "
                          "seq 0) on rank 0 (first at line 3)"));
    CHECK_THAT(
        error_of(head + ar(0, 0) + send),
        StartsWith(
            "F:4: seq: (comm 0, seq 0) is the allreduce at line 3; a send needs its own seq"));
    CHECK_THAT(
        error_of(head + send + recv + ar(0, 0)),
        StartsWith(
            "F:5: seq: (comm 0, seq 0) is used by point-to-point records (first at line 3)"));
    const std::string wr =
        "{\"type\":\"op\",\"rank\":2,\"comm\":0,\"seq\":0,\"op\":\"rdma_write\",\"count\":8,"
        "\"dtype\":\"uint8\",\"peer\":3}\n";
    CHECK(error_of(head + wr) == "no error");  // one-sided: no record on the target
}

TEST_CASE("dependencies, ids and issue times", "[trace]") {
    const std::string c0 = "{\"type\":\"compute\",\"rank\":0,\"duration_ns\":10";
    CHECK_THAT(error_of(head + c0 + "}\n" + c0 + ",\"deps\":[9]}\n"),
               StartsWith("F:4: deps: no record with id 9 on rank 0"));
    CHECK_THAT(
        error_of(head + c0 + ",\"deps\":[1]}\n" + c0 + "}\n"),
        StartsWith(
            "F:3: deps: dependency cycle on rank 0: line 3 (id 0) -> line 4 (id 1) -> line 3"));
    CHECK_THAT(error_of(head + c0 + ",\"id\":4,\"deps\":[4]}\n"),
               StartsWith("F:3: deps: record depends on itself (id 4)"));
    CHECK_THAT(error_of(head + c0 + ",\"deps\":[]}\n"), StartsWith("F:3: deps: empty list"));
    CHECK_THAT(error_of(head + c0 + "}\n" + c0 + ",\"deps\":[0,0]}\n"),
               StartsWith("F:4: deps: id 0 listed twice"));
    CHECK_THAT(error_of(head + c0 + ",\"id\":5}\n" + c0 + ",\"id\":5}\n"),
               StartsWith("F:4: id: id 5 used twice on rank 0 (first at line 3"));
    CHECK_THAT(error_of(head + c0 + ",\"id\":1}\n" + c0 + "}\n"),
               StartsWith("F:4: id: this record's default id 1 (its index on rank 0) is already "
                          "taken at line 3"));
    CHECK_THAT(error_of(head + c0 + "}\n" + c0 + ",\"deps\":[0],\"issue_ns\":5}\n"),
               StartsWith("F:4: issue_ns: not allowed together with deps"));
    CHECK_THAT(error_of(head + c0 + ",\"gap_ns\":3,\"issue_ns\":5}\n"),
               StartsWith("F:3: issue_ns: not allowed together with gap_ns"));
    CHECK_THAT(error_of(head + c0 + ",\"issue_ns\":1000000000000001}\n"),
               StartsWith("F:3: issue_ns: out of range"));
    // Forward references are fine as long as there is no cycle.
    CHECK(error_of(head + c0 + ",\"id\":1,\"deps\":[0]}\n" + c0 + ",\"id\":0,\"issue_ns\":0}\n") ==
          "no error");
}

TEST_CASE("header placement", "[trace]") {
    CHECK_THAT(error_of("{\"type\":\"comm\",\"id\":0,\"ranks\":[0]}\n"),
               StartsWith("F:1: type: the first record must be the header, got 'comm'"));
    CHECK_THAT(error_of(head + "{\"type\":\"header\",\"version\":1,\"nranks\":4}\n"),
               StartsWith("F:3: type: second header (first at line 1)"));
    CHECK_THAT(error_of(""), StartsWith("F:1: type: missing header record"));
    CHECK_THAT(error_of("# only a comment\n\n"), StartsWith("F:2: type: missing header record"));
    temp_trace f("x");
    CHECK_THROWS_WITH(ndr::trace::load_trace(f.path() + ".absent"),
                      Contains("cannot open the file"));
}
