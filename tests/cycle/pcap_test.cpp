// `ndrsim run --pcap`: the packets of one cable, both directions, as ERF InfiniBand records
// (type 21) in a pcap with link type 197 (testbench/link_capture.h, pcap_writer.h,
// packet_bytes.h). The file is read back with a minimal pcap/ERF parser written here,
// independently of the writer, and every packet's ICRC and VCRC is checked with the golden
// parse_packet. If `tshark` is installed, it decodes the same file and its DLIDs, opcodes and
// PSNs must match; without tshark that part is skipped with a WARN (not a failure).
//
// Trace (2 ranks, single switch): rank 0 RDMA-WRITEs 10000 B to rank 1, then receives 100 B
// that rank 1 SENDs (the send/recv pair starts when both ranks have issued it, i.e. after
// rank 0's write has completed). Expected packets, by hand (hca.mtu 4096 B, hca.ack_coalesce
// 16: the responder ACKs every 16th packet and each message's last, models/cycle/hca_rx.cpp):
//   write: 10000 B = 4096 + 4096 + 1808 -> RDMA WRITE FIRST (RETH) / MIDDLE / LAST (a one-sided
//          rdma_write record is a plain RDMA WRITE: no ImmDt), PSN 0, 1, 2 from host 0; one
//          ACK (PSN 2) from host 1.
//   send:  100 B -> one SEND ONLY, PSN 0 from host 1; one ACK (PSN 0) from host 0.
//   Wire bytes (LRH 8 + BTH 12 + ext. headers + payload padded to 4 + ICRC 4 + VCRC 2):
//     FIRST 8+12+16+4096+6 = 4138; MIDDLE 8+12+4096+6 = 4122; LAST 8+12+1808+6 = 1834;
//     SEND_ONLY 8+12+100+6 = 126; ACK 8+12+4(AETH)+6 = 30.
//   Beats on the wire (64 B each): 4138 -> 65, 4122 -> 65, 1834 -> 29, 126 -> 2, 30 -> 1.
// Start cycles (cycle 1.28 ns; as in run_latency_test.cpp: TX = ceil(250 ns / 1.28 ns) = 196,
// LINK = ceil((100 ns FEC + 3 m * 5 ns/m) / 1.28 ns) = 90, SW = ceil(300 ns / 1.28 ns) = 235
// header in -> header out, cut-through; records issue at cycle 1 because replay timers fire
// strictly in the future, testbench/replay.cpp ready()):
//   host0 -> sw   FIRST      1 + TX                               = 197
//                 MIDDLE     197 + 65 (back to back)              = 262
//                 LAST       262 + 65                             = 327
//   sw -> host1   FIRST      197 + LINK + SW                      = 522, MIDDLE 587, LAST 652
//   host1 -> sw   write ACK  LAST's tail at host 1: 652 + LINK + 29 = 771 (sent at once)
//   sw -> host0   write ACK  771 + LINK + SW                      = 1096
//     the ACK's tail reaches host 0 at 1096 + LINK + 1 = 1187: the write completes; rank 0's
//     recv issues at 1188 and the SEND is posted on host 1 then:
//   host1 -> sw   SEND ONLY  1188 + TX                            = 1384
//   sw -> host0   SEND ONLY  1384 + LINK + SW                     = 1709
//   host0 -> sw   send ACK   SEND's tail at host 0: 1709 + LINK + 2 = 1801
//   sw -> host1   send ACK   1801 + LINK + SW                     = 2126
//
// One simulation per TEST_CASE (SystemC elaborates once per process).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include <systemc>

#include "../temp_dir.h"
#include "config/config_error.h"
#include "config/config_loader.h"
#include "golden/ib_packet.h"
#include "packet_bytes.h"
#include "pcap_writer.h"
#include "pinned_timing.h"
#include "run_sim.h"
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

constexpr uint64_t CYCLE_PS = 1280;

// ---- minimal pcap + ERF reader (independent of pcap_writer) --------------------------------
struct erf_record {
    uint32_t pcap_sec = 0;
    uint32_t pcap_nsec = 0;
    uint32_t incl_len = 0;
    uint32_t orig_len = 0;
    uint64_t erf_ts = 0;
    uint8_t type = 0;
    uint8_t flags = 0;
    uint16_t rlen = 0;
    uint16_t lctr = 0;
    uint16_t wlen = 0;
    std::vector<uint8_t> packet;
};

struct pcap_file {
    uint32_t magic = 0;
    uint16_t major = 0;
    uint16_t minor = 0;
    uint32_t snaplen = 0;
    uint32_t linktype = 0;
    std::vector<erf_record> records;
};

uint64_t le(const std::vector<uint8_t>& b, std::size_t at, int n) {
    REQUIRE(at + static_cast<std::size_t>(n) <= b.size());
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
    return v;
}
uint64_t be(const std::vector<uint8_t>& b, std::size_t at, int n) {
    REQUIRE(at + static_cast<std::size_t>(n) <= b.size());
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
    return v;
}

pcap_file read_pcap(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in.is_open());
    const std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)),
                                 std::istreambuf_iterator<char>());
    REQUIRE(b.size() >= 24);
    pcap_file f;
    f.magic = static_cast<uint32_t>(le(b, 0, 4));
    f.major = static_cast<uint16_t>(le(b, 4, 2));
    f.minor = static_cast<uint16_t>(le(b, 6, 2));
    f.snaplen = static_cast<uint32_t>(le(b, 16, 4));
    f.linktype = static_cast<uint32_t>(le(b, 20, 4));
    std::size_t at = 24;
    while (at < b.size()) {
        erf_record r;
        r.pcap_sec = static_cast<uint32_t>(le(b, at, 4));
        r.pcap_nsec = static_cast<uint32_t>(le(b, at + 4, 4));
        r.incl_len = static_cast<uint32_t>(le(b, at + 8, 4));
        r.orig_len = static_cast<uint32_t>(le(b, at + 12, 4));
        at += 16;
        REQUIRE(r.incl_len >= 16);
        REQUIRE(at + r.incl_len <= b.size());
        r.erf_ts = le(b, at, 8);
        r.type = b[at + 8];
        r.flags = b[at + 9];
        r.rlen = static_cast<uint16_t>(be(b, at + 10, 2));
        r.lctr = static_cast<uint16_t>(be(b, at + 12, 2));
        r.wlen = static_cast<uint16_t>(be(b, at + 14, 2));
        r.packet.assign(b.begin() + static_cast<std::ptrdiff_t>(at + 16),
                        b.begin() + static_cast<std::ptrdiff_t>(at + r.incl_len));
        at += r.incl_len;
        f.records.push_back(std::move(r));
    }
    return f;
}

/// ERF fixed-point timestamp -> picoseconds (nearest).
uint64_t erf_ts_to_ps(uint64_t ts) {
    const long double frac = static_cast<long double>(ts & 0xFFFFFFFFULL) / 4294967296.0L;
    return (ts >> 32) * 1'000'000'000'000ULL + static_cast<uint64_t>(std::llround(frac * 1e12L));
}

// ---- expectations ------------------------------------------------------------------------
struct expect_pkt {
    uint8_t iface;
    uint16_t dlid;
    uint16_t slid;
    uint8_t opcode;
    uint32_t psn;
    std::size_t wire;
    uint64_t cycle;  ///< start on the link
};

// ---- harness ----------------------------------------------------------------------------
std::vector<std::string> base_sets() {
    // Every number the expectations use, set explicitly (see the file comment).
    return ndr::test::pinned_timing_sets(
        {"hca.ack_coalesce=16", "fault.icrc_error_rate=0", "fabric.topology=single_switch"});
}

const char* const TRACE =
    "{\"type\":\"header\",\"version\":1,\"nranks\":2,\"name\":\"pcap\"}\n"
    "{\"type\":\"comm\",\"id\":0,\"ranks\":[0,1]}\n"
    "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":0,\"op\":\"rdma_write\",\"count\":10000,"
    "\"dtype\":\"uint8\",\"peer\":1}\n"
    "{\"type\":\"op\",\"rank\":1,\"comm\":0,\"seq\":1,\"op\":\"send\",\"count\":100,"
    "\"dtype\":\"uint8\",\"peer\":0}\n"
    "{\"type\":\"op\",\"rank\":0,\"comm\":0,\"seq\":1,\"op\":\"recv\",\"count\":100,"
    "\"dtype\":\"uint8\",\"peer\":1}\n";

std::string temp_path(const std::string& tag, const char* ext) {
    return ndr::test::temp_dir() + "ndrsim_pcap_test_" + tag + "_" +
           std::to_string(static_cast<long>(::getpid())) + ext;
}

/// Runs the trace with a capture of `link` into `pcap`; returns the outcome.
ndr::tb::run_outcome simulate(const std::string& tag, const std::string& pcap,
                              const std::string& link) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const ndr::cfg::config c = ndr::cfg::load_config("", base_sets());
    const std::string tpath = temp_path(tag, ".jsonl");
    {
        std::ofstream t(tpath);
        t << TRACE;
        REQUIRE(t.good());
    }
    const ndr::trace::trace tr = ndr::trace::load_trace(tpath);
    std::remove(tpath.c_str());
    ndr::tb::run_options opt;
    opt.pcap_path = pcap;
    opt.pcap_link = link;
    return ndr::tb::run_trace(c, tr, opt);
}

/// Checks the file against `want` (in file order) with the independent reader and the golden
/// CRC check; then with tshark if available.
void check_capture(const std::string& pcap, const std::vector<expect_pkt>& want) {
    const pcap_file f = read_pcap(pcap);
    CHECK(f.magic == 0xa1b23c4dU);  // nanosecond pcap, written little-endian
    CHECK(f.major == 2);
    CHECK(f.minor == 4);
    CHECK(f.snaplen == 65535);
    CHECK(f.linktype == 197);  // LINKTYPE_ERF
    REQUIRE(f.records.size() == want.size());

    uint64_t last_ps = 0;
    uint32_t data_qp = 0;
    for (std::size_t i = 0; i < f.records.size(); ++i) {
        const erf_record& r = f.records[i];
        const expect_pkt& w = want[i];
        INFO("record " << i);
        // pcap and ERF lengths.
        CHECK(r.incl_len == r.orig_len);
        CHECK(r.rlen == r.incl_len);
        CHECK(r.wlen == r.packet.size());
        CHECK(r.rlen == 16 + r.wlen);
        CHECK(r.wlen == w.wire);
        CHECK(r.type == 21);  // ERF TYPE_INFINIBAND, no extension header
        CHECK((r.flags & 0x03) == w.iface);
        CHECK((r.flags & 0x04) != 0);  // varying-length record
        CHECK((r.flags & 0xF8) == 0);  // no truncation/error bits
        CHECK(r.lctr == 0);
        // Timestamps: ERF and pcap header agree; non-decreasing; on whole cycles.
        const uint64_t ps = erf_ts_to_ps(r.erf_ts);
        const uint64_t pcap_ps = r.pcap_sec * 1'000'000'000'000ULL + r.pcap_nsec * 1000ULL;
        // pcap: truncated to 1 ns; ERF: rounded to 2^-32 s (233 ps).
        const long long skew = static_cast<long long>(ps) - static_cast<long long>(pcap_ps);
        CHECK(std::llabs(skew) < 1000 + 233);
        CHECK(ps >= last_ps);
        last_ps = ps;
        const uint64_t cyc = (ps + CYCLE_PS / 2) / CYCLE_PS;
        CHECK(std::llabs(static_cast<long long>(cyc * CYCLE_PS) - static_cast<long long>(ps)) <=
              233);
        CHECK(cyc == w.cycle);
        // The packet: golden parse, both CRCs, header fields.
        const ndr::golden::parsed_packet p = ndr::golden::parse_packet(r.packet);
        CHECK(p.icrc_ok);
        CHECK(p.vcrc_ok);
        CHECK(p.fields.lrh_hdr.dlid == w.dlid);
        CHECK(p.fields.lrh_hdr.slid == w.slid);
        CHECK(p.fields.lrh_hdr.pktlen * 4U + 2U == w.wire);
        CHECK(p.fields.bth_hdr.opcode == w.opcode);
        CHECK(p.fields.bth_hdr.psn == w.psn);
        CHECK(p.fields.bth_hdr.pkey == 0xFFFF);
        CHECK(p.fields.bth_hdr.destqp >= 2);  // not the SMI/GSI QPs
        const bool last = w.opcode == ndr::golden::RC_RDMA_WRITE_LAST ||
                          w.opcode == ndr::golden::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE ||
                          w.opcode == ndr::golden::RC_SEND_ONLY;
        CHECK(p.fields.bth_hdr.ackreq == last);
        for (std::size_t k = 0; k < p.payload_size; ++k) REQUIRE(p.payload[k] == 0);
        if (w.opcode == ndr::golden::RC_RDMA_WRITE_FIRST) {
            CHECK(p.payload_size == 4096);
            data_qp = p.fields.bth_hdr.destqp;
        }
        if (w.opcode == ndr::golden::RC_ACKNOWLEDGE) {
            CHECK(p.fields.aeth_hdr.syndrome == 0);  // ACK, not NAK
        }
    }
    // The write's ACK names the write's QP.
    for (std::size_t i = 0; i < f.records.size(); ++i) {
        const expect_pkt& w = want[i];
        if (w.opcode == ndr::golden::RC_ACKNOWLEDGE && w.psn == 2) {
            CHECK(ndr::golden::parse_packet(f.records[i].packet).fields.bth_hdr.destqp == data_qp);
        }
    }

    // tshark (optional: not part of the project's toolchain).
    if (std::system("command -v tshark >/dev/null 2>&1") != 0) {
        WARN("tshark not installed: skipping the Wireshark decode check of " << pcap);
        return;
    }
    const std::string out = pcap + ".tshark.txt";
    const std::string cmd = "tshark -r '" + pcap +
                            "' -T fields -e infiniband.lrh.dlid -e infiniband.bth.opcode "
                            "-e infiniband.bth.psn > '" +
                            out + "' 2>/dev/null";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream in(out);
    REQUIRE(in.is_open());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::remove(out.c_str());
    REQUIRE(lines.size() == want.size());
    for (std::size_t i = 0; i < lines.size(); ++i) {
        INFO("tshark line " << i << ": '" << lines[i] << "'");
        std::istringstream ls(lines[i]);
        std::string dlid;
        std::string opcode;
        std::string psn;
        REQUIRE(std::getline(ls, dlid, '\t'));
        REQUIRE(std::getline(ls, opcode, '\t'));
        REQUIRE(std::getline(ls, psn, '\t'));
        CHECK(std::stoul(dlid, nullptr, 0) == want[i].dlid);
        CHECK(std::stoul(opcode, nullptr, 0) == want[i].opcode);
        CHECK(std::stoul(psn, nullptr, 0) == want[i].psn);
    }
}

}  // namespace

TEST_CASE("pcap: host 0's uplink, both directions, CRCs verify, tshark agrees", "[cycle][pcap]") {
    const std::string pcap = temp_path("uplink", ".pcap");
    const ndr::tb::run_outcome o = simulate("uplink", pcap, "");
    CHECK(o.pcap_link == "host0->sw0.p0");
    CHECK(o.pcap_records == 6);
    using namespace ndr::golden;
    // In file (= time) order; see the file comment for the derivation. Interface 0 = host0->sw.
    const std::vector<expect_pkt> want = {
        {0, 2, 1, RC_RDMA_WRITE_FIRST, 0, 4138, 197}, {0, 2, 1, RC_RDMA_WRITE_MIDDLE, 1, 4122, 262},
        {0, 2, 1, RC_RDMA_WRITE_LAST, 2, 1834, 327},  {1, 1, 2, RC_ACKNOWLEDGE, 2, 30, 1096},
        {1, 1, 2, RC_SEND_ONLY, 0, 126, 1709},        {0, 2, 1, RC_ACKNOWLEDGE, 0, 30, 1801},
    };
    check_capture(pcap, want);
    std::remove(pcap.c_str());
}

TEST_CASE("pcap: a named switch-side link is interface 0, its reverse interface 1",
          "[cycle][pcap]") {
    const std::string pcap = temp_path("named", ".pcap");
    const ndr::tb::run_outcome o = simulate("named", pcap, "sw0.p1->host1");
    CHECK(o.pcap_link == "sw0.p1->host1");
    CHECK(o.pcap_records == 6);
    using namespace ndr::golden;
    // Host 1's cable: interface 0 = sw -> host1, interface 1 = host1 -> sw (file comment).
    const std::vector<expect_pkt> want = {
        {0, 2, 1, RC_RDMA_WRITE_FIRST, 0, 4138, 522}, {0, 2, 1, RC_RDMA_WRITE_MIDDLE, 1, 4122, 587},
        {0, 2, 1, RC_RDMA_WRITE_LAST, 2, 1834, 652},  {1, 1, 2, RC_ACKNOWLEDGE, 2, 30, 771},
        {1, 1, 2, RC_SEND_ONLY, 0, 126, 1384},        {0, 2, 1, RC_ACKNOWLEDGE, 0, 30, 2126},
    };
    check_capture(pcap, want);
    std::remove(pcap.c_str());
}

TEST_CASE("pcap: an unknown --pcap-link is a config error listing valid names", "[cycle][pcap]") {
    const std::string pcap = temp_path("unknown", ".pcap");
    try {
        simulate("unknown", pcap, "host9->sw0.p9");
        FAIL("no error for an unknown link");
    } catch (const ndr::cfg::config_error& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("--pcap-link") != std::string::npos);
        CHECK(msg.find("host9->sw0.p9") != std::string::npos);
        CHECK(msg.find("host0->sw0.p0") != std::string::npos);
        CHECK(msg.find("sw0.p0->host0") != std::string::npos);
    }
    std::remove(pcap.c_str());
}

TEST_CASE("pcap_writer: errors name the path, ERF timestamps round to 2^-32 s", "[pcap]") {
    const std::string bad = "/nonexistent_dir_ndrsim/x.pcap";
    try {
        ndr::tb::pcap_writer w(bad);
        FAIL("opened an impossible path");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find(bad) != std::string::npos);
    }
    ndr::tb::pcap_writer closed;
    CHECK_THROWS_AS(closed.write(0, std::vector<uint8_t>(30, 0)), std::runtime_error);
    // 0.5 s = 2^31; 1 s + 1 ns: fraction round(1e-9 * 2^32) = round(4.295) = 4.
    CHECK(ndr::tb::pcap_writer::erf_timestamp(500'000'000'000ULL) == 0x80000000ULL);
    CHECK(ndr::tb::pcap_writer::erf_timestamp(1'000ULL) == 4ULL);  // 1 ns
    CHECK(ndr::tb::pcap_writer::erf_timestamp(1'000'000'001'000ULL) == ((1ULL << 32) | 4ULL));
    // Just below a whole second rounds up into the next second.
    CHECK(ndr::tb::pcap_writer::erf_timestamp(1'999'999'999'999ULL) == (2ULL << 32));
}

TEST_CASE("pcap bytes: every HCA packet kind encodes, CRCs verify, NAK syndrome 0x60", "[pcap]") {
    using namespace ndr::golden;
    struct kind_case {
        uint8_t kind;  // ndr::tb::hca_packet_kind
        uint8_t opcode;
        uint32_t payload;
        bool reth;
        bool aeth;
        bool immdt;
        bool ackreq;
    };
    const auto data = static_cast<uint8_t>(ndr::tb::hca_packet_kind::data);
    const auto rreq = static_cast<uint8_t>(ndr::tb::hca_packet_kind::read_request);
    const auto rresp = static_cast<uint8_t>(ndr::tb::hca_packet_kind::read_response);
    const auto ack = static_cast<uint8_t>(ndr::tb::hca_packet_kind::ack);
    const auto nak = static_cast<uint8_t>(ndr::tb::hca_packet_kind::nak);
    const std::vector<kind_case> cases = {
        {data, RC_SEND_FIRST, 4096, false, false, false, false},
        {data, RC_SEND_MIDDLE, 4096, false, false, false, false},
        {data, RC_SEND_LAST, 7, false, false, false, true},  // 1 pad byte
        {data, RC_SEND_ONLY, 0, false, false, false, true},
        {data, RC_RDMA_WRITE_FIRST, 4096, true, false, false, false},
        {data, RC_RDMA_WRITE_MIDDLE, 4096, false, false, false, false},
        {data, RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, 1, false, false, true, true},
        {data, RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, 8, true, false, true, true},
        {rreq, RC_RDMA_READ_REQUEST, 0, true, false, false, true},
        {rresp, RC_RDMA_READ_RESPONSE_FIRST, 4096, false, true, false, false},
        {rresp, RC_RDMA_READ_RESPONSE_MIDDLE, 4096, false, false, false, false},
        {rresp, RC_RDMA_READ_RESPONSE_LAST, 3, false, true, false, false},
        {rresp, RC_RDMA_READ_RESPONSE_ONLY, 64, false, true, false, false},
        {ack, RC_ACKNOWLEDGE, 0, false, true, false, false},
        {nak, RC_ACKNOWLEDGE, 0, false, true, false, false},
    };
    for (const kind_case& k : cases) {
        INFO("opcode " << int{k.opcode} << " kind " << int{k.kind});
        ndr::cycle::packet p;
        p.kind = k.kind;
        p.opcode = k.opcode;
        p.src = 5;
        p.dst = 9;
        p.sl = 3;
        p.vl = 1;
        p.psn = 0xABCDEF;
        p.qp = 41;
        p.msg = 17;
        // The model's AckReq; a READ RESPONSE never shows it (a response), even when set.
        p.ack_req = k.ackreq || k.kind == rresp ? 1 : 0;
        p.payload_bytes = ndr::cycle::packet_bytes(k.payload);
        // By hand: LRH 8 + BTH 12 + RETH 16 / AETH 4 / ImmDt 4 + payload padded to 4 + 4 + 2.
        const uint32_t wire = 8 + 12 + (k.reth ? 16U : 0U) + (k.aeth ? 4U : 0U) +
                              (k.immdt ? 4U : 0U) + (k.payload + 3) / 4 * 4 + 4 + 2;
        p.wire_bytes = ndr::cycle::packet_bytes(wire);
        const std::vector<uint8_t> b = ndr::tb::wire_bytes_of(p);
        REQUIRE(b.size() == wire);
        const parsed_packet pp = parse_packet(b);
        CHECK(pp.icrc_ok);
        CHECK(pp.vcrc_ok);
        CHECK(pp.fields.lrh_hdr.dlid == 10);
        CHECK(pp.fields.lrh_hdr.slid == 6);
        CHECK(pp.fields.lrh_hdr.sl == 3);
        CHECK(pp.fields.lrh_hdr.vl == 1);
        CHECK(pp.fields.bth_hdr.psn == 0xABCDEF);
        CHECK(pp.fields.bth_hdr.destqp == 43);
        CHECK(pp.fields.bth_hdr.pkey == 0xFFFF);
        CHECK(pp.fields.bth_hdr.ackreq == k.ackreq);
        CHECK(pp.payload_size == k.payload);
        CHECK(pp.op.reth == k.reth);
        CHECK(pp.op.aeth == k.aeth);
        CHECK(pp.op.immdt == k.immdt);
        if (k.aeth) CHECK(pp.fields.aeth_hdr.syndrome == (k.kind == nak ? 0x60 : 0x00));
        if (k.reth) CHECK(pp.fields.reth_hdr.dma_len == k.payload);
        // A model/golden disagreement on the length is an error, not a silent capture.
        p.wire_bytes = ndr::cycle::packet_bytes(wire + 4);
        CHECK_THROWS_AS(ndr::tb::wire_bytes_of(p), std::logic_error);
    }
}
