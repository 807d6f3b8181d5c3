// rtl/xbar/ibs_xbar.sv, allocator-driven, against its beat scoreboard: the check of
// `ndrsim verify xbar` (rtl/xbar/xbar_check.cpp), its fault build and the assumptions.
#include <cstdint>

#include <catch2/catch.hpp>

#include "Vibs_xbar.h"
#include "verify/verilated_dut.h"
#include "xbar/xbar_check.h"

using ndr::verify::check_options;
using ndr::verify::check_result;

TEST_CASE("xbar RTL moves exactly the matched beats (allocator-driven, 60k random cycles)",
          "[rtl]") {
    check_options opt;
    opt.cycles = 60'000;
    ndr::verify::xbar_stats st;
    const check_result r = ndr::verify::run_xbar(opt, st, ndr::verify::model_build::plain);
    INFO((r.ok() ? "" : r.first_mismatch->what));
    REQUIRE(r.ok());
    CHECK(st.beats > 30'000);
    CHECK(st.stalls > 1'000);
    CHECK(st.bubbles > 1'000);
}

TEST_CASE("xbar check reports a stuck data bit (NDR_FAULT_XBAR build)", "[rtl]") {
    check_options opt;
    opt.cycles = 20'000;
    opt.fault = "stuck_bit";
    const check_result r = ndr::verify::check_xbar(opt);
    REQUIRE_FALSE(r.ok());
    CHECK(r.first_mismatch->port == 0);
    CHECK(r.first_mismatch->what == "out_data_o");
}

TEST_CASE("xbar RTL assumptions fire under --assert (select is not a matching)", "[rtl]") {
    ndr::verify::verilated_dut<Vibs_xbar> dut;
    auto& m = dut.m();
    m.in_valid_i = 0;
    m.out_ready_i = 0;
    m.sel_i = 0;
    dut.reset();
    m.sel_i = 1U | 1U << NDR_RTL_XBAR_NUM_PORTS;  // inputs 0 and 1 both drive output 0
    dut.settle();
    dut.edge();
    CHECK(dut.asserted());
}
