// `ndrsim run --pcap`: the packets of one cable, both directions, as ERF InfiniBand records
// (type 21) in a pcap with link type 197 (testbench/link_capture.h, pcap_writer.h,
// packet_bytes.h). The file is read back with a minimal pcap/ERF parser written here,
// independently of the writer, and every packet's ICRC and VCRC is checked with the golden
// parse_packet. If `tshark` is installed, it decodes the same file and its DLIDs, opcodes and
// PSNs must match; without tshark that part is skipped with a WARN (not a failure).
//
// Trace (2 ranks, single switch): rank 0 RDMA-WRITEs 10000 B to rank 1; at the same time rank 1
// SENDs 100 B to rank 0. Expected packets, by hand (hca.mtu 4096 B, hca.ack_coalesce 16: the
// responder ACKs every 16th packet and each message's last, models/cycle/hca_rx.cpp):
//   write: 10000 B = 4096 + 4096 + 1808 -> RDMA WRITE FIRST (RETH) / MIDDLE / LAST WITH
//          IMMEDIATE (ImmDt), PSN 0, 1, 2 from host 0; one ACK (PSN 2) from host 1.
//   send:  100 B -> one SEND ONLY, PSN 0 from host 1; one ACK (PSN 0) from host 0.
//   Wire bytes (LRH 8 + BTH 12 + ext. headers + payload padded to 4 + ICRC 4 + VCRC 2):
//     FIRST 8+12+16+4096+6 = 4138; MIDDLE 8+12+4096+6 = 4122; LAST_IMM 8+12+4+1808+6 = 1838;
//     SEND_ONLY 8+12+100+6 = 126; ACK 8+12+4(AETH)+6 = 30.
//   Link host0 -> sw (ERF interface 0): FIRST, MIDDLE, LAST_IMM (DLID 2), then the ACK of the
//   send (DLID 2). Link sw -> host0 (interface 1): SEND ONLY (DLID 1), then the write's ACK.
//   Times (as in run_latency_test.cpp, cycle 1.28 ns): the first write packet starts on host
//   0's link at TX = ceil(250 ns / 1.28 ns) = 196 cycles; the SEND starts on sw -> host0 at
//   TX + LINK + SW = 196 + ceil(115 ns / 1.28 ns) 90 + ceil(300 ns / 1.28 ns) 235 = 521 cycles.
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

#include "config/config_error.h"
#include "config/config_loader.h"
#include "golden/ib_packet.h"
#include "pcap_writer.h"
#include "run_sim.h"
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) { return 0; }

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
    return (ts >> 32) * 1'000'000'000'000ULL +
           static_cast<uint64_t>(std::llround(frac * 1e12L));
}

// ---- expectations ------------------------------------------------------------------------
struct expect_pkt {
    uint8_t iface;
    uint16_t dlid;
    uint16_t slid;
    uint8_t opcode;
    uint32_t psn;
    std::size_t wire;
};

// ---- harness ----------------------------------------------------------------------------
std::vector<std::string> base_sets() {
    // Every number the expectations use, set explicitly (see the file comment).
    return {"link.rate=400Gbps",         "switch.datapath_width=64B", "hca.tx_latency=250ns",
            "hca.rx_latency=250ns",      "link.fec_latency=100ns",    "link.cable_length=3m",
            "link.propagation_per_m=5ns", "switch.latency=300ns",     "switch.cut_through=true",
            "hca.mtu=4096B",             "hca.ack_coalesce=16",       "fault.icrc_error_rate=0",
            "fabric.topology=single_switch"};
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
    return "/tmp/ndrsim_pcap_test_" + tag + "_" + std::to_string(static_cast<long>(::getpid())) +
           ext;
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
void check_capture(const std::string& pcap, const std::vector<expect_pkt>& want,
                   uint64_t first_iface0_cycle, uint64_t first_iface1_cycle) {
    const pcap_file f = read_pcap(pcap);
    CHECK(f.magic == 0xa1b23c4dU);  // nanosecond pcap, written little-endian
    CHECK(f.major == 2);
    CHECK(f.minor == 4);
    CHECK(f.snaplen == 65535);
    CHECK(f.linktype == 197);  // LINKTYPE_ERF
    REQUIRE(f.records.size() == want.size());

    uint64_t last_ps = 0;
    bool seen[2] = {false, false};
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
        CHECK(r.type == 21);           // ERF TYPE_INFINIBAND, no extension header
        CHECK((r.flags & 0x03) == w.iface);
        CHECK((r.flags & 0x04) != 0);  // varying-length record
        CHECK((r.flags & 0xF8) == 0);  // no truncation/error bits
        CHECK(r.lctr == 0);
        // Timestamps: ERF and pcap header agree; non-decreasing; on whole cycles.
        const uint64_t ps = erf_ts_to_ps(r.erf_ts);
        const uint64_t pcap_ps = r.pcap_sec * 1'000'000'000'000ULL + r.pcap_nsec * 1000ULL;
        // pcap: truncated to 1 ns; ERF: rounded to 2^-32 s (233 ps).
        CHECK(std::llabs(static_cast<long long>(ps) - static_cast<long long>(pcap_ps)) < 1000 + 233);
        CHECK(ps >= last_ps);
        last_ps = ps;
        const uint64_t cyc = (ps + CYCLE_PS / 2) / CYCLE_PS;
        CHECK(std::llabs(static_cast<long long>(cyc * CYCLE_PS) - static_cast<long long>(ps)) <=
              233);
        if (!seen[w.iface]) {
            seen[w.iface] = true;
            CHECK(cyc == (w.iface == 0 ? first_iface0_cycle : first_iface1_cycle));
        }
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
        const bool last = w.opcode == ndr::golden::RC_RDMA_WRITE_LAST_WITH_IMMEDIATE ||
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
            CHECK(ndr::golden::parse_packet(f.records[i].packet).fields.bth_hdr.destqp ==
                  data_qp);
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
                            "-e infiniband.bth.psn > '" + out + "' 2>/dev/null";
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
        {0, 2, 1, RC_RDMA_WRITE_FIRST, 0, 4138},
        {0, 2, 1, RC_RDMA_WRITE_MIDDLE, 1, 4122},
        {0, 2, 1, RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, 2, 1838},
        {1, 1, 2, RC_SEND_ONLY, 0, 126},
        {0, 2, 1, RC_ACKNOWLEDGE, 0, 30},
        {1, 1, 2, RC_ACKNOWLEDGE, 2, 30},
    };
    check_capture(pcap, want, 196, 521);
    std::remove(pcap.c_str());
}

TEST_CASE("pcap: a named switch-side link is interface 0, its reverse interface 1",
          "[cycle][pcap]") {
    const std::string pcap = temp_path("named", ".pcap");
    const ndr::tb::run_outcome o = simulate("named", pcap, "sw0.p1->host1");
    CHECK(o.pcap_link == "sw0.p1->host1");
    CHECK(o.pcap_records == 6);
    using namespace ndr::golden;
    // Mirror image of the uplink case: host 1's SEND leaves host 1 at 196 cycles (interface 1),
    // the write's FIRST packet reaches sw -> host1 at 196 + 90 + 235 = 521 cycles (interface 0).
    const std::vector<expect_pkt> want = {
        {1, 1, 2, RC_SEND_ONLY, 0, 126},
        {0, 2, 1, RC_RDMA_WRITE_FIRST, 0, 4138},
        {0, 2, 1, RC_RDMA_WRITE_MIDDLE, 1, 4122},
        {0, 2, 1, RC_RDMA_WRITE_LAST_WITH_IMMEDIATE, 2, 1838},
        {0, 2, 1, RC_ACKNOWLEDGE, 0, 30},
        {1, 1, 2, RC_ACKNOWLEDGE, 2, 30},
    };
    check_capture(pcap, want, 521, 196);
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

TEST_CASE("pcap_writer: errors name the path; ERF timestamps round to 2^-32 s", "[pcap]") {
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
