// `ndrsim run` with a link fault: a leaf-spine cable of a 2-level fat tree goes down in the
// middle of a ring allreduce (fault.link_down); the packets on it are lost, the subnet manager
// reroutes fault.reroute_delay later and RC retransmits what was lost (hca.ack_timeout 1 ms).
//
// Workload (tests/data/link_fault_ring16.jsonl): ring allreduce, 16 ranks, S = 8 MiB,
// fabric.topology fat_tree, switch.ports 8 (4 leaves of 4 hosts, 2 spines, 2 parallel cables
// per leaf-spine pair). Expectations by hand:
//   every rank sends 2(n-1) blocks of S/n to its ring successor, so
//   payload_bytes_delivered = n * 2(n-1) * S/n = 2 * 15 * 8 MiB = 251658240 B, exactly once
//   reroute_ns = down_ns + fault.reroute_delay = 100000 + 2000000 ns
// Static routing: the loss-free run ends in 0.36 ms, so the cable (host 0..3's leaf to spine
// sw4) carries ring traffic at 100 us and a run with it down cannot end before the reroute at
// 2.1 ms.
//
// Adaptive routing (routing.mode adaptive), the same cable: SHIELD's fast link fault recovery:
// both ends see the port leave the Active state and AR stops offering it, so every later
// packet takes another port of its group (leaf 0 has 3 more uplinks, spine 4 a second cable to
// leaf 0) and only what was already committed to the dead port is lost:
//   the collective ends long before the subnet manager's reroute at 100 us + 2 ms
//   packets lost <= what was committed to the cable when it went down, per direction: the
//   bytes on the 30 m leaf-spine cable (100 ns FEC + 30 m x 5 ns/m = 250 ns x 50 B/ns =
//   12,500 B), the egress staging buffer (switch.output_buffer 8 KiB) and the packet being
//   sent (4,160 B on the wire at most), in packets of one 64 B block at the least:
//   2 x ceil(24,852 / 64) = 778 (the static run loses thousands).
//
// One simulation per TEST_CASE.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "config/config_loader.h"
#include "run_report.h"
#include "run_sim.h"
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

constexpr uint32_t N = 16;
constexpr uint64_t S = 8ULL << 20;

struct fault_run {
    ndr::tb::run_outcome o;
    nlohmann::json rep;
};

/// Runs the ring with the cable down at 100 us (plus `extra` keys) and checks what holds for
/// every routing mode: one collective, done, every byte exactly once, one fault reported with
/// its reroute time, packets lost and retransmitted.
fault_run run_fault(std::vector<std::string> extra) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<std::string> sets = {"fabric.topology=fat_tree", "switch.ports=8",
                                     "sim.check_invariants=true", "hca.ack_timeout=1ms",
                                     "fault.link_down=sw0.p4->sw4.p0@100us"};
    sets.insert(sets.end(), extra.begin(), extra.end());
    const ndr::cfg::config c = ndr::cfg::load_config("", sets);
    const ndr::trace::trace tr =
        ndr::trace::load_trace(std::string(NDR_TEST_DATA_DIR) + "/link_fault_ring16.jsonl");
    fault_run r;
    REQUIRE_NOTHROW(r.o = ndr::tb::run_trace(c, tr));
    r.rep = ndr::tb::run_report_json(c, tr, r.o);
    INFO("hca = " << r.rep["hca"].dump() << " link_faults = " << r.rep["link_faults"].dump());
    REQUIRE(r.o.collectives.size() == 1);
    REQUIRE(r.o.collectives[0].done);
    const auto& h = r.o.hca;
    CHECK(h.messages_delivered == h.messages_posted);
    CHECK(h.payload_bytes_delivered == 2ULL * (N - 1) * S);  // every byte, exactly once
    REQUIRE(r.rep["link_faults"].size() == 1);
    const nlohmann::json& f = r.rep["link_faults"][0];
    CHECK(f["link"] == "sw0.p4->sw4.p0");
    CHECK(f["down_ns"].get<double>() == 100000.0);
    CHECK(f["reroute_ns"].get<double>() == 100000.0 + 2000000.0);
    CHECK(f["packets_lost"].get<uint64_t>() > 0);  // the cable carried ring traffic at 100 us
    CHECK(h.retransmitted_packets > 0);            // RC recovered the loss
    WARN("end " << r.rep["collectives"][0]["end_ns"].get<double>() << " ns, lost "
                << f["packets_lost"] << ", retransmitted " << h.retransmitted_packets
                << ", timeouts " << h.timeouts);
    return r;
}

TEST_CASE("link fault: ring allreduce 16 ranks 8 MiB leaf-spine cable down at 100us",
          "[run][fault]") {
    const fault_run r = run_fault({});
    CHECK(r.rep["collectives"][0]["end_ns"].get<double>() > 2100000.0);
}

TEST_CASE("link fault under AR: FLFR recovers before the reroute", "[run][fault][ar]") {
    const fault_run r = run_fault({"routing.mode=adaptive"});
    CHECK(r.rep["link_faults"][0]["packets_lost"].get<uint64_t>() <= 778);
    CHECK(r.rep["collectives"][0]["end_ns"].get<double>() < 2100000.0);
}

}  // namespace
