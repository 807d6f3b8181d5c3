// Shared helpers of the cycle-level switch tests (tests/cycle/*_test.cpp).
//
// Every TEST_CASE of these files runs exactly ONE simulation: SystemC elaborates once per
// process, and ctest runs each TEST_CASE in its own process (catch_discover_tests). No SECTION
// or GENERATE may wrap a simulation, and no SystemC object may live at namespace scope.
//
// Expectations in the tests are computed by hand from raw config numbers (rates, times, bytes)
// and published results, never from derive_timing() or other model code.
#pragma once
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "config/config_loader.h"
#include "config/sim_config.h"
#include "traffic_report.h"
#include "traffic_sim.h"

namespace ndr::test {

/// Builds a validated config from `key=value` overrides (on top of the defaults), checks that
/// this process has not simulated yet, runs ONE traffic simulation and returns its report
/// point (the fields of report.json, see testbench/traffic_report.h).
inline nlohmann::json run_point(const std::vector<std::string>& sets) {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    const cfg::config c = cfg::load_config("", sets);
    const tb::traffic_outcome o = tb::run_traffic(c);
    return tb::traffic_point_json(c, o);
}

/// ceil(a / b) for positive integers.
constexpr uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

/// Wire bytes of an RC SEND-only packet without GRH, per IBA vol. 1 ch. 7: LRH 8 + BTH 12 +
/// payload padded to 4 bytes + ICRC 4 + VCRC 2 (= payload + 26 B when already 4-aligned).
constexpr uint64_t ib_wire_bytes(uint64_t payload) {
    return 8 + 12 + ceil_div(payload, 4) * 4 + 4 + 2;
}

/// Beats (cycles on a link) of a packet: one beat = 64 B.
constexpr uint64_t beats_of(uint64_t payload) {
    return ceil_div(ib_wire_bytes(payload), 64);
}

/// Report value (a time in ns) converted back to whole cycles of `cycle_ps`; REQUIREs that the
/// value is a whole number of cycles (to 1e-6 ns).
inline uint64_t ns_to_cycles(double ns, uint64_t cycle_ps) {
    const double cycles = ns * 1000.0 / static_cast<double>(cycle_ps);
    const double whole = std::round(cycles);
    REQUIRE(std::fabs(cycles - whole) * static_cast<double>(cycle_ps) < 1e-3);
    return static_cast<uint64_t>(whole);
}

}  // namespace ndr::test
