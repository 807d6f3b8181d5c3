// rtl/switch_alloc/ibs_switch_alloc.sv against the golden rule (models/golden/switch_alloc.h):
// the check of `ndrsim verify switch_alloc` (rtl/switch_alloc/switch_alloc_check.cpp) and its
// fault build.
#include <cstdint>

#include <catch2/catch.hpp>

#include "Vibs_switch_alloc.h"
#include "switch_alloc/switch_alloc_check.h"
#include "verify/verilated_dut.h"

using ndr::verify::check_options;
using ndr::verify::check_result;

TEST_CASE("switch_alloc RTL matches the iSLIP / input-first reference for 100k random cycles",
          "[rtl]") {
    for (const uint64_t seed : {1U, 2U}) {
        check_options opt;
        opt.seed = seed;
        opt.cycles = 100'000;
        ndr::verify::switch_alloc_stats st;
        const check_result r =
            ndr::verify::run_switch_alloc(opt, st, ndr::verify::model_build::plain);
        INFO("seed " << seed << ": " << (r.ok() ? "" : r.first_mismatch->what));
        REQUIRE(r.ok());
        REQUIRE(r.cycles == opt.cycles);
        CHECK(st.matches > 100'000);
        CHECK(st.late_matches > 1'000);  // the further iterations are exercised
        CHECK(st.full_cycles > 1'000);
        CHECK(st.islip_cycles > 20'000);
        CHECK(st.islip_cycles < opt.cycles);
    }
}

TEST_CASE("switch_alloc check reports frozen pointers (NDR_FAULT_ARB build)", "[rtl]") {
    check_options opt;
    opt.cycles = 20'000;
    opt.fault = "freeze_ptr";
    const check_result r = ndr::verify::check_switch_alloc(opt);
    REQUIRE_FALSE(r.ok());
    // The first allocation moves a pointer, which the faulty RTL keeps.
    CHECK(r.first_mismatch->what.find("_ptr_o") != std::string::npos);
    CHECK(r.first_mismatch->port >= 0);
}

TEST_CASE("switch_alloc RTL hand-computed vector: two inputs take turns on output 0", "[rtl]") {
    // iSLIP, all pointers 0 after reset. Inputs 0 and 1 request output 0 every cycle: output 0
    // grants the first requester at/after its grant pointer and moves the pointer one past it,
    // so the grant alternates 0, 1, 0, 1 (iSLIP's round-robin fairness).
    constexpr unsigned P = NDR_RTL_SWITCH_ALLOC_NUM_PORTS;
    constexpr unsigned PTR_W = P <= 2 ? 1 : P <= 4 ? 2 : P <= 8 ? 3 : 4;
    ndr::verify::verilated_dut<Vibs_switch_alloc> dut;
    auto& m = dut.m();
    m.islip_i = 1;
    m.req_i = 0;
    dut.reset();
    m.req_i = 1U << (0 * P + 0) | 1U << (1 * P + 0);
    const uint32_t expected[] = {1U << (0 * P), 1U << (1 * P), 1U << (0 * P), 1U << (1 * P)};
    const unsigned gptr_after[] = {1, 2, 1, 2};
    for (int c = 0; c < 4; ++c) {
        dut.settle();
        CHECK(static_cast<uint32_t>(m.gnt_o) == expected[c]);
        dut.edge();
        CHECK((m.grant_ptr_o & ((1U << PTR_W) - 1)) == gptr_after[c]);
    }
    CHECK_FALSE(dut.asserted());
}
