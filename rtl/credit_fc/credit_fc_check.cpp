// `ndrsim verify credit_fc` (credit_fc_check.h).
//
// The harness loops one instance back on itself: its sender side sends onto a modelled link
// (in-order, random delay, occasional lost packets) into its receiver side; the receiver's FCCL
// goes back to the sender as FC updates after a random in-order delay, and the sender's FCTBS
// goes to the receiver as sync packets on the same link as the data. Traffic phases change every
// 4000 cycles: buffer drain from 0 (credit starvation) to 1, FC update rate, lost packets, link
// delay, one hot VL or a uniform VL mix; packets of 1..67 blocks drive FCTBS past the 12-bit
// wrap many times. Stimulus decisions come from the golden state; every cycle every RTL output
// is compared with the golden value.
#include "credit_fc/credit_fc_check.h"

#include <algorithm>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>

#include "Vib_credit_fc.h"
#include "Vib_credit_fc_cov.h"
#include "Vib_credit_fc_fault.h"
#include "golden/credit_fc.h"
#include "verify/mismatch_recorder.h"
#include "verify/verilated_dut.h"

namespace ndr::verify {

namespace {

using golden::credit_receiver;
using golden::credit_sender;
using golden::fc_sub;

constexpr int NUM_VLS = NDR_RTL_CREDIT_FC_NUM_VLS;
constexpr uint32_t BUF_BLOCKS = NDR_RTL_CREDIT_FC_BUF_BLOCKS;
static_assert(12 * NUM_VLS <= 64, "per-VL outputs are read as one 64-bit word");

uint32_t field12(uint64_t word, int vl) {
    return static_cast<uint32_t>(word >> (12 * vl)) & 0xFFFU;
}

struct link_item {
    bool sync = false;  ///< FCTBS sync packet, else data
    int vl = 0;
    uint32_t value = 0;  ///< blocks (data) or FCTBS (sync)
    uint64_t arrival = 0;
};

struct fc_item {
    int vl = 0;
    uint32_t fccl = 0;
    uint64_t arrival = 0;
};

/// Traffic phase: rates change every few thousand cycles (starvation, bursts, drops).
struct phase {
    double p_send = 0.5;
    double p_free = 0.5;
    double p_fc = 0.1;
    double p_sync = 0.02;
    double p_drop = 0.0;
    uint32_t max_delay = 20;
    int hot_vl = -1;  ///< VL that gets most of the traffic, -1 = uniform
};

template <typename Model>
check_result run(const check_options& opt, credit_fc_stats& st) {
    check_result res;
    res.block = "credit_fc";
    st = credit_fc_stats{};
    st.wraps.assign(NUM_VLS, 0);
    mismatch_recorder log;
    std::mt19937_64 rng(opt.seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    auto uniform = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };

    verilated_dut<Model> dut(opt.wave_path);
    auto& m = dut.m();
    m.snd_valid_i = m.cr_valid_i = m.rcv_valid_i = m.fr_valid_i = m.sy_valid_i = 0;
    dut.reset();

    std::vector<credit_sender> snd(NUM_VLS, credit_sender(0));
    std::vector<credit_receiver> rcv(NUM_VLS, credit_receiver(BUF_BLOCKS));
    std::deque<link_item> link;
    std::deque<fc_item> fcq;
    uint64_t link_last = 0;
    uint64_t fc_last = 0;

    bool req = false;
    int req_vl = 0;
    uint32_t req_blocks = 0;
    phase ph;

    for (uint64_t cyc = 0; cyc < opt.cycles && log.ok(); ++cyc) {
        if (cyc % 4000 == 0) {
            const double free_rates[] = {0.0, 0.05, 0.3, 0.7, 1.0};
            ph.p_free = free_rates[uniform(0, 4)];
            ph.p_send = chance(0.3) ? 1.0 : 0.2 + 0.6 * std::uniform_real_distribution<>(0, 1)(rng);
            ph.p_fc = chance(0.3) ? 0.01 : 0.3;
            ph.p_sync = chance(0.5) ? 0.0 : 0.05;
            ph.p_drop = chance(0.25) ? 0.02 : 0.0;
            ph.max_delay = chance(0.5) ? 4 : 60;
            ph.hot_vl = chance(0.4) ? static_cast<int>(uniform(0, NUM_VLS - 1)) : -1;
        }

        // ---- inputs for this cycle -------------------------------------------------------
        if (!req && chance(ph.p_send)) {
            req = true;
            req_vl = (ph.hot_vl >= 0 && chance(0.8)) ? ph.hot_vl
                                                     : static_cast<int>(uniform(0, NUM_VLS - 1));
            req_blocks = chance(0.3) ? 65 : uniform(1, 67);  // 65 = one 4 KiB MTU packet
        }
        m.snd_valid_i = req;
        m.snd_vl_i = static_cast<uint8_t>(req ? req_vl : 0);
        m.snd_blocks_i = static_cast<uint8_t>(req ? req_blocks : 0);

        // FC update: the oldest arrived one. A stale one behind FCTBS (possible after a lost
        // packet, until the sync repairs ABR) is rejected by the golden sender: not delivered.
        bool cr = false;
        fc_item cr_item;
        while (!fcq.empty() && fcq.front().arrival <= cyc && !cr) {
            cr_item = fcq.front();
            fcq.pop_front();
            const bool sending = req && snd[req_vl].can_send(req_blocks) && req_vl == cr_item.vl;
            const uint32_t fctbs_after = sending
                                             ? golden::fc_add(snd[cr_item.vl].fctbs(), req_blocks)
                                             : snd[cr_item.vl].fctbs();
            if (fc_sub(cr_item.fccl, fctbs_after) <= golden::FC_MAX_OUTSTANDING) {
                cr = true;
            } else {
                ++st.fc_filtered;
            }
        }
        m.cr_valid_i = cr;
        m.cr_vl_i = static_cast<uint8_t>(cr ? cr_item.vl : 0);
        m.cr_fccl_i = static_cast<uint16_t>(cr ? cr_item.fccl : 0);

        // Link: at most one packet arrives per cycle (data or FCTBS sync).
        bool rx = false;
        bool sy = false;
        link_item in;
        if (!link.empty() && link.front().arrival <= cyc) {
            in = link.front();
            link.pop_front();
            rx = !in.sync;
            sy = in.sync;
        }
        m.rcv_valid_i = rx;
        m.rcv_vl_i = static_cast<uint8_t>(rx ? in.vl : 0);
        m.rcv_blocks_i = static_cast<uint8_t>(rx ? in.value : 0);
        m.sy_valid_i = sy;
        m.sy_vl_i = static_cast<uint8_t>(sy ? in.vl : 0);
        m.sy_fctbs_i = static_cast<uint16_t>(sy ? in.value : 0);

        // Buffer drain.
        bool fr = false;
        int fr_vl = 0;
        uint32_t fr_blocks = 0;
        if (chance(ph.p_free)) {
            fr_vl = static_cast<int>(uniform(0, NUM_VLS - 1));
            if (rcv[fr_vl].occupied() > 0) {
                fr = true;
                fr_blocks = uniform(1, std::min<uint32_t>(rcv[fr_vl].occupied(), 80));
            }
        }
        m.fr_valid_i = fr;
        m.fr_vl_i = static_cast<uint8_t>(fr_vl);
        m.fr_blocks_i = static_cast<uint16_t>(fr_blocks);

        // ---- compare (state before the edge, combinational outputs for these inputs) ------
        dut.settle();
        if (dut.asserted()) {
            log.assertion(cyc);
            break;
        }
        const bool can = snd[req ? req_vl : 0].can_send(req ? req_blocks : 0);
        log.check(cyc, -1, req ? req_vl : 0, "snd_ready_o", can, m.snd_ready_o != 0);
        if (sy) {
            const bool in_sync = rcv[in.vl].abr() == in.value;
            log.check(cyc, -1, in.vl, "sy_in_sync_o", in_sync, m.sy_in_sync_o != 0);
        }
        bool clamped = false;
        for (int v = 0; v < NUM_VLS; ++v) {
            log.check(cyc, -1, v, "tx_fctbs_o", snd[v].fctbs(), field12(m.tx_fctbs_o, v));
            log.check(cyc, -1, v, "tx_fccl_o", snd[v].fccl(), field12(m.tx_fccl_o, v));
            log.check(cyc, -1, v, "rx_abr_o", rcv[v].abr(), field12(m.rx_abr_o, v));
            log.check(cyc, -1, v, "rx_occupied_o", rcv[v].occupied(), field12(m.rx_occupied_o, v));
            log.check(cyc, -1, v, "rx_fccl_o", rcv[v].fccl(), field12(m.rx_fccl_o, v));
            clamped = clamped || rcv[v].free_blocks() > golden::FC_MAX_OUTSTANDING;
        }
        if (clamped) ++st.clamped;
        if (!log.ok()) break;

        // ---- clock edge, then the golden model takes the same step ------------------------
        dut.edge();
        res.cycles = cyc + 1;
        if (req && can) {
            const uint32_t before = snd[req_vl].fctbs();
            snd[req_vl].on_send(req_blocks);
            if (snd[req_vl].fctbs() < before) ++st.wraps[req_vl];
            ++st.sends;
            if (!chance(ph.p_drop)) {  // else lost on the link: only a sync repairs ABR
                link_last = std::max(link_last, cyc + 1 + uniform(0, ph.max_delay));
                link.push_back(link_item{false, req_vl, req_blocks, link_last});
            }
            req = false;
        } else if (req) {
            ++st.stalled_cycles;
        }
        if (cr) {
            snd[cr_item.vl].on_fccl(cr_item.fccl);
            ++st.fc_updates;
        }
        if (sy && !rcv[in.vl].on_fctbs(in.value)) ++st.out_of_sync;
        if (rx) rcv[in.vl].on_receive(in.value);
        if (fr) rcv[fr_vl].on_free(fr_blocks);

        // New FC packets: receiver FCCL back to the sender, sender FCTBS onto the link.
        if (chance(ph.p_fc)) {
            const int v = static_cast<int>(uniform(0, NUM_VLS - 1));
            fc_last = std::max(fc_last, cyc + 1 + uniform(0, ph.max_delay));
            fcq.push_back(fc_item{v, rcv[v].fccl(), fc_last});
        }
        if (chance(ph.p_sync)) {
            const int v = static_cast<int>(uniform(0, NUM_VLS - 1));
            link_last = std::max(link_last, cyc + 1 + uniform(0, ph.max_delay));
            link.push_back(link_item{true, v, snd[v].fctbs(), link_last});
        }
    }
    res.comparisons = log.comparisons();
    res.first_mismatch = log.first();
    res.coverage = dut.coverage();
    return res;
}

}  // namespace

check_result run_credit_fc(const check_options& opt, credit_fc_stats& stats, model_build build) {
    if (opt.fault.empty() && build == model_build::plain) return run<Vib_credit_fc>(opt, stats);
    if (opt.fault.empty()) return run<Vib_credit_fc_cov>(opt, stats);
    if (opt.fault == "drop_credit") return run<Vib_credit_fc_fault>(opt, stats);
    throw std::invalid_argument("credit_fc: unknown fault \"" + opt.fault +
                                "\" (valid: drop_credit)");
}

check_result check_credit_fc(const check_options& opt) {
    credit_fc_stats stats;
    return run_credit_fc(opt, stats);
}

}  // namespace ndr::verify
