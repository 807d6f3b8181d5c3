// rtl/credit_fc/ib_credit_fc.sv against the golden credit_sender/credit_receiver: the check of
// `ndrsim verify credit_fc` (rtl/credit_fc/credit_fc_check.cpp), its fault-injected build,
// and the RTL assertions under Verilator --assert.
#include <cstdint>

#include <catch2/catch.hpp>

#include "Vib_credit_fc.h"
#include "credit_fc/credit_fc_check.h"
#include "verify/verilated_dut.h"

namespace {

using ndr::verify::check_options;
using ndr::verify::check_result;
using ndr::verify::credit_fc_stats;

constexpr int NUM_VLS = NDR_RTL_CREDIT_FC_NUM_VLS;
constexpr uint32_t BUF_BLOCKS = NDR_RTL_CREDIT_FC_BUF_BLOCKS;

}  // namespace

TEST_CASE("credit_fc RTL matches the golden sender/receiver for 120k random cycles", "[rtl]") {
    for (const uint64_t seed : {1U, 2U}) {
        check_options opt;
        opt.seed = seed;
        opt.cycles = 120'000;
        credit_fc_stats st;
        const check_result r = ndr::verify::run_credit_fc(opt, st, ndr::verify::model_build::plain);
        INFO("seed " << seed << ": " << (r.ok() ? "" : r.first_mismatch->what));
        REQUIRE(r.ok());
        REQUIRE(r.cycles == opt.cycles);
        CHECK(r.comparisons > opt.cycles * 5 * NUM_VLS);  // every output of every VL each cycle
        // The stimulus reached the corners it is meant to reach.
        for (int v = 0; v < NUM_VLS; ++v) {
            INFO("VL " << v << " FCTBS wraps");
            CHECK(st.wraps[v] >= 3);  // 12-bit wrap
        }
        CHECK(st.stalled_cycles > 1000);  // credit starvation
        CHECK(st.out_of_sync > 0);        // lost packets repaired by FCTBS sync
        CHECK(st.clamped > 0);            // more than 2048 blocks free: FCCL clamp
        CHECK(st.fc_updates > 1000);
    }
}

TEST_CASE("credit_fc check on the coverage build reports Verilator coverage", "[rtl]") {
    check_options opt;
    opt.cycles = 20'000;
    const check_result r = ndr::verify::check_credit_fc(opt);  // the build ndrsim verify runs
    REQUIRE(r.ok());
    CHECK(r.coverage.points > 100);
    CHECK(r.coverage.hit > r.coverage.points / 2);
    CHECK(r.coverage.hit <= r.coverage.points);
}

TEST_CASE("credit_fc check reports a dropped credit update (NDR_FAULT_CREDIT build)", "[rtl]") {
    check_options opt;
    opt.cycles = 20'000;
    opt.fault = "drop_credit";
    const check_result r = ndr::verify::check_credit_fc(opt);
    REQUIRE_FALSE(r.ok());
    // The first consequence of a dropped FC update is the sender's FCCL.
    CHECK(r.first_mismatch->what == "tx_fccl_o");
    CHECK(r.first_mismatch->vl >= 0);
    opt.fault = "no_such_fault";
    CHECK_THROWS_AS(ndr::verify::check_credit_fc(opt), std::invalid_argument);
}

TEST_CASE("credit_fc RTL assertions fire under --assert (buffer overflow)", "[rtl]") {
    ndr::verify::verilated_dut<Vib_credit_fc> dut;
    auto& m = dut.m();
    m.snd_valid_i = m.cr_valid_i = m.fr_valid_i = m.sy_valid_i = 0;
    dut.reset();
    // Receive 127-block packets on VL0 without freeing: the buffer overflows after 17 of them.
    m.rcv_valid_i = 1;
    m.rcv_vl_i = 0;
    m.rcv_blocks_i = 127;
    uint32_t received = 0;  // blocks accepted before the assertion fired
    for (int i = 0; i < 40; ++i) {
        dut.settle();
        dut.edge();
        if (dut.asserted()) break;
        received += 127;
    }
    REQUIRE(dut.asserted());
    CHECK(received <= BUF_BLOCKS);       // every accepted packet fitted
    CHECK(received + 127 > BUF_BLOCKS);  // and the first one that did not fit fired
}
