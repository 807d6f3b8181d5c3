// NCCL log import: the hand-written sample log (tests/data/nccl/sample_4ranks.log, format of
// docs/domain.md §12.1) and one malformed log per import error.
#include <catch2/catch.hpp>

#include <array>
#include <sstream>

#include <fmt/format.h>

#include "trace/nccl_import.h"
#include "trace/trace_writer.h"

namespace {

using Catch::Matchers::StartsWith;
using ndr::coll::dtype;
using ndr::coll::op_kind;
using ndr::coll::redop;

const std::string sample = std::string(NDR_TEST_DATA_DIR) + "/nccl/sample_4ranks.log";

std::string import_error(const std::string& text) {
    std::istringstream in(text);
    try {
        ndr::trace::import_nccl_log(in, "L");
    } catch (const ndr::trace::trace_error& e) {
        return e.what();
    }
    return "no error";
}

const std::string init0 =
    "h:1:1 [0] NCCL INFO comm 0xa rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0\n";
const std::string init1 =
    "h:2:2 [1] NCCL INFO comm 0xb rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 1 MNNVL 0\n";

std::string coll(const std::string& proc, const std::string& comm, const std::string& body) {
    return proc + " NCCL INFO " + body + " comm " + comm + " [nranks=2] stream 0x1\n";
}

}  // namespace

TEST_CASE("NCCL sample log imports with the expected ops", "[trace]") {
    const auto imp = ndr::trace::import_nccl_log(sample);
    CHECK(imp.coll_lines == 20);
    CHECK(imp.init_lines == 11);
    CHECK(imp.skipped == 7);
    CHECK(imp.unrecognised == 2);
    std::istringstream in(ndr::trace::to_jsonl(imp.t, imp.comments));
    const auto t = ndr::trace::parse_trace(in, "imported");
    CHECK(t.nranks == 4);
    REQUIRE(t.comms.size() == 2);
    CHECK(t.comms[0].ranks == std::vector<uint32_t>{0, 1, 2, 3});
    CHECK(t.comms[1].ranks == std::vector<uint32_t>{1, 3});  // split comm: world ranks 1 and 3
    REQUIRE(t.records.size() == 20);
    REQUIRE(t.collectives.size() == 6);

    const auto& ar = t.collectives[0];
    CHECK(ar.op == op_kind::allreduce);
    CHECK(ar.seq == 8);
    CHECK(ar.bytes == 262144 * 4);
    CHECK(t.records[ar.records[0]].dt == dtype::fp32);
    CHECK(t.records[ar.records[0]].rop == redop::sum);

    const auto& bc = t.collectives[1];
    CHECK(bc.op == op_kind::broadcast);
    CHECK(bc.seq == 9);
    CHECK(bc.root == 2);
    CHECK(t.records[bc.records[0]].dt == dtype::bf16);
    CHECK(bc.bytes == 2048);

    const auto& sub = t.collectives[2];
    CHECK(sub.comm == 1);
    CHECK(sub.seq == 0);
    CHECK(sub.bytes == 4 * (1ull << 20));

    const auto& ag = t.collectives[3];
    CHECK(ag.op == op_kind::allgather);
    CHECK(ag.seq == 0xa);  // opCount is hexadecimal
    CHECK(t.records[ag.records[0]].count == 4096);
    CHECK(t.records[ag.records[0]].dt == dtype::fp16);
    CHECK(ag.bytes == 4096 * 2 * 4);

    const auto& rs = t.collectives[4];
    CHECK(rs.op == op_kind::reduce_scatter);
    CHECK(rs.seq == 0xb);
    CHECK(t.records[rs.records[0]].dt == dtype::fp64);
    CHECK(t.records[rs.records[0]].rop == redop::max);
    CHECK(rs.bytes == 1000 * 8 * 4);

    const auto& sr = t.collectives[5];
    CHECK(sr.op == op_kind::send);
    CHECK(sr.seq == 0xc);
    CHECK(sr.ranks == std::vector<uint32_t>{0, 1});
    CHECK(t.records[sr.records[0]].dt == dtype::int8);
    CHECK(sr.bytes == 512);
}

TEST_CASE("NCCL import errors name the log line and field", "[trace]") {
    const std::string ok =
        coll("h:1:1 [0]", "0xa",
             "AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 4 datatype 7 op 0 root 0") +
        coll("h:2:2 [1]", "0xb",
             "AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 4 datatype 7 op 0 root 0");
    CHECK(import_error(init0 + init1 + ok) == "no error");
    CHECK_THAT(import_error(
                   init0 + init1 +
                   coll("h:1:1 [0]", "0xc", "AllReduce: opCount 0 count 4 datatype 7 op 0 root 0")),
               StartsWith("L:3: comm: no INIT line for comm 0xc in process 'h:1'"));
    CHECK_THAT(import_error(init0 + init1 +
                            coll("h:1:1 [0]", "0xa",
                                 "AllReduce: opCount 0 count 4 datatype 12 op 0 root 0")),
               StartsWith("L:3: datatype: unknown NCCL datatype 12"));
    CHECK_THAT(import_error(
                   init0 + init1 +
                   coll("h:1:1 [0]", "0xa", "AllReduce: opCount 0 count 4 datatype 7 op 7 root 0")),
               StartsWith("L:3: op: unsupported NCCL reduction 7"));
    CHECK_THAT(
        import_error(init0 + init1 +
                     coll("h:1:1 [0]", "0xa", "Gather: opCount 0 count 4 datatype 7 op 0 root 0")),
        StartsWith("L:3: op: unsupported NCCL operation 'Gather'"));
    CHECK_THAT(import_error(init0 + init1 +
                            coll("h:1:1 [0]", "0xa",
                                 "AllReduce: opCount zz count 4 datatype 7 op 0 root 0")),
               StartsWith("L:3: opCount: expected a hex number 0..0xffffffffffffffff, got 'zz'"));
    CHECK_THAT(
        import_error(init0 + init1 +
                     coll("h:1:1 [0]", "0xa", "AllReduce: opCount 0 datatype 7 op 0 root 0")),
        StartsWith("L:3: count: missing in the COLL line"));
    CHECK_THAT(
        import_error(init0 + init1 +
                     "h:1:1 [0] NCCL INFO AllReduce: opCount 0 count 4 datatype 7 op 0 root 0 comm "
                     "0xa [nranks=3] stream 0x1\n"),
        StartsWith("L:3: nranks: [nranks=3] disagrees with the INIT line (line 1: nRanks 2)"));
    CHECK_THAT(import_error("hello\n\nworld\n"), StartsWith("L:3: comm: no NCCL INIT lines"));
    CHECK_THAT(
        import_error(init0),
        StartsWith("L:1: comm: communicator #0 of 2 ranks (no commId): no INIT line for rank 1"));
    CHECK_THAT(import_error(init0 + "h:1:1 [0] NCCL INFO comm 0xa rank 1 nRanks 2 nNodes 1\n"),
               StartsWith("L:2: comm: INIT line for comm 0xa in process 'h:1' says rank 1 of 2"));
}

namespace {

/// Two ranks' COLL lines of one op with `count` (per rank; per peer for AlltoAll).
std::string coll2(const std::string& op, const std::string& count, const std::string& count1 = "") {
    const std::string body = op + ": opCount 0 sendbuff 0x1 recvbuff 0x1 count ";
    const std::string tail = " datatype 7 op 0 root 0";
    return coll("h:1:1 [0]", "0xa", body + count + tail) +
           coll("h:2:2 [1]", "0xb", body + (count1.empty() ? count : count1) + tail);
}

}  // namespace

TEST_CASE("NCCL import refuses counts the trace cannot hold instead of wrapping", "[trace]") {
    // NCCL's alltoall count is per peer: the trace's count is count * nranks, which wrapped
    // (2^63 x 2 = 0; (2^62 + 1) x 4 = 4 on four ranks).
    CHECK(import_error(init0 + init1 + coll2("AlltoAll", "9223372036854775808")) ==
          "L:3: count: alltoall count 9223372036854775808 per peer x 2 ranks exceeds the largest "
          "trace count, 2^48 = 281474976710656 elements");
    // The largest that fits: 2^47 per peer x 2.
    CHECK(import_error(init0 + init1 + coll2("AlltoAll", "140737488355328")) == "no error");
    CHECK(import_error(init0 + init1 + coll2("AlltoAll", "140737488355329")) ==
          "L:3: count: alltoall count 140737488355329 per peer x 2 ranks exceeds the largest "
          "trace count, 2^48 = 281474976710656 elements");
    CHECK(import_error(init0 + init1 + coll2("AllReduce", "281474976710657")) ==
          "L:3: count: 281474976710657 exceeds the largest trace count, 2^48 = 281474976710656 "
          "elements");
    // 2^64 does not fit the number itself.
    CHECK(import_error(init0 + init1 + coll2("AllReduce", "18446744073709551616")) ==
          "L:3: count: expected a decimal number 0..18446744073709551615, got "
          "'18446744073709551616'");
}

TEST_CASE("NCCL import: the trace checks name the log's lines, not the output's", "[trace]") {
    // Members that disagree (line 4 vs line 3) and a member without its COLL line: once
    // reported against lines of the .jsonl that was about to be written.
    CHECK(import_error(init0 + init1 + coll2("AllReduce", "4", "8")) ==
          "L:4: count: members of (comm 0, seq 0) disagree: 8 here, 4 at line 3 (rank 0)");
    CHECK(import_error(
              init0 + init1 +
              coll("h:1:1 [0]", "0xa", "AllReduce: opCount 5 count 4 datatype 7 op 0 root 0")) ==
          "L:3: seq: allreduce (comm 0, seq 5) has no record for global rank 1 (members of comm "
          "0: 0, 1)");
    std::istringstream in(init0 + init1 + coll2("AllReduce", "4"));
    const auto imp = ndr::trace::import_nccl_log(in, "L");
    REQUIRE(imp.t.records.size() == 2);
    CHECK(imp.t.records[0].line == 3);  // the log's lines
    CHECK(imp.t.records[1].line == 4);
    CHECK(imp.t.collectives.size() == 1);  // validated: the instances are built
}

TEST_CASE("NCCL import: a byte-order mark starts the file or nothing", "[trace]") {
    const std::string log = init0 + init1 + coll2("AllReduce", "4");
    std::istringstream plain(log), bom("\xEF\xBB\xBF" + log);
    const auto a = ndr::trace::import_nccl_log(plain, "L");
    const auto b = ndr::trace::import_nccl_log(bom, "L");
    // Before, the mark became part of the first process's name ("\xEF\xBB\xBFh:1").
    CHECK(b.comments == a.comments);
    CHECK(ndr::trace::to_jsonl(b.t) == ndr::trace::to_jsonl(a.t));
    CHECK(import_error(init0 + "\xEF\xBB\xBF" + init1) ==
          "L:2: log: a UTF-8 byte-order mark (EF BB BF) is allowed only at the start of the file");
}

TEST_CASE("NCCL import: memory grows with the INIT lines, not the nRanks they claim", "[trace]") {
    // 20,000 one-line communicators of 65,536 ranks each: 5 GB of rank slots before, when every
    // communicator was a dense vector of its nRanks.
    std::string log;
    for (int i = 0; i < 20000; ++i) {
        log += fmt::format("h:{}:1 [0] NCCL INFO comm 0x{:x} rank 0 nRanks 65536 commId 0x{:x}\n",
                           i, i + 16, i + 1);
    }
    // The missing ranks are listed up to 16, then counted.
    CHECK(import_error(log) ==
          "L:1: comm: commId 0x1: no INIT line for ranks 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, "
          "13, 14, 15, 16, ... (65535 in all) (the log must hold every rank's lines)");
}

namespace {

using placement_t = std::vector<std::array<uint32_t, 2>>;

ndr::trace::nccl_import import_text(const std::string& text, bool placement = true) {
    std::istringstream in(text);
    ndr::trace::nccl_import_options o;
    o.placement = placement;
    return ndr::trace::import_nccl_log(in, "L", o);
}

std::string import_error_opts(const std::string& text) {
    try {
        import_text(text);
    } catch (const ndr::trace::trace_error& e) {
        return e.what();
    }
    return "no error";
}

const std::string ar =
    "AllReduce: opCount 0 sendbuff 0x1 recvbuff 0x1 count 1024 datatype 7 op 0 root 0";

}  // namespace

TEST_CASE("NCCL import: several ranks on a host give the header placement", "[trace]") {
    // sample_4ranks.log: node1 runs ranks 0 (nvmlDev 0) and 1 (nvmlDev 1), node2 ranks 2 and 3
    // (nvmlDev 0, 1): node 0 = node1 (rank 0's host), node 1 = node2.
    const auto s = ndr::trace::import_nccl_log(sample);
    CHECK(s.t.placement == placement_t{{0, 0}, {0, 1}, {1, 0}, {1, 1}});
    CHECK(s.nodes == 2);
    CHECK(s.gpus_per_node == 2);

    // dgx_2nodes_8gpus.log (NCCL 2.18 lines): dgx-a's lines come first but hold ranks 8..15
    // (cudaDev k = nvmlDev k); dgx-b holds ranks 0..7, one process per GPU under
    // CUDA_VISIBLE_DEVICES (cudaDev 0 for all, nvmlDev k). Node 0 is rank 0's host, dgx-b;
    // the GPU is the nvmlDev: rank r < 8 on [0, r], rank 8 + k on [1, k].
    const auto d =
        ndr::trace::import_nccl_log(std::string(NDR_TEST_DATA_DIR) + "/nccl/dgx_2nodes_8gpus.log");
    placement_t want;
    for (uint32_t r = 0; r < 16; ++r) want.push_back({r < 8 ? 0u : 1u, r % 8});
    CHECK(d.t.nranks == 16);
    CHECK(d.t.placement == want);
    CHECK(d.nodes == 2);
    CHECK(d.gpus_per_node == 8);
    // Written and read back: the header carries it.
    std::istringstream back(ndr::trace::to_jsonl(d.t, d.comments));
    CHECK(ndr::trace::parse_trace(back, "imported").placement == want);

    // threads_2nodes_2gpus.log (NCCL 2.7-style `- Init COMPLETE` without nvmlDev or commId):
    // one process per host drives cudaDev 0 and 1; the GPU is the cudaDev.
    const auto o = ndr::trace::import_nccl_log(std::string(NDR_TEST_DATA_DIR) +
                                               "/nccl/threads_2nodes_2gpus.log");
    CHECK(o.t.placement == placement_t{{0, 0}, {0, 1}, {1, 0}, {1, 1}});
    CHECK(o.gpus_per_node == 2);
}

TEST_CASE("NCCL import: one rank per host writes no placement (one host per rank)", "[trace]") {
    const std::string log =
        "a:1:1 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 3 busId 1 commId 0x1 - "
        "Init COMPLETE\n"
        "b:2:2 [0] NCCL INFO comm 0xb rank 1 nranks 2 cudaDev 0 nvmlDev 5 busId 1 commId 0x1 - "
        "Init COMPLETE\n"
        "a:1:1 [0] NCCL INFO comm 0xa rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0\n"
        "b:2:2 [0] NCCL INFO comm 0xb rank 1 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0\n" +
        coll("a:1:1 [0]", "0xa", ar) + coll("b:2:2 [0]", "0xb", ar);
    const auto with = import_text(log, true);
    const auto without = import_text(log, false);
    CHECK(with.t.placement.empty());
    CHECK(with.nodes == 0);
    CHECK(ndr::trace::to_jsonl(with.t, with.comments) ==
          ndr::trace::to_jsonl(without.t, without.comments));
    // --no-placement keeps several ranks per host on hosts of their own, as before.
    const auto flat = ndr::trace::import_nccl_log(sample, {false});
    CHECK(flat.t.placement.empty());
    CHECK(flat.nodes == 0);
}

TEST_CASE("NCCL import: node lines that contradict the hosts are errors at their line", "[trace]") {
    const std::string i0 =
        "h:1:1 [0] NCCL INFO comm 0xa rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1 commId 0x1 - "
        "Init START\n";
    const std::string i1 =
        "h:2:2 [1] NCCL INFO comm 0xb rank 1 nranks 2 cudaDev 1 nvmlDev 1 busId 2 commId 0x1 - "
        "Init START\n";
    const std::string colls = coll("h:1:1 [0]", "0xa", ar) + coll("h:2:2 [1]", "0xb", ar);
    CHECK(import_error_opts(i0 + i1 + colls) == "no error");
    // Both ranks on host h, but the line says 2 nodes (hand count: 1 host).
    CHECK(import_error_opts(
              i0 + i1 +
              "h:1:1 [0] NCCL INFO comm 0xa rank 0 nRanks 2 nNodes 2 localRanks 2 localRank 0 "
              "MNNVL 0\n" +
              colls) == "L:3: nNodes: 2 here, but the 2 ranks of commId 0x1 are on 1 host ('h')");
    CHECK(import_error_opts(
              i0 + i1 +
              "h:2:2 [1] NCCL INFO comm 0xb rank 1 nRanks 2 nNodes 1 localRanks 8 localRank 1 "
              "MNNVL 0\n" +
              colls) == "L:3: localRanks: 8 here, but commId 0x1 has 2 ranks on host 'h' (0, 1)");
    CHECK(import_error_opts(
              i0 + i1 +
              "h:2:2 [1] NCCL INFO comm 0xb rank 1 nRanks 2 nNodes 1 localRanks 2 localRank 0 "
              "MNNVL 0\n" +
              colls) ==
          "L:3: localRank: 0 here, but rank 1 is local rank 1 of commId 0x1 on "
          "host 'h' (its ranks there: 0, 1)");
    // MNNVL != 0: NVLink spans hosts, the node view is not the hosts'; no check.
    CHECK(import_error_opts(i0 + i1 +
                            "h:2:2 [1] NCCL INFO comm 0xb rank 1 nRanks 2 nNodes 9 localRanks 9 "
                            "localRank 0 MNNVL 1\n" +
                            colls) == "no error");
    CHECK(import_error_opts(i0 +
                            "h:2:2 [1] NCCL INFO comm 0xb rank 1 nranks 2 cudaDev 1 nvmlDev 0 "
                            "busId 2 commId 0x1 - Init START\n" +
                            colls) ==
          "L:2: nvmlDev: rank 1 (process 'h:2') is on GPU 0 of host 'h' like rank 0 (process "
          "'h:1'): NCCL runs one rank per GPU (import with --no-placement for one host per rank)");
    CHECK(import_error_opts(i0 + i1 +
                            "h:2:2 [1] NCCL INFO comm 0xb rank 1 nranks 2 cudaDev 1 nvmlDev 4 "
                            "busId 2 commId 0x1 - Init COMPLETE\n" +
                            colls) ==
          "L:3: nvmlDev: 4 here, 1 at line 2 for the same process 'h:2' and cudaDev 1");
    CHECK(import_error_opts(i0 +
                            "h:2:2 [1] NCCL INFO comm 0xb rank 1 nranks 2 cudaDev 1 nvmlDev 64 "
                            "busId 2 commId 0x1 - Init START\n" +
                            colls) ==
          "L:2: nvmlDev: GPU 64 of host 'h' is above 63, the highest GPU index of a node "
          "(node.gpus 1..64)");
    CHECK(import_error_opts(i0 +
                            "h:2:2 [1] NCCL INFO comm 0xb rank 1 nranks 2 cudaDev 1 nvmlDev x1 "
                            "busId 2 commId 0x1 - Init START\n" +
                            colls) ==
          "L:2: nvmlDev: expected a decimal number 0..4294967295, got 'x1'");
    // Without nvmlDev the cudaDev is the GPU: two processes on cudaDev 0 of one host.
    CHECK(import_error_opts(init0 +
                            "h:2:2 [0] NCCL INFO comm 0xb rank 1 nRanks 2 nNodes 1 "
                            "localRanks 2 localRank 1 MNNVL 0\n" +
                            coll("h:1:1 [0]", "0xa", ar) + coll("h:2:2 [0]", "0xb", ar)) ==
          "L:2: cudaDev: rank 1 (process 'h:2') is on GPU 0 of host 'h' like rank 0 (process "
          "'h:1'): NCCL runs one rank per GPU (import with --no-placement for one host per rank)");
}

namespace {

const std::string excerpts = std::string(NDR_TEST_DATA_DIR) + "/nccl_excerpts/";

/// The ops of rank `r`, in order, as "op count" strings.
std::vector<std::string> ops_of(const ndr::trace::trace& t, uint32_t r) {
    std::vector<std::string> v;
    for (const auto& rec : t.records) {
        if (rec.rank == r) {
            v.push_back(fmt::format("{} {} seq {}", ndr::coll::name(rec.op), rec.count, rec.seq));
        }
    }
    return v;
}

}  // namespace

TEST_CASE("NCCL import: real excerpts without INIT lines replay their sequence on every rank",
          "[trace]") {
    // The expected sequences are read off the excerpts by hand (each file names its source).
    {
        // NVIDIA/nccl#203: two GPUs of one process print opCount 1a..1c; 1d only GPU 1.
        const auto imp = ndr::trace::import_nccl_log(excerpts + "nccl_issue_203.log");
        CHECK(imp.excerpt);
        CHECK(imp.t.nranks == 2);
        CHECK(imp.t.comms.size() == 1);
        const std::vector<std::string> want{"allreduce 64 seq 0", "allreduce 237184 seq 1",
                                            "allreduce 386560 seq 2", "allreduce 8192 seq 3"};
        CHECK(ops_of(imp.t, 0) == want);
        CHECK(ops_of(imp.t, 1) == want);
        CHECK(imp.coll_lines == 7);
        CHECK(imp.torn == 0);
        // both ranks printed by host gpu1, cudaDev 0 and 1: one node, GPUs 0 and 1
        using pl = std::vector<std::array<uint32_t, 2>>;
        CHECK(imp.t.placement == pl{{0, 0}, {0, 1}});
        CHECK(imp.nodes == 1);
        CHECK(imp.gpus_per_node == 2);
    }
    {
        // NVIDIA/nccl#1193: Ray prefixes, 3 of 128 ranks, opCounts 139d and 139e, last line torn.
        const auto imp = ndr::trace::import_nccl_log(excerpts + "nccl_issue_1193_ray.log");
        CHECK(imp.t.nranks == 128);
        CHECK(imp.torn == 1);
        CHECK(imp.coll_lines == 4);
        const std::vector<std::string> want{"allreduce 7382228 seq 0", "allreduce 7066572 seq 1"};
        CHECK(ops_of(imp.t, 0) == want);
        CHECK(ops_of(imp.t, 127) == want);
        CHECK(imp.t.records.size() == 2 * 128);
        CHECK(imp.t.placement.empty());  // 3 of 128 ranks shown: where the others run is unknown
    }
    {
        // NVIDIA/nccl#1238: quoted ("> "), one rank, opCount 0 three times = three ops.
        const auto imp = ndr::trace::import_nccl_log(excerpts + "nccl_issue_1238_quoted.log");
        CHECK(imp.t.nranks == 1);
        CHECK(ops_of(imp.t, 0) == std::vector<std::string>{"allreduce 33554432 seq 0",
                                                           "allreduce 33554432 seq 1",
                                                           "allreduce 33554432 seq 2"});
    }
    {
        // pytorch/torchtitan#1369: two views (GPU 0, GPU 1) of one TP group, merged.
        const auto imp = ndr::trace::import_nccl_log(excerpts + "torchtitan_issue_1369.log");
        CHECK(imp.t.comms.size() == 1);
        CHECK(ops_of(imp.t, 1) ==
              std::vector<std::string>{"allgather 2097152 seq 0", "reduce_scatter 2097152 seq 1",
                                       "allgather 2097152 seq 2", "allreduce 1 seq 3",
                                       "allreduce 1 seq 4"});
    }
}

TEST_CASE("NCCL import: an excerpt showing every rank is placed by host and cudaDev", "[trace]") {
    const std::string body =
        "AllReduce: opCount 5 sendbuff 0x1 recvbuff 0x1 datatype 7 op 0 root 0 count 4";
    // hosts in order of first line: b (node 0), a (node 1); ranks by (node, cudaDev)
    const auto coll4 = [&](const std::string& proc, const std::string& comm) {
        return proc + " NCCL INFO " + body + " comm " + comm + " [nranks=4] stream 0x1\n";
    };
    const std::string log = coll4("b:7:1 [3]", "0x1") + coll4("a:5:1 [1]", "0x2") +
                            coll4("b:8:1 [2]", "0x3") + coll4("a:6:1 [0]", "0x4");
    std::istringstream in(log);
    const auto imp = ndr::trace::import_nccl_log(in, "L");
    REQUIRE(imp.t.comms.size() == 1);
    using pl = std::vector<std::array<uint32_t, 2>>;
    CHECK(imp.t.placement == pl{{0, 2}, {0, 3}, {1, 0}, {1, 1}});
    CHECK(imp.nodes == 2);
    CHECK(imp.gpus_per_node == 4);
    // the same GPU of one host twice (two processes): no placement
    const std::string dup = coll("b:7:1 [0]", "0x1", body) + coll("b:8:1 [0]", "0x3", body);
    std::istringstream in2(dup);
    CHECK(ndr::trace::import_nccl_log(in2, "L").t.placement.empty());
    // one rank per host: none needed
    const std::string spread = coll("b:7:1 [0]", "0x1", body) + coll("a:8:1 [0]", "0x3", body);
    std::istringstream in3(spread);
    CHECK(ndr::trace::import_nccl_log(in3, "L").t.placement.empty());
}

TEST_CASE("NCCL import: excerpt views that disagree are separate communicators", "[trace]") {
    const std::string body =
        "AllReduce: opCount 5 sendbuff 0x1 recvbuff 0x1 datatype 7 op 0 root 0";
    const std::string log =
        coll("h:1:1 [0]", "0xa", body + " count 4") + coll("h:2:2 [1]", "0xb", body + " count 8") +
        coll("h:3:3 [2]", "0xc", body + " count 4") +
        "h:1:1 [0] NCCL INFO Send: opCount 6 sendbuff 0x1 recvbuff (nil) count 4 datatype 7 op 0 "
        "root 1 comm 0xa [nranks=2] stream 0x1\n";
    std::istringstream in(log);
    const auto imp = ndr::trace::import_nccl_log(in, "L");
    // 0xa and 0xc agree (count 4 at opCount 5), 0xb does not: two communicators of 2 ranks.
    CHECK(imp.t.comms.size() == 2);
    CHECK(imp.t.nranks == 2);
    CHECK(imp.p2p_skipped == 1);
    CHECK(ops_of(imp.t, 0) == std::vector<std::string>{"allreduce 4 seq 0", "allreduce 8 seq 0"});
    CHECK_THAT(
        import_error("h:1:1 [0] NCCL INFO AllReduce: opCount 0 count 4 datatype 7 op 0 "
                     "root 0 comm 0xa [nranks=zz] stream 0x1\n"),
        StartsWith("L:1: nranks: expected [nranks=N] with N in 1..65536, got '[nranks=zz]'"));
    CHECK_THAT(import_error("h:1:1 [0] NCCL INFO AllReduce: opCount 0 count 4 datatype 7 op 0 "
                            "root 0 comm 0xa\n"),
               StartsWith("L:1: comm: no complete collective line in the log (1 torn"));
}

TEST_CASE("NCCL import: an excerpt too large to replay on every rank is refused", "[trace]") {
    // 65 ops x 65,536 ranks = 4,259,840 records > 2^22 = 4,194,304: refused at the 65th line.
    std::string log;
    for (int i = 0; i < 65; ++i) {
        log += fmt::format(
            "h:1:1 [0] NCCL INFO AllReduce: opCount {:x} count 4 datatype 7 op 0 root 0 comm 0xa "
            "[nranks=65536] stream 0x1\n",
            i);
    }
    CHECK_THAT(import_error(log), StartsWith("L:65: nranks: replaying the excerpt on every rank"));
}

namespace {

/// An AllReduce COLL line with opCount `op_count` and `count` elements, RCCL's `task N
/// globalrank R` suffix after the stream.
std::string rccl_ar(const std::string& proc, const std::string& comm, const std::string& op_count,
                    const std::string& count, int rank) {
    return proc + " NCCL INFO AllReduce: opCount " + op_count +
           " sendbuff 0x1 recvbuff 0x1 count " + count + " datatype 7 op 0 root 0 comm " + comm +
           " [nranks=2] stream 0x1 task 0 " + "globalrank " + std::to_string(rank) + "\n";
}

}  // namespace

TEST_CASE("NCCL import: repeated opCounts in a full log follow each rank's lines in log order",
          "[trace]") {
    // Two iterations of (1 KiB, 4 KiB) allreduces whose opCount restarts at 0 (nccl#1238's
    // pattern), RCCL suffixes, and rank 1's lines interleaved late: four collectives, in the
    // order each rank issued them (1024, 4096, 1024, 4096 elements x 4 B).
    const std::string log =
        init0 + init1 + rccl_ar("h:1:1 [0]", "0xa", "0", "1024", 0) +
        rccl_ar("h:1:1 [0]", "0xa", "1", "4096", 0) + rccl_ar("h:2:2 [1]", "0xb", "0", "1024", 1) +
        rccl_ar("h:1:1 [0]", "0xa", "0", "1024", 0) + rccl_ar("h:2:2 [1]", "0xb", "1", "4096", 1) +
        rccl_ar("h:2:2 [1]", "0xb", "0", "1024", 1) + rccl_ar("h:1:1 [0]", "0xa", "1", "4096", 0) +
        rccl_ar("h:2:2 [1]", "0xb", "1", "4096", 1);
    const auto imp = import_text(log);
    CHECK(imp.repeated_op_count_comms == 1);
    REQUIRE(imp.t.collectives.size() == 4);
    const std::vector<uint64_t> want = {4096, 16384, 4096, 16384};
    for (std::size_t i = 0; i < 4; ++i) {
        CHECK(imp.t.collectives[i].seq == i);
        CHECK(imp.t.collectives[i].bytes == want[i]);
        CHECK(imp.t.collectives[i].ranks.size() == 2);
    }
    // Unique opCounts keep seq = opCount (hex 0x10 = 16), as before.
    const auto uniq = import_text(init0 + init1 + rccl_ar("h:1:1 [0]", "0xa", "10", "8", 0) +
                                  rccl_ar("h:2:2 [1]", "0xb", "10", "8", 1));
    CHECK(uniq.repeated_op_count_comms == 0);
    REQUIRE(uniq.t.collectives.size() == 1);
    CHECK(uniq.t.collectives[0].seq == 16);
    // Ranks whose sequences disagree are refused at the line where they part.
    CHECK(import_error(init0 + init1 + rccl_ar("h:1:1 [0]", "0xa", "0", "8", 0) +
                       rccl_ar("h:1:1 [0]", "0xa", "0", "8", 0) +
                       rccl_ar("h:2:2 [1]", "0xb", "1", "8", 1) +
                       rccl_ar("h:2:2 [1]", "0xb", "0", "8", 1)) ==
          "L:5: opCount: 1 in COLL line 1 of rank 1 on comm 0, but line 3 (rank 0) has opCount 0 "
          "there: with repeated opCounts the ranks' lines must show the same sequence");
}
