// rtl/switch_alloc/ibs_switch_alloc.sv against the C++ transcription of the cycle model's
// allocation rules (switch_alloc_ref.h, models/cycle/ib_switch_alloc.cpp), cycle by cycle, with
// Verilator --assert.
//
// Random request matrices: sparse to full, persistent (a VOQ backlog whose matched pairs drain)
// and fresh every cycle; iSLIP and input-first modes switched between phases. Every cycle: the
// matching and every grant and accept pointer.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "Vibs_switch_alloc.h"
#include "rtl_checker.h"
#include "switch_alloc_ref.h"

namespace {

using ndr::rtl_test::mismatch_log;
using ndr::rtl_test::switch_alloc_ref;
using ndr::rtl_test::verilated_dut;

constexpr unsigned PORTS = NDR_RTL_SWITCH_ALLOC_NUM_PORTS;
constexpr unsigned ITERATIONS = NDR_RTL_SWITCH_ALLOC_ITERATIONS;
constexpr unsigned PTR_W = PORTS <= 2 ? 1 : PORTS <= 4 ? 2 : PORTS <= 8 ? 3 : 4;
static_assert(PORTS * PORTS <= 32, "req_i/gnt_o are read as one 32-bit word");

struct run_options {
    uint64_t seed = 1;
    uint64_t cycles = 100'000;
    uint64_t fault_from = 0;  ///< from this cycle on, fault_freeze_ptr_i = 1; 0 = no fault
};

struct run_result {
    std::string mismatch;
    uint64_t cycles_run = 0;
    uint64_t matches = 0;
    uint64_t late_matches = 0;  ///< iSLIP matches after the first iteration
    uint64_t full_cycles = 0;   ///< cycles with a perfect matching of all ports
    uint64_t islip_cycles = 0;
};

run_result run_switch_alloc(const run_options& opt) {
    run_result res;
    mismatch_log log;
    std::mt19937_64 rng(opt.seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };

    verilated_dut<Vibs_switch_alloc> dut;
    auto& m = dut.m();
    m.islip_i = 1;
    m.req_i = 0;
    m.fault_freeze_ptr_i = 0;
    dut.reset();

    switch_alloc_ref ref(PORTS, ITERATIONS);
    std::vector<uint32_t> req(PORTS, 0);
    bool islip = true;
    bool persistent = true;
    double density = 0.5;
    for (uint64_t cyc = 0; cyc < opt.cycles && log.ok(); ++cyc) {
        if (cyc % 2000 == 0) {
            islip = chance(0.75);
            persistent = chance(0.5);
            const double densities[] = {0.05, 0.2, 0.5, 0.9, 1.0};
            density = densities[std::uniform_int_distribution<int>(0, 4)(rng)];
        }
        // Requests: fresh, or a backlog topped up at `density` per cycle.
        for (unsigned i = 0; i < PORTS; ++i) {
            if (!persistent) req[i] = 0;
            for (unsigned o = 0; o < PORTS; ++o) {
                if (chance(persistent ? density * 0.3 : density)) req[i] |= 1U << o;
            }
        }
        uint32_t word = 0;
        for (unsigned i = 0; i < PORTS; ++i) word |= req[i] << (PORTS * i);
        m.req_i = word;
        m.islip_i = islip;
        m.fault_freeze_ptr_i = (opt.fault_from != 0 && cyc >= opt.fault_from) ? 1 : 0;
        dut.settle();

        const std::vector<uint32_t> match = ref.allocate(req, islip, &res.late_matches);
        uint32_t exp = 0;
        unsigned n_match = 0;
        for (unsigned i = 0; i < PORTS; ++i) {
            exp |= match[i] << (PORTS * i);
            n_match += match[i] != 0;
        }
        log.check(cyc, -1, "gnt_o", exp, static_cast<uint32_t>(m.gnt_o));
        // Pointers are registers: compared after the edge with the reference's updated values.
        const uint64_t mask = (1U << PTR_W) - 1;
        dut.edge();
        if (dut.asserted()) {
            log.fail("cycle " + std::to_string(cyc) + ": RTL assertion failed (see output)");
        }
        for (unsigned p = 0; p < PORTS; ++p) {
            log.check(cyc, static_cast<int>(p), "grant_ptr_o", ref.grant_ptr(p),
                      static_cast<unsigned>((m.grant_ptr_o >> (PTR_W * p)) & mask));
            log.check(cyc, static_cast<int>(p), "accept_ptr_o", ref.accept_ptr(p),
                      static_cast<unsigned>((m.accept_ptr_o >> (PTR_W * p)) & mask));
        }
        if (!log.ok()) {
            res.cycles_run = cyc;
            break;
        }
        res.matches += n_match;
        res.full_cycles += n_match == PORTS;
        res.islip_cycles += islip;
        if (persistent) {  // matched pairs drain with probability 1/2 (multi-beat packets)
            for (unsigned i = 0; i < PORTS; ++i) {
                if (match[i] != 0 && chance(0.5)) req[i] &= ~match[i];
            }
        }
        res.cycles_run = cyc + 1;
    }
    res.mismatch = log.first();
    return res;
}

}  // namespace

TEST_CASE("switch_alloc RTL matches the iSLIP / input-first reference for 100k random cycles",
          "[rtl]") {
    for (const uint64_t seed : {1U, 2U}) {
        run_options opt;
        opt.seed = seed;
        const run_result r = run_switch_alloc(opt);
        INFO("seed " << seed << ": " << r.mismatch);
        REQUIRE(r.mismatch.empty());
        REQUIRE(r.cycles_run == opt.cycles);
        CHECK(r.matches > 100'000);
        CHECK(r.late_matches > 1'000);  // the further iterations are exercised
        CHECK(r.full_cycles > 1'000);
        CHECK(r.islip_cycles > 20'000);
        CHECK(r.islip_cycles < opt.cycles);
    }
}

TEST_CASE("switch_alloc checker reports frozen pointers (fault injection)", "[rtl]") {
    run_options opt;
    opt.cycles = 20'000;
    opt.fault_from = 5'000;
    const run_result r = run_switch_alloc(opt);
    INFO(r.mismatch);
    REQUIRE_FALSE(r.mismatch.empty());
    CHECK(r.cycles_run >= opt.fault_from);
}
