// switch_core_bench for one Verilated build of rtl/ib_switch_core (Model = Vib_switch_core or a
// fault build). Included only by switch_core_bench.cpp, which instantiates it per build.
// Each cycle: drive the inputs (clock low), evaluate, sample the handshakes and FC outputs,
// check, then one rising edge. Port fields are flat vectors (rtl_bits.h).
#pragma once
#include <verilated.h>
#include <verilated_cov.h>
#include <verilated_fst_c.h>

#include <fmt/format.h>

#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "common/rng.h"
#include "golden/credit_fc.h"
#include "switch_core_bench_iface.h"
#include "verify/rtl_bits.h"

namespace ndr::verify {

/// Whether a Verilated model was built with --trace-fst (it then has trace(VerilatedFstC*, int)).
template <typename M, typename = void>
struct has_fst_trace : std::false_type {};
template <typename M>
struct has_fst_trace<
    M, std::void_t<decltype(std::declval<M&>().trace(std::declval<VerilatedFstC*>(), 0))>>
    : std::true_type {};

template <typename Model>
class switch_core_bench_model final : public switch_core_bench::iface {
public:
    switch_core_bench_model(const bench_params& p, const core_geometry& g)
        : p_(p), g_(g), ctx_(std::make_unique<VerilatedContext>()), rng_(p.seed, 0xC0DE) {
        ctx_->fatalOnError(false);
        if (!p.wave_path.empty()) ctx_->traceEverOn(true);
        m_ = std::make_unique<Model>(ctx_.get(), "core");
        if (!p.wave_path.empty()) {
            if constexpr (has_fst_trace<Model>::value) {
                // Verilator's FST writer does not report an unwritable path: probe it first.
                if (!std::ofstream(p.wave_path, std::ios::binary)) {
                    throw std::runtime_error("cannot write the waveform file " + p.wave_path);
                }
                fst_ = std::make_unique<VerilatedFstC>();
                m_->trace(fst_.get(), 99);
                fst_->open(p.wave_path.c_str());
                if (!fst_->isOpen()) throw std::runtime_error("cannot write " + p.wave_path);
            } else {
                throw std::invalid_argument("this build of the switch core has no FST tracing");
            }
        }
        const std::size_t nq = std::size_t{g.ports} * g.vls;
        src_.resize(g.ports);
        for (auto& s : src_) {
            s.queues.resize(g.vls);
            s.tx.assign(g.vls, golden::credit_sender(0));
        }
        out_.resize(g.ports);
        for (auto& o : out_) {
            o.rx.assign(g.vls, golden::credit_receiver(p.down_blocks));
            o.last_cr.assign(g.vls, ~0U);
            o.received.assign(g.vls, 0);
        }
        abr_.assign(nq, 0);
        occ_in_.assign(nq, 0);
        occ_out_.assign(nq, 0);
        st_.out_beats.assign(g.ports, 0);
        st_.out_packets.assign(g.ports, 0);
        st_.vl_occ_sum.assign(g.vls, 0);
        st_.vl_occ_max.assign(g.vls, 0);
        st_.out_zero_credit.assign(g.vls, 0);
        st_.src_credit_stall.assign(g.vls, 0);
        // Reset: two cycles low, released with the clock low.
        m_->islip_i = p.islip ? 1 : 0;
        m_->clk_i = 0;
        m_->rst_ni = 0;
        m_->eval();
        for (int i = 0; i < 2; ++i) edge();
        m_->rst_ni = 1;
        m_->eval();
    }

    ~switch_core_bench_model() override {
        m_->final();
        if (fst_) fst_->close();
    }

    void push(const core_packet& p) override {
        src_.at(p.src).queues.at(p.vl).push_back(p);
        sent_.emplace(p.id, p);
        ++queued_;
    }

    void step(switch_core_bench& owner) override {
        Model& m = *m_;
        drive_sources();
        drive_outputs();
        m.eval();
        check_credit_state();  // registers: the state after the previous cycles
        sample_inputs(owner);
        sample_outputs(owner);
        sample_fc();
        drain_sinks();
        edge();
        ++cycle_;
        if (ctx_->gotError() && !first_) {
            fail(-1, -1, "RTL assertion", "no assertion failure",
                 "an RTL assertion failed (see the message above)");
        }
    }

    uint64_t cycle() const override { return cycle_; }
    uint64_t queued() const override { return queued_; }
    uint64_t in_core() const override { return headers_in_ - delivered_; }
    const std::optional<mismatch>& first_mismatch() const override { return first_; }
    uint64_t comparisons() const override { return comparisons_; }
    const core_stats& stats() const override { return st_; }
    void reset_stats() override {
        for (auto* v : {&st_.out_beats, &st_.out_packets, &st_.vl_occ_sum, &st_.out_zero_credit,
                        &st_.src_credit_stall}) {
            std::fill(v->begin(), v->end(), 0);
        }
        // The occupancy maximum starts from the current level.
        std::fill(st_.vl_occ_max.begin(), st_.vl_occ_max.end(), 0);
        st_.fc_packets = 0;
    }

    void final_check() override {
        m_->eval();
        const uint32_t adv_max = std::min(g_.buf_blocks, golden::FC_MAX_OUTSTANDING);
        for (uint32_t p = 0; p < g_.ports; ++p) {
            for (uint32_t v = 0; v < g_.vls; ++v) {
                const unsigned q = p * g_.vls + v;
                expect(p, v, "rx_occupied (idle core)", 0, field(m_->rx_occupied_o, q));
                expect(p, v, "rx_fccl (idle core)", golden::fc_add(abr_[q], adv_max),
                       field(m_->rx_fccl_o, q));
                expect(p, v, "tx_fctbs (idle core)", out_[p].received[v] & 0xFFFU,
                       field(m_->tx_fctbs_o, q));
            }
        }
    }

    coverage_summary coverage() const override {
        coverage_summary c;
#if NDR_RTL_CORE_COVERAGE
        namespace fs = std::filesystem;
        const fs::path f =
            fs::temp_directory_path() / fmt::format("ndr_switch_core_cov_{}_{}.dat", ::getpid(),
                                                    reinterpret_cast<std::uintptr_t>(this));
        ctx_->coveragep()->write(f.c_str());
        std::ifstream in(f);
        std::string line;
        while (std::getline(in, line)) {
            // "C '<key>' <count>"
            if (line.size() < 2 || line[0] != 'C') continue;
            const std::size_t sp = line.rfind(' ');
            ++c.points;
            if (sp != std::string::npos && std::stoull(line.substr(sp + 1)) > 0) ++c.hit;
        }
        std::error_code ec;
        fs::remove(f, ec);
#endif
        return c;
    }

private:
    struct source {
        std::vector<std::deque<core_packet>> queues;  ///< per VL
        std::vector<golden::credit_sender> tx;        ///< per VL, against the core's FC updates
        std::optional<core_packet> cur;               ///< packet being injected
        unsigned beat = 0;                            ///< next beat of cur
        bool presenting = false;                      ///< valid driven, not yet accepted
        uint32_t vl_ptr = 0;
    };
    struct sink {
        std::vector<golden::credit_receiver> rx;           ///< downstream buffer per VL
        std::vector<uint32_t> last_cr;                     ///< last FCCL sent to the core, per VL
        std::vector<uint32_t> received;                    ///< blocks received per VL (FCTBS twin)
        std::deque<std::pair<uint8_t, uint16_t>> to_free;  ///< complete packets (VL, blocks)
        std::vector<uint64_t> words;                       ///< beats of the packet arriving
        bool in_pkt = false;
        uint8_t vl = 0;
        uint16_t len = 0;
        uint64_t sop_cycle = 0;
        uint64_t starve_until = 0;
        uint32_t cr_ptr = 0;
        int src_q = -1;  ///< input * vls + VL of the packet arriving (-1: unknown id)
    };

    unsigned port_w() const {
        unsigned w = 0;
        while ((1U << w) < g_.ports) ++w;
        return w;
    }
    unsigned blocks_w() const {
        unsigned w = 0;
        while ((1U << w) <= g_.max_blocks) ++w;
        return w;
    }
    template <typename T>
    static uint32_t field(const T& sig, unsigned q) {
        return static_cast<uint32_t>(get_bits(sig, 12 * q, 12));
    }

    void fail(int port, int vl, std::string what, std::string expected, std::string got) {
        if (first_) return;
        first_ = mismatch{cycle_, port, vl, std::move(what), std::move(expected), std::move(got)};
    }
    void expect(uint32_t port, uint32_t vl, const char* what, uint64_t expected, uint64_t got) {
        ++comparisons_;
        if (expected != got) {
            fail(static_cast<int>(port), static_cast<int>(vl), what, std::to_string(expected),
                 std::to_string(got));
        }
    }

    void drive_sources() {
        Model& m = *m_;
        const unsigned pw = port_w();
        const unsigned bw = blocks_w();
        for (uint32_t p = 0; p < g_.ports; ++p) {
            source& s = src_[p];
            if (!s.presenting) {
                if (!s.cur) pick_packet(s);
                if (s.cur && (p_.in_valid_p >= 1.0 || rng_.uniform() < p_.in_valid_p)) {
                    s.presenting = true;
                }
            }
            const bool v = s.presenting;
            const core_packet* k = v ? &*s.cur : nullptr;
            set_bits(m.in_valid_i, p, 1, v);
            set_bits(m.in_sop_i, p, 1, v && s.beat == 0);
            set_bits(m.in_eop_i, p, 1, v && s.beat + 1U == k->blocks);
            set_bits(m.in_vl_i, 4 * p, 4, v ? k->vl : 0);
            set_bits(m.in_dst_i, pw * p, pw, v ? k->dst : 0);
            set_bits(m.in_len_i, bw * p, bw, v ? k->blocks : 0);
            set_bits(m.in_data_i, 64 * p, 64, v ? payload_word(*k, s.beat) : 0);
        }
    }

    /// Next packet of an idle source: round-robin over the VLs whose head packet has credit.
    void pick_packet(source& s) {
        for (uint32_t k = 0; k < g_.vls; ++k) {
            const uint32_t v = (s.vl_ptr + k) % g_.vls;
            if (s.queues[v].empty()) continue;
            const core_packet& head = s.queues[v].front();
            if (!s.tx[v].can_send(head.blocks)) {
                ++st_.src_credit_stall[v];
                continue;
            }
            s.tx[v].on_send(head.blocks);
            s.cur = head;
            s.queues[v].pop_front();
            s.beat = 0;
            s.vl_ptr = (v + 1) % g_.vls;
            return;
        }
    }

    void drive_outputs() {
        Model& m = *m_;
        for (uint32_t o = 0; o < g_.ports; ++o) {
            sink& k = out_[o];
            const bool ready = p_.out_ready_p >= 1.0 || rng_.uniform() < p_.out_ready_p;
            set_bits(m.out_ready_i, o, 1, ready);
            // One FC update per cycle: the next VL (round-robin) whose limit changed.
            bool sent = false;
            for (uint32_t j = 0; j < g_.vls && !sent; ++j) {
                const uint32_t v = (k.cr_ptr + j) % g_.vls;
                const uint32_t fccl = k.rx[v].fccl();
                if (fccl == k.last_cr[v]) continue;
                set_bits(m.cr_valid_i, o, 1, 1);
                set_bits(m.cr_vl_i, 4 * o, 4, v);
                set_bits(m.cr_fccl_i, 12 * o, 12, fccl);
                k.last_cr[v] = fccl;
                k.cr_ptr = (v + 1) % g_.vls;
                sent = true;
            }
            if (!sent) {
                set_bits(m.cr_valid_i, o, 1, 0);
                set_bits(m.cr_vl_i, 4 * o, 4, 0);
                set_bits(m.cr_fccl_i, 12 * o, 12, 0);
            }
        }
    }

    void sample_inputs(switch_core_bench& owner) {
        Model& m = *m_;
        for (uint32_t p = 0; p < g_.ports; ++p) {
            source& s = src_[p];
            if (!s.presenting || get_bits(m.in_ready_o, p, 1) == 0) continue;
            const core_packet& k = *s.cur;
            if (s.beat == 0) {
                abr_[p * g_.vls + k.vl] = golden::fc_add(abr_[p * g_.vls + k.vl], k.blocks);
                occ_in_[p * g_.vls + k.vl] += k.blocks;
                ++headers_in_;
                if (owner.on_header_in) owner.on_header_in(cycle_, k);
            }
            s.presenting = false;
            if (++s.beat == k.blocks) {
                s.cur.reset();
                --queued_;
            }
        }
    }

    void sample_outputs(switch_core_bench& owner) {
        Model& m = *m_;
        const unsigned bw = blocks_w();
        for (uint32_t o = 0; o < g_.ports; ++o) {
            if (get_bits(m.out_valid_o, o, 1) == 0 || get_bits(m.out_ready_i, o, 1) == 0) {
                continue;
            }
            sink& k = out_[o];
            ++st_.out_beats[o];
            const bool sop = get_bits(m.out_sop_o, o, 1) != 0;
            const bool eop = get_bits(m.out_eop_o, o, 1) != 0;
            const auto vl = static_cast<uint8_t>(get_bits(m.out_vl_o, 4 * o, 4));
            const auto len = static_cast<uint16_t>(get_bits(m.out_len_o, bw * o, bw));
            const uint64_t word = get_bits(m.out_data_o, 64 * o, 64);
            ++comparisons_;
            if (sop == k.in_pkt) {
                fail(static_cast<int>(o), vl, "sop", k.in_pkt ? "a body beat" : "a header beat",
                     sop ? "sop" : "a body beat without a header");
                continue;
            }
            if (sop) {
                k.in_pkt = true;
                k.vl = vl;
                k.len = len;
                k.words.clear();
                k.sop_cycle = cycle_;
                if (vl >= g_.vls || len == 0) {
                    fail(static_cast<int>(o), vl, "header", "VL < vls, length >= 1",
                         fmt::format("VL {}, length {}", vl, len));
                    continue;
                }
                try {
                    k.rx[vl].on_receive(len);
                } catch (const std::logic_error& e) {
                    fail(static_cast<int>(o), vl, "downstream credit",
                         "a packet within the advertised credits", e.what());
                }
                k.received[vl] += len;
                // The input it came from (by its id), for the occupancy count.
                const auto it = sent_.find(word);
                k.src_q = it == sent_.end() ? -1 : static_cast<int>(it->second.src * g_.vls + vl);
            }
            // A beat leaves the core in the cycle its input buffer frees it.
            if (k.src_q >= 0) ++occ_out_[static_cast<std::size_t>(k.src_q)];
            k.words.push_back(word);
            if (!eop) continue;
            k.in_pkt = false;
            finish_packet(owner, o, k);
        }
    }

    void finish_packet(switch_core_bench& owner, uint32_t o, sink& k) {
        ++comparisons_;
        if (k.words.size() != k.len) {
            fail(static_cast<int>(o), k.vl, "eop", fmt::format("{} beats", k.len),
                 fmt::format("{} beats", k.words.size()));
            return;
        }
        const auto it = sent_.find(k.words[0]);
        if (it == sent_.end()) {
            fail(static_cast<int>(o), k.vl, "payload beat 0 (packet id)", "an injected packet id",
                 fmt::format("{:#x}", k.words[0]));
            return;
        }
        const core_packet orig = it->second;
        sent_.erase(it);  // a duplicate of it is then an unknown id
        for (unsigned b = 0; b < k.words.size() && b < orig.blocks; ++b) {
            ++comparisons_;
            if (k.words[b] != payload_word(orig, b)) {
                fail(static_cast<int>(o), k.vl,
                     fmt::format("payload beat {} of packet {}", b, orig.id),
                     fmt::format("{:#018x}", payload_word(orig, b)),
                     fmt::format("{:#018x}", k.words[b]));
                return;
            }
        }
        core_delivery d;
        d.pkt = orig;
        if (k.words.size() >= 2) d.pkt = decode_word1(orig, k.words[1]);
        d.pkt.id = k.words[0];
        d.pkt.vl = k.vl;
        d.pkt.blocks = k.len;
        d.port = static_cast<uint16_t>(o);
        d.sop_cycle = k.sop_cycle;
        d.eop_cycle = cycle_;
        k.to_free.emplace_back(k.vl, k.len);
        ++st_.out_packets[o];
        ++delivered_;
        if (owner.on_delivery) owner.on_delivery(d);
    }

    void sample_fc() {
        Model& m = *m_;
        for (uint32_t p = 0; p < g_.ports; ++p) {
            if (get_bits(m.fc_valid_o, p, 1) == 0) continue;
            ++st_.fc_packets;
            const auto vl = static_cast<uint32_t>(get_bits(m.fc_vl_o, 4 * p, 4));
            const auto fccl = static_cast<uint32_t>(get_bits(m.fc_fccl_o, 12 * p, 12));
            ++comparisons_;
            if (vl >= g_.vls) {
                fail(static_cast<int>(p), static_cast<int>(vl), "FC update VL",
                     fmt::format("< {}", g_.vls), std::to_string(vl));
                continue;
            }
            try {
                src_[p].tx[vl].on_fccl(fccl);
            } catch (const std::logic_error& e) {
                fail(static_cast<int>(p), static_cast<int>(vl), "FC update FCCL",
                     "at most 2048 blocks ahead of FCTBS", e.what());
            }
        }
    }

    /// Credit invariants every cycle: occupancy = blocks in - beats out (a packet's blocks count
    /// from its header; each beat is freed as it leaves) and within the buffer; no more credit
    /// advertised than the buffer holds beyond the blocks received; the sender within its limit and
    /// at most one packet ahead of what the sink received.
    void check_credit_state() {
        Model& m = *m_;
        const uint32_t adv_max = std::min(g_.buf_blocks, golden::FC_MAX_OUTSTANDING);
        for (uint32_t p = 0; p < g_.ports; ++p) {
            for (uint32_t v = 0; v < g_.vls; ++v) {
                const unsigned q = p * g_.vls + v;
                const uint32_t occ = field(m.rx_occupied_o, q);
                const uint32_t adv = golden::fc_sub(field(m.rx_fccl_o, q), abr_[q]);
                const uint32_t avail =
                    golden::fc_sub(field(m.tx_fccl_o, q), field(m.tx_fctbs_o, q));
                const uint32_t ahead = golden::fc_sub(field(m.tx_fctbs_o, q), out_[p].received[v]);
                comparisons_ += 5;
                const uint64_t occ_want = occ_in_[q] - occ_out_[q];
                if (occ != occ_want) {
                    fail(static_cast<int>(p), static_cast<int>(v),
                         "rx_occupied (blocks whose header came in - beats that went out)",
                         std::to_string(occ_want), std::to_string(occ));
                }
                if (occ > g_.buf_blocks) {
                    fail(static_cast<int>(p), static_cast<int>(v), "rx_occupied",
                         fmt::format("<= {}", g_.buf_blocks), std::to_string(occ));
                }
                if (adv > adv_max) {
                    fail(static_cast<int>(p), static_cast<int>(v), "rx_fccl - blocks received",
                         fmt::format("<= {}", adv_max), std::to_string(adv));
                }
                if (avail > golden::FC_MAX_OUTSTANDING) {
                    fail(static_cast<int>(p), static_cast<int>(v), "tx_fccl - tx_fctbs", "<= 2048",
                         std::to_string(avail));
                }
                if (ahead > g_.max_blocks) {
                    fail(static_cast<int>(p), static_cast<int>(v), "tx_fctbs - blocks delivered",
                         fmt::format("<= {} (one packet)", g_.max_blocks), std::to_string(ahead));
                }
                st_.vl_occ_sum[v] += occ;
                st_.vl_occ_max[v] = std::max(st_.vl_occ_max[v], occ);
                if (avail == 0) ++st_.out_zero_credit[v];
            }
        }
    }

    /// Sinks free delivered packets at a random rate, with credit-starvation periods.
    void drain_sinks() {
        for (sink& k : out_) {
            if (k.starve_until > cycle_) continue;
            if (p_.starve_p > 0.0 && rng_.uniform() < p_.starve_p) {
                k.starve_until = cycle_ + 1 + rng_.below(std::max<uint32_t>(1, p_.starve_max));
                continue;
            }
            if (k.to_free.empty()) continue;
            if (p_.drain_p < 1.0 && rng_.uniform() >= p_.drain_p) continue;
            const auto [vl, blocks] = k.to_free.front();
            k.to_free.pop_front();
            k.rx[vl].on_free(blocks);
        }
    }

    void edge() {
        ctx_->timeInc(1);
        m_->clk_i = 1;
        m_->eval();
        if (fst_) fst_->dump(ctx_->time());
        ctx_->timeInc(1);
        m_->clk_i = 0;
        m_->eval();
        if (fst_) fst_->dump(ctx_->time());
    }

private:
    bench_params p_;
    core_geometry g_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Model> m_;
    std::unique_ptr<VerilatedFstC> fst_;
    tb::rng rng_;
    std::vector<source> src_;
    std::vector<sink> out_;
    std::vector<uint32_t> abr_;      ///< blocks whose header entered input p VL v, mod 4096
    std::vector<uint64_t> occ_in_;   ///< blocks whose header entered input p VL v
    std::vector<uint64_t> occ_out_;  ///< beats from input p VL v that left the core
    std::unordered_map<uint64_t, core_packet> sent_;
    std::optional<mismatch> first_;
    core_stats st_;
    uint64_t cycle_ = 0;
    uint64_t queued_ = 0;
    uint64_t headers_in_ = 0;
    uint64_t delivered_ = 0;
    uint64_t comparisons_ = 0;
};

}  // namespace ndr::verify
