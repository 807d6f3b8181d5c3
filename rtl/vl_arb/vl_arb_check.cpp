// `ndrsim verify vl_arb` (vl_arb_check.h).
//
// Random high and low tables (the high one empty a third of the time; weight-0 entries, repeated
// VLs, VLs without an entry, VLs in both tables) and LimitOfHighPriority (0, small, 255, any),
// loaded through the config port; random per-VL requests that come and go (idle VLs lose their
// turn), random wire sizes (overshoot), random sink back-pressure (held grants). The expected
// grant is the held one while the sink stalls, else golden pick(); golden commit() on every
// handshake. Every cycle: grant valid, VL, one-hot vector and table; both tables' current entry
// and bytes left; the high-priority bytes since the last low packet.
#include "vl_arb/vl_arb_check.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

#include "Vibs_vl_arb.h"
#include "Vibs_vl_arb_cov.h"
#include "Vibs_vl_arb_fault.h"
#include "golden/vl_arb.h"
#include "verify/mismatch_recorder.h"
#include "verify/verilated_dut.h"

namespace ndr::verify {

namespace {

using golden::vl_arb_entry;
using golden::vl_arb_table;
using golden::vl_arbiter;

constexpr int NUM_VLS = NDR_RTL_VL_ARB_NUM_VLS;
constexpr int NUM_ENTRIES = NDR_RTL_VL_ARB_NUM_ENTRIES;
constexpr int BYTES_W = 13;                           // ibs_vl_arb BytesW default
constexpr int LEFT_W = 16;                            // ibs_vl_arb LeftW for BytesW = 13
constexpr uint64_t HS_MAX = (uint64_t{1} << 21) - 1;  // ibs_vl_arb hi_sent_o saturation
static_assert(BYTES_W * NUM_VLS <= 64, "req_bytes_i is written as one 64-bit word");

/// The reset tables of ibs_vl_arb: low = golden equal_weights padded with weight-0 entries,
/// high = all weight 0 (VLs as the RTL resets them), limit 0.
vl_arb_table reset_table() {
    vl_arb_table t;
    t.low = vl_arb_table::equal_weights(NUM_VLS).low;
    t.low.resize(NUM_ENTRIES, vl_arb_entry{0, 0});
    for (int e = 0; e < NUM_ENTRIES; ++e) {
        t.high.push_back(vl_arb_entry{static_cast<uint8_t>(e < NUM_VLS ? e : 0), 0});
    }
    t.limit_of_high_priority = 0;
    return t;
}

int64_t sign_extend_left(uint32_t raw) {
    const uint32_t sign = 1U << (LEFT_W - 1);
    const uint32_t v = raw & ((1U << LEFT_W) - 1);
    return static_cast<int64_t>(v ^ sign) - static_cast<int64_t>(sign);
}

/// One config-port write: table, entry, VL, weight.
struct cfg_write {
    bool hi = false;
    int idx = 0;
    vl_arb_entry entry;
};

template <typename Model>
check_result run(const check_options& opt, vl_arb_stats& st) {
    check_result res;
    res.block = "vl_arb";
    st = vl_arb_stats{};
    st.per_vl.assign(NUM_VLS, 0);
    mismatch_recorder log;
    std::mt19937_64 rng(opt.seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    auto uniform = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };
    auto random_bytes = [&]() -> uint32_t {
        const uint32_t kind = uniform(0, 9);
        if (kind < 3) return 4096;                 // MTU payloads, multiple of 64
        if (kind < 5) return 64 * uniform(1, 64);  // other multiples of 64
        if (kind < 8) return uniform(1, 4222);     // any wire size up to an MTU packet
        return uniform(1, 300);                    // small
    };
    auto random_entries = [&](bool allow_empty) {
        std::vector<vl_arb_entry> t(NUM_ENTRIES);
        if (allow_empty && chance(0.33)) return t;  // weight 0 everywhere: table unused
        const int used = chance(0.3) ? static_cast<int>(uniform(1, NUM_ENTRIES)) : NUM_ENTRIES;
        bool any = false;
        for (int e = 0; e < NUM_ENTRIES; ++e) {
            t[e].vl = static_cast<uint8_t>(uniform(0, NUM_VLS - 1));
            const uint32_t k = uniform(0, 19);
            uint32_t w = k < 4    ? 0
                         : k < 11 ? uniform(1, 8)
                         : k < 16 ? uniform(9, 64)
                                  : uniform(65, 255);
            if (e >= used) w = 0;
            t[e].weight = static_cast<uint8_t>(w);
            any = any || w != 0;
        }
        if (!any) t[0].weight = 1;
        return t;
    };
    auto random_limit = [&]() -> uint8_t {
        const uint32_t k = uniform(0, 9);
        if (k < 3) return 0;
        if (k < 6) return static_cast<uint8_t>(uniform(1, 3));
        if (k < 7) return golden::VL_ARB_LIMIT_UNBOUNDED;
        return static_cast<uint8_t>(uniform(1, 254));
    };

    verilated_dut<Model> dut(opt.wave_path);
    auto& m = dut.m();
    m.cfg_we_i = 0;
    m.cfg_hi_i = 0;
    m.limit_i = 0;
    m.req_i = 0;
    m.req_bytes_i = 0;
    m.gnt_ready_i = 0;
    dut.reset();

    vl_arb_table table = reset_table();
    vl_arbiter golden(table);
    std::vector<bool> req(NUM_VLS, false);
    std::vector<uint32_t> bytes(NUM_VLS, 1);
    bool hold = false;
    int hold_vl = -1;
    bool hold_hi = false;
    double p_ready = 1.0;
    double p_req_on = 0.5;
    double p_req_off = 0.02;
    uint64_t next_reload = 3000;
    vl_arb_table loading;
    std::vector<cfg_write> writes;
    std::size_t load_pos = 0;
    bool load = false;
    uint8_t limit = 0;

    for (uint64_t cyc = 0; cyc < opt.cycles && log.ok(); ++cyc) {
        if (cyc % 2500 == 0) {
            const double ready_rates[] = {1.0, 0.8, 0.4, 0.05};
            p_ready = ready_rates[uniform(0, 3)];
            p_req_on = chance(0.5) ? 0.9 : 0.1;
            p_req_off = chance(0.5) ? 0.0 : 0.05;
        }
        // Table reload through the config port, one entry per cycle, only while no grant is
        // held: the low table, then the high table; the new limit from the first write on.
        if (!load && cyc >= next_reload && !hold) {
            loading.low = random_entries(false);
            loading.high = random_entries(true);
            loading.limit_of_high_priority = random_limit();
            writes.clear();
            for (int e = 0; e < NUM_ENTRIES; ++e) writes.push_back({false, e, loading.low[e]});
            for (int e = 0; e < NUM_ENTRIES; ++e) writes.push_back({true, e, loading.high[e]});
            load_pos = 0;
            load = true;
            limit = loading.limit_of_high_priority;
        }
        const cfg_write w = load ? writes[load_pos] : cfg_write{};
        m.cfg_we_i = load;
        m.cfg_hi_i = w.hi;
        m.cfg_idx_i = static_cast<uint8_t>(w.idx);
        m.cfg_vl_i = w.entry.vl;
        m.cfg_weight_i = w.entry.weight;
        m.limit_i = limit;

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

        // ---- compare -------------------------------------------------------------------------
        dut.settle();
        if (dut.asserted()) {
            log.assertion(cyc);
            break;
        }
        int exp_vl = -1;
        if (!load) exp_vl = hold ? hold_vl : golden.pick(mask);
        const bool exp_valid = exp_vl >= 0;
        // The table a grant comes from: golden commit's rule (a VL in both tables is served
        // from low iff the limit is reached).
        bool exp_hi = false;
        if (exp_valid && !hold) {
            const auto has = [&](const std::vector<vl_arb_entry>& t) {
                return std::any_of(t.begin(), t.end(), [&](const vl_arb_entry& e) {
                    return e.weight != 0 && e.vl == exp_vl;
                });
            };
            exp_hi = has(table.high) && !(has(table.low) && golden.high_limit_reached());
        } else if (exp_valid) {
            exp_hi = hold_hi;
        }
        log.check(cyc, -1, exp_vl, "gnt_valid_o", exp_valid, m.gnt_valid_o != 0);
        if (exp_valid) {
            log.check(cyc, -1, exp_vl, "gnt_vl_o", exp_vl, static_cast<int>(m.gnt_vl_o));
            log.check(cyc, -1, exp_vl, "gnt_hi_o", exp_hi, m.gnt_hi_o != 0);
        }
        log.check(cyc, -1, exp_vl, "gnt_o", exp_valid ? (1U << exp_vl) : 0U,
                  static_cast<uint32_t>(m.gnt_o));
        // While a table is being written the RTL restarts on every write; the golden arbiter
        // is rebuilt after the last one, so the state is compared only before the first write.
        if (!(load && load_pos > 0)) {
            log.check(cyc, -1, exp_vl, "cur_entry_o", golden.current_entry(false),
                      static_cast<std::size_t>(m.cur_entry_o));
            log.check(cyc, -1, exp_vl, "left_bytes_o", golden.weight_left_bytes(false),
                      sign_extend_left(m.left_bytes_o));
            log.check(cyc, -1, exp_vl, "hi_cur_entry_o", golden.current_entry(true),
                      static_cast<std::size_t>(m.hi_cur_entry_o));
            log.check(cyc, -1, exp_vl, "hi_left_bytes_o", golden.weight_left_bytes(true),
                      sign_extend_left(m.hi_left_bytes_o));
            log.check(cyc, -1, exp_vl, "hi_sent_o",
                      std::min<uint64_t>(golden.high_bytes_since_low(), HS_MAX),
                      static_cast<uint64_t>(m.hi_sent_o));
        }
        if (!log.ok()) break;

        // ---- edge, then the golden model takes the same step --------------------------------
        dut.edge();
        res.cycles = cyc + 1;
        if (load) {
            if (++load_pos == writes.size()) {
                table = loading;
                golden = vl_arbiter(table);
                load = false;
                ++st.reloads;
                next_reload = cyc + uniform(4000, 12000);
            }
        } else if (exp_valid && ready) {
            uint32_t hi_vls = 0;
            for (const vl_arb_entry& e : table.high) {
                if (e.weight != 0) hi_vls |= 1U << e.vl;
            }
            // Low sent while high had a ready VL: pre-empted by LimitOfHighPriority.
            if (!exp_hi && (mask & hi_vls) != 0) ++st.limit_preempts;
            const std::size_t idx_before = golden.current_entry(exp_hi);
            const int64_t left_before = golden.weight_left_bytes(exp_hi);
            golden.commit(exp_vl, bytes[exp_vl]);
            ++st.grants;
            ++st.per_vl[exp_vl];
            if (exp_hi) ++st.high_grants;
            if (golden.current_entry(exp_hi) != idx_before) {
                ++st.new_turns;
                if (left_before > 0) ++st.lost_weight;
            }
            if (golden.weight_left_bytes(exp_hi) <= 0) ++st.overshoots;
            hold = false;
            // Next packet on this VL: back to back, or the VL goes idle for a while.
            req[exp_vl] = chance(0.7);
            bytes[exp_vl] = random_bytes();
        } else if (exp_valid) {
            hold = true;
            hold_vl = exp_vl;
            hold_hi = exp_hi;
            ++st.stalls;
        }
    }
    res.comparisons = log.comparisons();
    res.first_mismatch = log.first();
    res.coverage = dut.coverage();
    return res;
}

}  // namespace

check_result run_vl_arb(const check_options& opt, vl_arb_stats& stats, model_build build) {
    if (opt.fault.empty() && build == model_build::plain) return run<Vibs_vl_arb>(opt, stats);
    if (opt.fault.empty()) return run<Vibs_vl_arb_cov>(opt, stats);
    if (opt.fault == "mis_rotate") return run<Vibs_vl_arb_fault>(opt, stats);
    throw std::invalid_argument("vl_arb: unknown fault \"" + opt.fault + "\" (valid: mis_rotate)");
}

check_result check_vl_arb(const check_options& opt) {
    vl_arb_stats stats;
    return run_vl_arb(opt, stats);
}

}  // namespace ndr::verify
