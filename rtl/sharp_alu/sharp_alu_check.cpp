// ndrsim verify sharp_alu: the Verilated SHARP ALU against the golden reduction, see
// sharp_alu_check.h. One template drives either Verilated build (real or fault-injected); both
// have the same ports.
#include "sharp_alu/sharp_alu_check.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <verilated.h>
#include <verilated_cov.h>
#include <verilated_fst_c.h>

#include "Vibs_sharp_alu.h"
#include "Vibs_sharp_alu_fault_latency.h"
#include "Vibs_sharp_alu_fault_rounding.h"
#include "golden/reduce_op.h"
#include "sharp_alu/sharp_alu_operands.h"
#include "verify/coverage_reader.h"

namespace ndr::verify {

namespace {

using golden::red_op;
using golden::red_type;

constexpr std::uint64_t STAGES = NDR_RTL_SHARP_ALU_STAGES;
constexpr std::uint64_t PHASE_CYCLES = 1000;

/// Every (op, dtype) pair the golden model supports.
std::vector<std::pair<red_op, red_type>> supported_pairs() {
    std::vector<std::pair<red_op, red_type>> pairs;
    for (const red_op op : golden::ALL_RED_OPS) {
        for (const red_type t : golden::ALL_RED_TYPES) {
            if (golden::supported(op, t)) pairs.emplace_back(op, t);
        }
    }
    return pairs;
}

struct beat {
    red_op op = red_op::sum;
    red_type type = red_type::int32;
    sharp_alu_operand_pair in;
    std::uint64_t res = 0;
    std::uint32_t res_idx = 0;
    std::uint64_t in_cycle = 0;
};

/// Golden result of one beat: reduce_elementwise on one little-endian element.
void golden_result(beat& b) {
    std::uint8_t acc[12] = {};
    std::uint8_t in[12] = {};
    const std::size_t vsz = golden::red_type_size(b.type);
    for (std::size_t k = 0; k < vsz; ++k) {
        acc[k] = static_cast<std::uint8_t>(b.in.a >> (8 * k));
        in[k] = static_cast<std::uint8_t>(b.in.b >> (8 * k));
    }
    for (std::size_t k = 0; k < 4; ++k) {
        acc[vsz + k] = static_cast<std::uint8_t>(b.in.a_idx >> (8 * k));
        in[vsz + k] = static_cast<std::uint8_t>(b.in.b_idx >> (8 * k));
    }
    golden::reduce_elementwise(b.op, b.type, acc, in, 1);
    b.res = 0;
    for (std::size_t k = 0; k < vsz; ++k) b.res |= std::uint64_t{acc[k]} << (8 * k);
    b.res_idx = 0;
    if (golden::is_loc_op(b.op)) {
        for (std::size_t k = 0; k < 4; ++k) b.res_idx |= std::uint32_t{acc[vsz + k]} << (8 * k);
    }
}

std::string describe(const char* signal, const beat& b) {
    std::string s = fmt::format("{} {} {} a=0x{:x} b=0x{:x}", signal, golden::red_op_name(b.op),
                                golden::red_type_name(b.type), b.in.a, b.in.b);
    if (golden::is_loc_op(b.op)) s += fmt::format(" a_idx={} b_idx={}", b.in.a_idx, b.in.b_idx);
    return s;
}

template <typename Model>
class alu_run {
public:
    alu_run(const check_options& opt, bool with_coverage)
        : opt_(opt), with_coverage_(with_coverage), ctx_(std::make_unique<VerilatedContext>()) {
        ctx_->fatalOnError(false);  // a failed assertion is recorded (gotError) and reported
        if (!opt.wave_path.empty()) ctx_->traceEverOn(true);
        model_ = std::make_unique<Model>(ctx_.get(), "sharp_alu");
        if (!opt.wave_path.empty()) {
            fst_ = std::make_unique<VerilatedFstC>();
            model_->trace(fst_.get(), 99);
            fst_->open(opt.wave_path.c_str());
            if (!fst_->isOpen()) {
                throw std::runtime_error("verify sharp_alu: cannot write wave file '" +
                                         opt.wave_path + "'");
            }
        }
        result_.block = "sharp_alu";
    }
    ~alu_run() {
        if (fst_) fst_->close();
        model_->final();
    }
    alu_run(const alu_run&) = delete;
    alu_run& operator=(const alu_run&) = delete;

    check_result run();

private:
    void eval_dump() {
        model_->eval();
        if (fst_) fst_->dump(ctx_->time());
    }
    // Two evaluations per cycle: inputs applied with the clock low at time 2n (outputs read
    // there), the rising edge at 2n + 1.
    void settle() {
        model_->clk_i = 0;
        eval_dump();
    }
    void edge() {
        ctx_->timeInc(1);
        model_->clk_i = 1;
        eval_dump();
        ctx_->timeInc(1);
    }
    void reset() {
        model_->rst_ni = 0;
        model_->in_valid_i = 0;
        model_->out_ready_i = 1;
        for (int i = 0; i < 2; ++i) {
            settle();
            edge();
        }
        model_->rst_ni = 1;
    }
    /// Compares one value; `b` (may be null) names the beat in the mismatch text, which is only
    /// built on a mismatch.
    template <typename T>
    bool check(const char* signal, const beat* b, const T& expected, const T& got) {
        ++result_.comparisons;
        if (expected == got) return true;
        mismatch m;
        m.cycle = cycle_;
        m.what = b != nullptr ? describe(signal, *b) : signal;
        m.expected = fmt::format("0x{:x}", expected);
        m.got = fmt::format("0x{:x}", got);
        result_.first_mismatch = m;
        return false;
    }
    bool check_bit(const char* signal, const beat* b, bool expected, bool got) {
        ++result_.comparisons;
        if (expected == got) return true;
        mismatch m;
        m.cycle = cycle_;
        m.what = b != nullptr ? describe(signal, *b) : signal;
        m.expected = expected ? "1" : "0";
        m.got = got ? "1" : "0";
        result_.first_mismatch = m;
        return false;
    }
    /// One clock cycle of stimulus and checks; false at the first mismatch.
    bool step(bool drain);

    const check_options& opt_;
    bool with_coverage_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Model> model_;
    std::unique_ptr<VerilatedFstC> fst_;
    check_result result_;

    std::mt19937_64 rng_{opt_.seed ^ 0x5A4A'2D07'33C1'9E11ULL};
    sharp_alu_operands operands_{opt_.seed};
    std::vector<std::pair<red_op, red_type>> pairs_ = supported_pairs();
    std::size_t next_pair_ = 0;
    std::deque<beat> in_flight_;
    beat pending_;
    bool has_pending_ = false;
    double p_valid_ = 1.0;
    double p_ready_ = 1.0;
    std::uint64_t cycle_ = 0;
};

template <typename Model>
bool alu_run<Model>::step(bool drain) {
    auto chance = [this](double p) {
        return std::uniform_real_distribution<double>(0, 1)(rng_) < p;
    };
    if (cycle_ > 0 && cycle_ % PHASE_CYCLES == 0) {
        const double rates[] = {1.0, 0.9, 0.6, 0.3};
        p_valid_ = rates[rng_() % 4];
        p_ready_ = rates[rng_() % 4];
    }
    if (!has_pending_ && !drain && chance(p_valid_)) {
        if (next_pair_ == 0) std::shuffle(pairs_.begin(), pairs_.end(), rng_);
        pending_.op = pairs_[next_pair_].first;
        pending_.type = pairs_[next_pair_].second;
        next_pair_ = (next_pair_ + 1) % pairs_.size();
        pending_.in = operands_.next(pending_.type);
        golden_result(pending_);
        has_pending_ = true;
    }
    const bool ready = drain || chance(p_ready_);
    model_->in_valid_i = has_pending_;
    model_->op_i = static_cast<std::uint8_t>(pending_.op);
    model_->type_i = static_cast<std::uint8_t>(pending_.type);
    model_->a_i = pending_.in.a;
    model_->b_i = pending_.in.b;
    model_->a_idx_i = pending_.in.a_idx;
    model_->b_idx_i = pending_.in.b_idx;
    model_->out_ready_i = ready;
    settle();

    // Handshake and latency against the pipeline's specification (sharp_alu_check.h).
    const bool exp_in_ready = ready || in_flight_.size() < STAGES;
    if (!check_bit("in_ready_o", nullptr, exp_in_ready, model_->in_ready_o != 0)) return false;
    const bool exp_out_valid =
        !in_flight_.empty() && cycle_ - in_flight_.front().in_cycle >= STAGES;
    if (!check_bit("out_valid_o", in_flight_.empty() ? nullptr : &in_flight_.front(), exp_out_valid,
                   model_->out_valid_o != 0)) {
        return false;
    }
    if (exp_out_valid && ready) {
        const beat b = in_flight_.front();
        in_flight_.pop_front();
        if (!check("res_o", &b, b.res, static_cast<std::uint64_t>(model_->res_o))) {
            return false;
        }
        if (!check("res_idx_o", &b, b.res_idx, static_cast<std::uint32_t>(model_->res_idx_o))) {
            return false;
        }
    }
    if (has_pending_ && exp_in_ready) {
        pending_.in_cycle = cycle_;
        in_flight_.push_back(pending_);
        has_pending_ = false;
    }
    edge();
    ++result_.cycles;
    if (ctx_->gotError()) {
        mismatch m;
        m.cycle = cycle_;
        m.what = "assertion";
        m.expected = "no RTL assertion failure";
        m.got = "an RTL assertion failed (message on stderr)";
        result_.first_mismatch = m;
        return false;
    }
    ++cycle_;
    return true;
}

template <typename Model>
check_result alu_run<Model>::run() {
    reset();
    const std::uint64_t drain_from = opt_.cycles > STAGES + 2 ? opt_.cycles - (STAGES + 2) : 0;
    bool ok = true;
    while (ok && cycle_ < opt_.cycles) ok = step(cycle_ >= drain_from);
    if (ok) {
        check<std::uint64_t>("in_flight", nullptr, 0, in_flight_.size() + (has_pending_ ? 1 : 0));
    }
    if (with_coverage_) result_.coverage = verify::read_coverage(*ctx_);
    return result_;
}

}  // namespace

const std::vector<std::string>& sharp_alu_faults() {
    static const std::vector<std::string> faults = {"rounding", "latency"};
    return faults;
}

check_result check_sharp_alu(const check_options& options) {
    if (options.fault.empty()) {
        alu_run<Vibs_sharp_alu> run(options, true);
        return run.run();
    }
    if (options.fault == "rounding") {
        alu_run<Vibs_sharp_alu_fault_rounding> run(options, false);
        return run.run();
    }
    if (options.fault == "latency") {
        alu_run<Vibs_sharp_alu_fault_latency> run(options, false);
        return run.run();
    }
    throw std::invalid_argument("verify sharp_alu: unknown fault '" + options.fault +
                                "' (known: rounding, latency)");
}

}  // namespace ndr::verify
