// `ndrsim verify xbar` (xbar_check.h).
//
// Per input one virtual output queue per output of numbered beats (input, output, sequence);
// the allocator matches the non-empty VOQs; each matched input offers its VOQ head (with random
// bubbles), outputs take beats under random back-pressure (phases of 1500 cycles, arrival rate
// 0.02..0.6, ready 0.1..1). Every cycle: out_valid_o, out_data_o and in_ready_o of every port
// against the matching, and each moved beat against its (input, output) sequence. The last 2000
// cycles only drain: at the end every beat has arrived exactly once, in order.
#include "xbar/xbar_check.h"

#include <deque>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vibs_switch_alloc.h"
#include "Vibs_xbar.h"
#include "Vibs_xbar_cov.h"
#include "Vibs_xbar_fault.h"
#include "verify/mismatch_recorder.h"
#include "verify/verilated_dut.h"

namespace ndr::verify {

namespace {

constexpr unsigned PORTS = NDR_RTL_XBAR_NUM_PORTS;
constexpr unsigned DATA_W = NDR_RTL_XBAR_DATA_W;
static_assert(DATA_W == 32, "one 32-bit word of the wide data ports per beat");
static_assert(PORTS == NDR_RTL_SWITCH_ALLOC_NUM_PORTS, "allocator and crossbar share the ports");

uint32_t beat(unsigned in, unsigned out, uint32_t seq) {
    return in << 28 | out << 24 | seq;
}

template <typename Model>
check_result run(const check_options& opt, xbar_stats& st) {
    check_result res;
    res.block = "xbar";
    st = xbar_stats{};
    mismatch_recorder log;
    std::mt19937_64 rng(opt.seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };

    verilated_dut<Vibs_switch_alloc> alloc;
    verilated_dut<Model> xbar(opt.wave_path);
    auto& a = alloc.m();
    auto& x = xbar.m();
    a.islip_i = 1;
    a.req_i = 0;
    x.sel_i = 0;
    x.in_valid_i = 0;
    x.out_ready_i = 0;
    alloc.reset();
    xbar.reset();

    std::vector<std::deque<uint32_t>> voq(PORTS * PORTS);  // [i * PORTS + o]
    std::vector<uint32_t> next_seq(PORTS * PORTS, 0);
    std::vector<uint32_t> rcv_seq(PORTS * PORTS, 0);
    double p_arrive = 0.3;
    double p_ready = 0.8;
    const uint64_t cycles = opt.cycles;
    for (uint64_t cyc = 0; cyc < cycles && log.ok(); ++cyc) {
        const bool draining = cyc + 2000 >= cycles;
        if (cyc % 1500 == 0) {
            const double arrive[] = {0.02, 0.1, 0.3, 0.6};
            const double ready[] = {1.0, 0.9, 0.5, 0.1};
            p_arrive = arrive[std::uniform_int_distribution<int>(0, 3)(rng)];
            p_ready = ready[std::uniform_int_distribution<int>(0, 3)(rng)];
        }
        for (unsigned q = 0; q < PORTS * PORTS; ++q) {
            if (!draining && chance(p_arrive / PORTS)) {
                voq[q].push_back(beat(q / PORTS, q % PORTS, next_seq[q]++ & 0xFFFFFF));
            }
        }
        uint32_t req = 0;
        for (unsigned q = 0; q < PORTS * PORTS; ++q) req |= (voq[q].empty() ? 0U : 1U) << q;
        a.req_i = req;
        alloc.settle();
        const uint32_t sel = a.gnt_o;

        // Drive the crossbar from the matching.
        std::vector<int> out_of(PORTS, -1);
        std::vector<int> in_of(PORTS, -1);
        for (unsigned q = 0; q < PORTS * PORTS; ++q) {
            if (sel >> q & 1U) {
                out_of[q / PORTS] = static_cast<int>(q % PORTS);
                in_of[q % PORTS] = static_cast<int>(q / PORTS);
            }
        }
        uint32_t in_valid = 0;
        uint32_t out_ready = 0;
        for (unsigned i = 0; i < PORTS; ++i) {
            const bool v = chance(0.9);
            if (v) in_valid |= 1U << i;
            // Payload: the VOQ head of the matched output; junk on unmatched or idle inputs.
            x.in_data_i[i] = (out_of[i] >= 0 && v) ? voq[i * PORTS + out_of[i]].front()
                                                   : static_cast<uint32_t>(rng());
            if (chance(draining ? 1.0 : p_ready)) out_ready |= 1U << i;
        }
        x.sel_i = sel;
        x.in_valid_i = static_cast<uint8_t>(in_valid);
        x.out_ready_i = static_cast<uint8_t>(out_ready);
        xbar.settle();

        // Reference and scoreboard.
        for (unsigned o = 0; o < PORTS; ++o) {
            const int i = in_of[o];
            const bool exp_valid = i >= 0 && (in_valid >> i & 1U);
            const uint32_t exp_data = exp_valid ? voq[i * PORTS + o].front()
                                      : i >= 0  ? static_cast<uint32_t>(x.in_data_i[i])
                                                : 0U;
            const int port = static_cast<int>(o);
            log.check(cyc, port, -1, "out_valid_o", exp_valid, (x.out_valid_o >> o & 1U) != 0);
            log.check(cyc, port, -1, "out_data_o", exp_data,
                      static_cast<uint32_t>(x.out_data_o[o]));
            if (exp_valid && (out_ready >> o & 1U)) {
                // The beat moves: it must be the next one of its (input, output) pair.
                const uint32_t got = x.out_data_o[o];
                const unsigned q = static_cast<unsigned>(i) * PORTS + o;
                log.check(cyc, port, -1, "beat (in, out, seq)",
                          beat(static_cast<unsigned>(i), o, rcv_seq[q]++ & 0xFFFFFF), got);
                voq[q].pop_front();
                ++st.beats;
            } else if (exp_valid) {
                ++st.stalls;
            } else if (i >= 0) {
                ++st.bubbles;
            }
        }
        for (unsigned i = 0; i < PORTS; ++i) {
            const bool exp_ready = out_of[i] >= 0 && (out_ready >> out_of[i] & 1U);
            log.check(cyc, static_cast<int>(i), -1, "in_ready_o", exp_ready,
                      (x.in_ready_o >> i & 1U) != 0);
        }
        alloc.edge();
        xbar.edge();
        if (alloc.asserted() || xbar.asserted()) log.assertion(cyc);
        if (log.ok()) res.cycles = cyc + 1;
    }
    for (unsigned q = 0; q < PORTS * PORTS && log.ok(); ++q) {
        const int port = static_cast<int>(q % PORTS);
        log.check(cycles, port, -1, "beats left in a VOQ after draining", 0U,
                  static_cast<unsigned>(voq[q].size()));
        log.check(cycles, port, -1, "beats received", next_seq[q], rcv_seq[q]);
    }
    res.comparisons = log.comparisons();
    res.first_mismatch = log.first();
    res.coverage = xbar.coverage();
    return res;
}

}  // namespace

check_result run_xbar(const check_options& opt, xbar_stats& stats, model_build build) {
    if (opt.fault.empty() && build == model_build::plain) return run<Vibs_xbar>(opt, stats);
    if (opt.fault.empty()) return run<Vibs_xbar_cov>(opt, stats);
    if (opt.fault == "stuck_bit") return run<Vibs_xbar_fault>(opt, stats);
    throw std::invalid_argument("xbar: unknown fault \"" + opt.fault + "\" (valid: stuck_bit)");
}

check_result check_xbar(const check_options& opt) {
    xbar_stats stats;
    return run_xbar(opt, stats);
}

}  // namespace ndr::verify
