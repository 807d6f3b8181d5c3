// `ndrsim verify switch_alloc` (switch_alloc_check.h).
//
// Random request matrices: sparse to full, persistent (a VOQ backlog whose matched pairs drain
// over several cycles, i.e. multi-beat packets hold their requests) and fresh every cycle;
// iSLIP and input-first modes switched between 2000-cycle phases. Every cycle: the matching and,
// after the edge, every grant and accept pointer, against the golden rule
// (models/golden/switch_alloc.h) with the RTL block's grant oracle: round robin from the grant
// pointer over the inputs requesting the output (no VLs, credits or staging buffer). The RTL
// has no busy ports: every input and output is free.
#include "switch_alloc/switch_alloc_check.h"

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vibs_switch_alloc.h"
#include "Vibs_switch_alloc_cov.h"
#include "Vibs_switch_alloc_fault.h"
#include "golden/switch_alloc.h"
#include "verify/mismatch_recorder.h"
#include "verify/verilated_dut.h"

namespace ndr::verify {

namespace {

constexpr unsigned PORTS = NDR_RTL_SWITCH_ALLOC_NUM_PORTS;
constexpr unsigned ITERATIONS = NDR_RTL_SWITCH_ALLOC_ITERATIONS;
constexpr unsigned PTR_W = PORTS <= 2 ? 1 : PORTS <= 4 ? 2 : PORTS <= 8 ? 3 : 4;
static_assert(PORTS * PORTS <= 32, "req_i/gnt_o are read as one 32-bit word");

/// One allocation of the golden rule for request matrix `req` (req[i] = outputs requested by
/// input i, bit o). Returns, per input, the matched output as a one-bit mask (0 = unmatched);
/// `late_matches` counts the matches made after the first iteration.
std::vector<uint32_t> allocate(golden::switch_alloc& alloc, const std::vector<uint32_t>& req,
                               bool islip, uint64_t& late_matches) {
    std::vector<uint64_t> col(PORTS, 0);  // col[o] = inputs requesting output o
    for (unsigned i = 0; i < PORTS; ++i) {
        golden::for_each_bit(req[i], [&](uint32_t o) { col[o] |= golden::bit(i); });
    }
    const uint64_t all = golden::bit(PORTS) - 1;
    const auto grant = [&](uint32_t o, uint64_t avail, uint32_t from) {
        return golden::rr_pick(col[o] & avail, from);
    };
    std::vector<uint32_t> match(PORTS, 0);
    const auto on_match = [&](uint32_t i, uint32_t o, uint32_t iteration) {
        match[i] = 1U << o;
        late_matches += iteration > 0;
    };
    if (islip) {
        alloc.islip(all, all, ITERATIONS, grant, on_match);
    } else {
        alloc.input_first(
            all, all, [&](uint32_t i) { return uint64_t{req[i]}; }, grant, on_match);
    }
    return match;
}

template <typename Model>
check_result run(const check_options& opt, switch_alloc_stats& st) {
    check_result res;
    res.block = "switch_alloc";
    st = switch_alloc_stats{};
    mismatch_recorder log;
    std::mt19937_64 rng(opt.seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };

    verilated_dut<Model> dut(opt.wave_path);
    auto& m = dut.m();
    m.islip_i = 1;
    m.req_i = 0;
    dut.reset();

    golden::switch_alloc ref(PORTS);
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
        dut.settle();

        const std::vector<uint32_t> match = allocate(ref, req, islip, st.late_matches);
        uint32_t exp = 0;
        unsigned n_match = 0;
        for (unsigned i = 0; i < PORTS; ++i) {
            exp |= match[i] << (PORTS * i);
            n_match += match[i] != 0;
        }
        log.check(cyc, -1, -1, "gnt_o", exp, static_cast<uint32_t>(m.gnt_o));
        // Pointers are registers: compared after the edge with the reference's updated values.
        const uint64_t mask = (1U << PTR_W) - 1;
        dut.edge();
        if (dut.asserted()) log.assertion(cyc);
        for (unsigned p = 0; p < PORTS; ++p) {
            log.check(cyc, static_cast<int>(p), -1, "grant_ptr_o", ref.grant_ptr(p),
                      static_cast<unsigned>((m.grant_ptr_o >> (PTR_W * p)) & mask));
            log.check(cyc, static_cast<int>(p), -1, "accept_ptr_o", ref.accept_ptr(p),
                      static_cast<unsigned>((m.accept_ptr_o >> (PTR_W * p)) & mask));
        }
        if (!log.ok()) break;
        res.cycles = cyc + 1;
        st.matches += n_match;
        st.full_cycles += n_match == PORTS;
        st.islip_cycles += islip;
        if (persistent) {  // matched pairs drain with probability 1/2 (multi-beat packets)
            for (unsigned i = 0; i < PORTS; ++i) {
                if (match[i] != 0 && chance(0.5)) req[i] &= ~match[i];
            }
        }
    }
    res.comparisons = log.comparisons();
    res.first_mismatch = log.first();
    res.coverage = dut.coverage();
    return res;
}

}  // namespace

check_result run_switch_alloc(const check_options& opt, switch_alloc_stats& stats,
                              model_build build) {
    if (opt.fault.empty() && build == model_build::plain) return run<Vibs_switch_alloc>(opt, stats);
    if (opt.fault.empty()) return run<Vibs_switch_alloc_cov>(opt, stats);
    if (opt.fault == "freeze_ptr") return run<Vibs_switch_alloc_fault>(opt, stats);
    throw std::invalid_argument("switch_alloc: unknown fault \"" + opt.fault +
                                "\" (valid: freeze_ptr)");
}

check_result check_switch_alloc(const check_options& opt) {
    switch_alloc_stats stats;
    return run_switch_alloc(opt, stats);
}

}  // namespace ndr::verify
