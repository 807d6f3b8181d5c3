// SL-to-VL per (input port, output port) (issue 15 item 6; docs/domain.md §3): switch.sl2vl_ports
// overrides the switch-wide table for chosen pairs, and an SL mapped to VL15 is dropped at the
// switch and counted (sl2vl_drops), at both model levels.
//
// Incast on an 8-port switch with one source: port 0 sends every packet to hot port 1, so
// every packet crosses the pair (0 -> 1) and nothing else (the hand count).
#include "cycle_test_util.h"

#include <string>

#include "sim_level.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

const std::string ALL_15 = "15,15,15,15,15,15,15,15,15,15,15,15,15,15,15,15";

nlohmann::json run_incast(const std::string& sl2vl_ports, const std::string& level) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const ndr::cfg::config c = ndr::cfg::load_config(
        "",
        {"switch.ports=8", "traffic.pattern=incast", "traffic.hot_port=1",
         "traffic.incast_sources=1", "traffic.load=0.5", "traffic.size=4096",
         "sim.warmup_cycles=1000", "sim.measure_cycles=20000", "sim.drain_cycles=5000",
         "sim.check_invariants=true", "switch.sl2vl_ports=" + sl2vl_ports, "sim.level=" + level});
    const ndr::tb::traffic_outcome o = ndr::tb::run_traffic_at_level(c);
    return ndr::tb::traffic_point_json(c, o);
}

void drops_the_pair(const std::string& level) {
    const nlohmann::json r = run_incast("0:1=" + ALL_15, level);
    const auto& pk = r["packets"];
    INFO("packets = " << pk.dump() << " switch = " << r["switch"].dump());
    REQUIRE(pk["injected"].get<uint64_t>() > 100);
    // Every packet that reached the switch crossed (0 -> 1): all of them are dropped.
    CHECK(pk["delivered"].get<uint64_t>() == 0);
    CHECK(r["switch"]["sl2vl_drops"].get<uint64_t>() ==
          pk["injected"].get<uint64_t>() - pk["in_flight"].get<uint64_t>());
    CHECK(pk["dropped"].get<uint64_t>() == r["switch"]["sl2vl_drops"].get<uint64_t>());
}

}  // namespace

TEST_CASE("sl2vl_ports: SL mapped to VL15 on (0 -> 1) drops exactly those packets (cycle)",
          "[cycle][sl2vl]") {
    drops_the_pair("cycle");
}

TEST_CASE("sl2vl_ports: SL mapped to VL15 on (0 -> 1) drops exactly those packets (tlm)",
          "[cycle][sl2vl]") {
    drops_the_pair("tlm");
}

TEST_CASE("sl2vl_ports: VL15 on a pair no packet crosses drops nothing", "[cycle][sl2vl]") {
    // (0 -> 2) and (*, 3) carry no traffic; (0 -> 1) keeps the switch-wide table.
    const nlohmann::json r = run_incast("0:2=" + ALL_15 + "; *:3=" + ALL_15, "cycle");
    const auto& pk = r["packets"];
    CHECK(r["switch"]["sl2vl_drops"].get<uint64_t>() == 0);
    CHECK(pk["dropped"].get<uint64_t>() == 0);
    CHECK(pk["delivered"].get<uint64_t>() + pk["in_flight"].get<uint64_t>() ==
          pk["injected"].get<uint64_t>());
    CHECK(pk["delivered"].get<uint64_t>() > 100);
}
