// `ndrsim run` with a link fault under adaptive routing (routing.mode adaptive): the workload
// and cable of link_fault_test.cpp (ring allreduce, 16 ranks, 8 MiB, fat tree of radix-8
// switches, leaf 0's uplink sw0.p4->sw4.p0 down at 100 us), now with SHIELD's fast link fault
// recovery: both ends see the port leave the Active state and AR stops offering it, so every
// later packet takes another port of its group (leaf 0 has 3 more uplinks, spine 4 a second
// cable to leaf 0) and only what was already committed to the dead port is lost.
// Expectations by hand:
//   payload_bytes_delivered = 2 (n-1) S = 251658240 B, exactly once (as without AR)
//   the collective ends long before the subnet manager's reroute at 100 us + 2 ms: nothing
//   has to wait for it (the static run cannot end before 2.1 ms, link_fault_test.cpp)
//   packets lost <= what was committed to the cable when it went down, per direction: the
//   bytes on the 30 m leaf-spine cable (100 ns FEC + 30 m x 5 ns/m = 250 ns x 50 B/ns =
//   12,500 B), the egress staging buffer (switch.output_buffer 8 KiB) and the packet being
//   sent (4,160 B on the wire at most), in packets of one 64 B block at the least:
//   2 x ceil(24,852 / 64) = 778. (The static run of link_fault_test loses 3,022.)
// One simulation per TEST_CASE.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

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

TEST_CASE("link fault under AR: FLFR recovers before the reroute", "[run][fault][ar]") {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const ndr::cfg::config c =
        ndr::cfg::load_config("", {"fabric.topology=fat_tree", "switch.ports=8",
                                   "sim.check_invariants=true", "routing.mode=adaptive",
                                   "hca.ack_timeout=1ms", "fault.link_down=sw0.p4->sw4.p0@100us"});
    const ndr::trace::trace tr =
        ndr::trace::load_trace(std::string(NDR_TEST_DATA_DIR) + "/link_fault_ring16.jsonl");

    ndr::tb::run_outcome o;
    REQUIRE_NOTHROW(o = ndr::tb::run_trace(c, tr));
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, o);
    INFO("hca = " << rep["hca"].dump() << " link_faults = " << rep["link_faults"].dump());
    REQUIRE(o.collectives.size() == 1);
    REQUIRE(o.collectives[0].done);
    const auto& h = o.hca;
    CHECK(h.messages_delivered == h.messages_posted);
    CHECK(h.payload_bytes_delivered == 2ULL * (N - 1) * S);  // every byte, exactly once
    REQUIRE(rep["link_faults"].size() == 1);
    const nlohmann::json& f = rep["link_faults"][0];
    CHECK(f["reroute_ns"].get<double>() == 100000.0 + 2000000.0);
    const uint64_t lost = f["packets_lost"].get<uint64_t>();
    CHECK(lost > 0);  // the cable carried ring traffic at 100 us
    CHECK(lost <= 778);
    CHECK(h.retransmitted_packets >= lost);
    CHECK(rep["collectives"][0]["end_ns"].get<double>() < 2100000.0);
    WARN("link fault under AR: end " << rep["collectives"][0]["end_ns"].get<double>()
                                     << " ns, lost " << lost << ", retransmitted "
                                     << h.retransmitted_packets << ", timeouts " << h.timeouts);
}

}  // namespace
