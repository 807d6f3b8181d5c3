// rtl/credit_fc/ib_credit_fc.sv against the golden credit_sender/credit_receiver
// (models/golden/credit_fc.h), cycle by cycle, with Verilator --assert.
//
// The harness loops one instance back on itself: its sender side sends onto a modelled link
// (in-order, random delay, occasional lost packets) into its receiver side; the receiver's FCCL
// goes back to the sender as FC updates after a random in-order delay, and the sender's FCTBS
// goes to the receiver as sync packets on the same link as the data. Stimulus decisions come from
// the golden state; every cycle every RTL output is compared with the golden value.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include <catch2/catch.hpp>

#include "Vib_credit_fc.h"
#include "golden/credit_fc.h"
#include "rtl_checker.h"

namespace {

using ndr::golden::credit_receiver;
using ndr::golden::credit_sender;
using ndr::golden::fc_sub;
using ndr::rtl_test::mismatch_log;
using ndr::rtl_test::verilated_dut;

constexpr int NUM_VLS = NDR_RTL_CREDIT_FC_NUM_VLS;
constexpr uint32_t BUF_BLOCKS = NDR_RTL_CREDIT_FC_BUF_BLOCKS;
static_assert(12 * NUM_VLS <= 64, "per-VL outputs are read as one 64-bit word");

uint32_t field12(uint64_t word, int vl) {
    return static_cast<uint32_t>(word >> (12 * vl)) & 0xFFFU;
}

struct run_options {
    uint64_t seed = 1;
    uint64_t cycles = 120'000;
    /// From this cycle on, fault_drop_cr_i = 1 (credit updates dropped); 0 = no fault.
    uint64_t fault_from = 0;
};

struct run_result {
    std::string mismatch;         ///< first mismatch, empty if none
    uint64_t cycles_run = 0;
    std::vector<int> wraps = std::vector<int>(NUM_VLS, 0);  ///< FCTBS wraps past 4096 per VL
    uint64_t sends = 0;
    uint64_t stalled_cycles = 0;  ///< send request waiting for credit
    uint64_t fc_updates = 0;
    uint64_t fc_filtered = 0;     ///< stale updates the golden sender would reject, not sent
    uint64_t out_of_sync = 0;     ///< FCTBS syncs that repaired ABR after a lost packet
    uint64_t clamped = 0;         ///< cycles some VL advertised a clamped (2048-ahead) FCCL
};

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

run_result run_credit_fc(const run_options& opt) {
    run_result res;
    mismatch_log log;
    std::mt19937_64 rng(opt.seed);
    auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
    auto uniform = [&](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };

    verilated_dut<Vib_credit_fc> dut;
    auto& m = dut.m();
    m.fault_drop_cr_i = 0;
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
            const uint32_t fctbs_after =
                sending ? ndr::golden::fc_add(snd[cr_item.vl].fctbs(), req_blocks)
                        : snd[cr_item.vl].fctbs();
            if (fc_sub(cr_item.fccl, fctbs_after) <= ndr::golden::FC_MAX_OUTSTANDING) {
                cr = true;
            } else {
                ++res.fc_filtered;
            }
        }
        m.cr_valid_i = cr;
        m.cr_vl_i = static_cast<uint8_t>(cr ? cr_item.vl : 0);
        m.cr_fccl_i = static_cast<uint16_t>(cr ? cr_item.fccl : 0);
        m.fault_drop_cr_i = (opt.fault_from != 0 && cyc >= opt.fault_from) ? 1 : 0;

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
            log.fail("cycle " + std::to_string(cyc) + ": RTL assertion failed (see output)");
            break;
        }
        const bool can = snd[req ? req_vl : 0].can_send(req ? req_blocks : 0);
        log.check(cyc, req ? req_vl : 0, "snd_ready_o", can, m.snd_ready_o != 0);
        bool in_sync = false;
        if (sy) {
            in_sync = rcv[in.vl].abr() == in.value;
            log.check(cyc, in.vl, "sy_in_sync_o", in_sync, m.sy_in_sync_o != 0);
        }
        bool clamped = false;
        for (int v = 0; v < NUM_VLS; ++v) {
            log.check(cyc, v, "tx_fctbs_o", snd[v].fctbs(), field12(m.tx_fctbs_o, v));
            log.check(cyc, v, "tx_fccl_o", snd[v].fccl(), field12(m.tx_fccl_o, v));
            log.check(cyc, v, "rx_abr_o", rcv[v].abr(), field12(m.rx_abr_o, v));
            log.check(cyc, v, "rx_occupied_o", rcv[v].occupied(), field12(m.rx_occupied_o, v));
            log.check(cyc, v, "rx_fccl_o", rcv[v].fccl(), field12(m.rx_fccl_o, v));
            clamped = clamped || rcv[v].free_blocks() > ndr::golden::FC_MAX_OUTSTANDING;
        }
        if (clamped) ++res.clamped;
        if (!log.ok()) {
            res.cycles_run = cyc;
            break;
        }

        // ---- clock edge, then the golden model takes the same step ------------------------
        dut.edge();
        if (req && can) {
            const uint32_t before = snd[req_vl].fctbs();
            snd[req_vl].on_send(req_blocks);
            if (snd[req_vl].fctbs() < before) ++res.wraps[req_vl];
            ++res.sends;
            if (!chance(ph.p_drop)) {  // else lost on the link: only a sync repairs ABR
                link_last = std::max(link_last, cyc + 1 + uniform(0, ph.max_delay));
                link.push_back(link_item{false, req_vl, req_blocks, link_last});
            }
            req = false;
        } else if (req) {
            ++res.stalled_cycles;
        }
        if (cr) {
            snd[cr_item.vl].on_fccl(cr_item.fccl);
            ++res.fc_updates;
        }
        if (sy && !rcv[in.vl].on_fctbs(in.value)) ++res.out_of_sync;
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
        res.cycles_run = cyc + 1;
    }
    res.mismatch = log.first();
    return res;
}

}  // namespace

TEST_CASE("credit_fc RTL matches the golden sender/receiver for 120k random cycles", "[rtl]") {
    for (const uint64_t seed : {1U, 2U}) {
        run_options opt;
        opt.seed = seed;
        const run_result r = run_credit_fc(opt);
        INFO("seed " << seed << ": " << r.mismatch);
        REQUIRE(r.mismatch.empty());
        REQUIRE(r.cycles_run == opt.cycles);
        // The stimulus reached the corners it is meant to reach.
        for (int v = 0; v < NUM_VLS; ++v) {
            INFO("VL " << v << " FCTBS wraps");
            CHECK(r.wraps[v] >= 3);
        }
        CHECK(r.stalled_cycles > 1000);  // credit starvation
        CHECK(r.out_of_sync > 0);        // lost packets repaired by FCTBS sync
        CHECK(r.clamped > 0);            // more than 2048 blocks free: FCCL clamp
        CHECK(r.fc_updates > 1000);
    }
}

TEST_CASE("credit_fc checker reports a dropped credit update (fault injection)", "[rtl]") {
    run_options opt;
    opt.cycles = 20'000;
    opt.fault_from = 5'000;
    const run_result r = run_credit_fc(opt);
    INFO(r.mismatch);
    REQUIRE_FALSE(r.mismatch.empty());
    CHECK(r.mismatch.find("tx_fccl_o") != std::string::npos);
    CHECK(r.cycles_run >= opt.fault_from);
}

TEST_CASE("credit_fc RTL assertions fire under --assert (buffer overflow)", "[rtl]") {
    verilated_dut<Vib_credit_fc> dut;
    auto& m = dut.m();
    m.snd_valid_i = m.cr_valid_i = m.fr_valid_i = m.sy_valid_i = 0;
    m.fault_drop_cr_i = 0;
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
    CHECK(received <= BUF_BLOCKS);        // every accepted packet fitted
    CHECK(received + 127 > BUF_BLOCKS);   // and the first one that did not fit fired
}
