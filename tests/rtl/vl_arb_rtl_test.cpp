// rtl/vl_arb/ibs_vl_arb.sv against the golden vl_arbiter (models/golden/vl_arb.h, low table
// only), cycle by cycle, with Verilator --assert.
//
// Random tables (loaded through the config port, with weight-0 entries, repeated VLs, VLs
// without an entry), random per-VL requests that come and go (idle VLs lose their turn), random
// wire sizes (overshoot), random sink back-pressure (held grants). The expected grant is the held
// one while the sink stalls, else golden pick(); golden commit() on every handshake. Every cycle:
// grant valid, VL and one-hot vector, current entry and bytes left.
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "Vibs_vl_arb.h"
#include "golden/vl_arb.h"
#include "rtl_checker.h"

namespace {

using ndr::golden::vl_arb_entry;
using ndr::golden::vl_arb_table;
using ndr::golden::vl_arbiter;
using ndr::rtl_test::mismatch_log;
using ndr::rtl_test::verilated_dut;

constexpr int NUM_VLS = NDR_RTL_VL_ARB_NUM_VLS;
constexpr int NUM_ENTRIES = NDR_RTL_VL_ARB_NUM_ENTRIES;
constexpr int BYTES_W = 13;  // ibs_vl_arb BytesW default
constexpr int LEFT_W = 16;   // ibs_vl_arb LeftW for BytesW = 13
static_assert(BYTES_W * NUM_VLS <= 64, "req_bytes_i is written as one 64-bit word");

struct run_options {
    uint64_t seed = 1;
    uint64_t cycles = 120'000;
    /// From this cycle on, fault_mis_rotate_i = 1; 0 = no fault.
    uint64_t fault_from = 0;
};

struct run_result {
    std::string mismatch;
    uint64_t cycles_run = 0;
    uint64_t grants = 0;
    uint64_t stalls = 0;         ///< cycles a grant was held by back-pressure
    uint64_t new_turns = 0;      ///< commits that moved the pointer
    uint64_t lost_weight = 0;    ///< new turns while the previous entry still had bytes left
    uint64_t overshoots = 0;     ///< commits leaving a turn at <= 0 bytes
    uint64_t reloads = 0;        ///< tables loaded through the config port
    std::vector<uint64_t> per_vl = std::vector<uint64_t>(NUM_VLS, 0);
};

/// The reset table of ibs_vl_arb: golden equal_weights padded with weight-0 entries.
std::vector<vl_arb_entry> reset_table() {
    std::vector<vl_arb_entry> t = vl_arb_table::equal_weights(NUM_VLS).low;
    t.resize(NUM_ENTRIES, vl_arb_entry{0, 0});
    return t;
}

vl_arbiter make_golden(const std::vector<vl_arb_entry>& low) {
    vl_arb_table t;
    t.low = low;
    t.limit_of_high_priority = 0;
    return vl_arbiter(t);
}

int64_t sign_extend_left(uint32_t raw) {
    const uint32_t sign = 1U << (LEFT_W - 1);
    const uint32_t v = raw & ((1U << LEFT_W) - 1);
    return static_cast<int64_t>(v ^ sign) - static_cast<int64_t>(sign);
}

run_result run_vl_arb(const run_options& opt) {
    run_result res;
    mismatch_log log;
    std::mt19937_64 rng(opt.seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    auto uniform = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    auto random_bytes = [&]() -> uint32_t {
        const uint32_t kind = uniform(0, 9);
        if (kind < 3) return 4096;                  // MTU payloads, multiple of 64
        if (kind < 5) return 64 * uniform(1, 64);   // other multiples of 64
        if (kind < 8) return uniform(1, 4222);      // any wire size up to an MTU packet
        return uniform(1, 300);                     // small
    };
    auto random_table = [&]() {
        std::vector<vl_arb_entry> t(NUM_ENTRIES);
        const int used = chance(0.3) ? static_cast<int>(uniform(1, NUM_ENTRIES)) : NUM_ENTRIES;
        bool any = false;
        for (int e = 0; e < NUM_ENTRIES; ++e) {
            t[e].vl = static_cast<uint8_t>(uniform(0, NUM_VLS - 1));
            const uint32_t k = uniform(0, 19);
            uint32_t w = k < 4 ? 0 : k < 11 ? uniform(1, 8) : k < 16 ? uniform(9, 64)
                                                                   : uniform(65, 255);
            if (e >= used) w = 0;
            t[e].weight = static_cast<uint8_t>(w);
            any = any || w != 0;
        }
        if (!any) t[0].weight = 1;
        return t;
    };

    verilated_dut<Vibs_vl_arb> dut;
    auto& m = dut.m();
    m.cfg_we_i = 0;
    m.req_i = 0;
    m.req_bytes_i = 0;
    m.gnt_ready_i = 0;
    m.fault_mis_rotate_i = 0;
    dut.reset();

    vl_arbiter golden = make_golden(reset_table());
    std::vector<bool> req(NUM_VLS, false);
    std::vector<uint32_t> bytes(NUM_VLS, 1);
    bool hold = false;
    int hold_vl = -1;
    double p_ready = 1.0;
    double p_req_on = 0.5;
    double p_req_off = 0.02;
    uint64_t next_reload = 3000;
    std::vector<vl_arb_entry> loading;
    int load_pos = -1;  // entry being written, -1 = not loading

    for (uint64_t cyc = 0; cyc < opt.cycles && log.ok(); ++cyc) {
        if (cyc % 2500 == 0) {
            const double ready_rates[] = {1.0, 0.8, 0.4, 0.05};
            p_ready = ready_rates[uniform(0, 3)];
            p_req_on = chance(0.5) ? 0.9 : 0.1;
            p_req_off = chance(0.5) ? 0.0 : 0.05;
        }
        // Table reload through the config port, one entry per cycle, only while no grant is held.
        if (load_pos < 0 && cyc >= next_reload && !hold) {
            loading = random_table();
            load_pos = 0;
        }
        const bool cfg = load_pos >= 0;
        m.cfg_we_i = cfg;
        m.cfg_idx_i = static_cast<uint8_t>(cfg ? load_pos : 0);
        m.cfg_vl_i = static_cast<uint8_t>(cfg ? loading[load_pos].vl : 0);
        m.cfg_weight_i = static_cast<uint8_t>(cfg ? loading[load_pos].weight : 0);

        // Requests: a held VL keeps its request; others come and go (an idle VL loses its turn).
        uint32_t mask = 0;
        uint64_t bytes_word = 0;
        for (int v = 0; v < NUM_VLS; ++v) {
            if (!(hold && hold_vl == v)) {
                if (req[v] && chance(p_req_off)) {
                    req[v] = false;
                } else if (!req[v] && chance(p_req_on)) {
                    req[v] = true;
                    bytes[v] = random_bytes();
                }
            }
            if (req[v]) mask |= 1U << v;
            bytes_word |= uint64_t{bytes[v]} << (BYTES_W * v);
        }
        m.req_i = static_cast<uint8_t>(mask);
        m.req_bytes_i = bytes_word;
        const bool ready = chance(p_ready);
        m.gnt_ready_i = ready;
        m.fault_mis_rotate_i = (opt.fault_from != 0 && cyc >= opt.fault_from) ? 1 : 0;

        // ---- compare -------------------------------------------------------------------------
        dut.settle();
        if (dut.asserted()) {
            log.fail("cycle " + std::to_string(cyc) + ": RTL assertion failed (see output)");
            break;
        }
        int exp_vl = -1;
        if (!cfg) exp_vl = hold ? hold_vl : golden.pick(mask);
        const bool exp_valid = exp_vl >= 0;
        log.check(cyc, exp_vl, "gnt_valid_o", exp_valid, m.gnt_valid_o != 0);
        if (exp_valid) log.check(cyc, exp_vl, "gnt_vl_o", exp_vl, static_cast<int>(m.gnt_vl_o));
        log.check(cyc, exp_vl, "gnt_o", exp_valid ? (1U << exp_vl) : 0U,
                  static_cast<uint32_t>(m.gnt_o));
        // While a table is being written the RTL restarts on every write; the golden arbiter
        // is rebuilt after the last one, so the state is compared only before the first write.
        if (!(cfg && load_pos > 0)) {
            log.check(cyc, exp_vl, "cur_entry_o", golden.current_entry(false),
                      static_cast<std::size_t>(m.cur_entry_o));
            log.check(cyc, exp_vl, "left_bytes_o", golden.weight_left_bytes(false),
                      sign_extend_left(m.left_bytes_o));
        }
        if (!log.ok()) {
            res.cycles_run = cyc;
            break;
        }

        // ---- edge, then the golden model takes the same step --------------------------------
        dut.edge();
        if (cfg) {
            if (++load_pos == NUM_ENTRIES) {
                golden = make_golden(loading);
                load_pos = -1;
                ++res.reloads;
                next_reload = cyc + uniform(4000, 12000);
            }
        } else if (exp_valid && ready) {
            const std::size_t idx_before = golden.current_entry(false);
            const int64_t left_before = golden.weight_left_bytes(false);
            golden.commit(exp_vl, bytes[exp_vl]);
            ++res.grants;
            ++res.per_vl[exp_vl];
            if (golden.current_entry(false) != idx_before) {
                ++res.new_turns;
                if (left_before > 0) ++res.lost_weight;
            }
            if (golden.weight_left_bytes(false) <= 0) ++res.overshoots;
            hold = false;
            // Next packet on this VL: back to back, or the VL goes idle for a while.
            req[exp_vl] = chance(0.7);
            bytes[exp_vl] = random_bytes();
        } else if (exp_valid) {
            hold = true;
            hold_vl = exp_vl;
            ++res.stalls;
        }
        res.cycles_run = cyc + 1;
    }
    res.mismatch = log.first();
    return res;
}

}  // namespace

TEST_CASE("vl_arb RTL matches the golden low-table arbiter for 120k random cycles", "[rtl]") {
    for (const uint64_t seed : {1U, 2U}) {
        run_options opt;
        opt.seed = seed;
        const run_result r = run_vl_arb(opt);
        INFO("seed " << seed << ": " << r.mismatch);
        REQUIRE(r.mismatch.empty());
        REQUIRE(r.cycles_run == opt.cycles);
        CHECK(r.grants > 20'000);
        CHECK(r.stalls > 1'000);
        CHECK(r.new_turns > 1'000);
        CHECK(r.lost_weight > 100);
        CHECK(r.overshoots > 1'000);
        CHECK(r.reloads >= 5);
        for (int v = 0; v < NUM_VLS; ++v) CHECK(r.per_vl[v] > 0);
    }
}

TEST_CASE("vl_arb checker reports a mis-rotated arbiter (fault injection)", "[rtl]") {
    run_options opt;
    opt.cycles = 20'000;
    opt.fault_from = 5'000;
    const run_result r = run_vl_arb(opt);
    INFO(r.mismatch);
    REQUIRE_FALSE(r.mismatch.empty());
    CHECK(r.cycles_run >= opt.fault_from);
}

TEST_CASE("vl_arb RTL assertions fire under --assert (request dropped while granted)", "[rtl]") {
    verilated_dut<Vibs_vl_arb> dut;
    auto& m = dut.m();
    m.cfg_we_i = 0;
    m.fault_mis_rotate_i = 0;
    m.req_bytes_i = 64;
    m.gnt_ready_i = 0;
    dut.reset();
    m.req_i = 1;  // VL0 requests, the sink stalls: the grant is held
    dut.settle();
    REQUIRE(m.gnt_valid_o == 1);
    dut.edge();
    REQUIRE_FALSE(dut.asserted());
    m.req_i = 0;  // protocol violation: the held request disappears
    dut.settle();
    dut.edge();
    CHECK(dut.asserted());
}
