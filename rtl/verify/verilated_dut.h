// Clock/reset driver for one Verilated --cc model in its own VerilatedContext, shared by every
// block check of `ndrsim verify` (rtl/<block>/<block>_check.cpp): assertions recorded rather than
// fatal, an optional FST waveform (models built with --trace-fst) and the model's Verilator
// coverage (models built with --coverage).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "verify/check_result.h"
#include "verify/coverage_reader.h"

namespace ndr::verify {

/// True iff Model was Verilated with --trace-fst (it then has trace(VerilatedFstC*, int)).
template <typename Model, typename = void>
struct has_fst_trace : std::false_type {};
template <typename Model>
struct has_fst_trace<Model, std::void_t<decltype(std::declval<Model&>().trace(
                                static_cast<VerilatedFstC*>(nullptr), 0))>> : std::true_type {};

/// Owns one Verilated model in its own context. Assertion failures ($error in an `assert`) do
/// not abort: the context records them and the check reports them as a mismatch (asserted()).
/// Time: settle() evaluates at the current time with the clock low; edge() dumps that state,
/// raises the clock one time unit later (dumped too) and lowers it one more unit later.
template <typename Model>
class verilated_dut {
public:
    /// wave_path non-empty: write an FST waveform of the whole model there. Throws
    /// std::invalid_argument if the model was built without --trace-fst.
    explicit verilated_dut(const std::string& wave_path = {})
        : ctx_(std::make_unique<VerilatedContext>()) {
        ctx_->fatalOnError(false);
        if (!wave_path.empty()) ctx_->traceEverOn(true);
        model_ = std::make_unique<Model>(ctx_.get(), "dut");
        if (!wave_path.empty()) open_wave(wave_path);
    }
    ~verilated_dut() {
        if (fst_) fst_->close();
        // Verilator 5.006 erases a model's scopes through the thread's current context: make it
        // this model's own before destruction (several models live in one thread).
        Verilated::threadContextp(ctx_.get());
        model_->final();
        model_.reset();
        // Leave no pointer to this context behind (a later default lookup makes a fresh one).
        Verilated::threadContextp(nullptr);
    }
    verilated_dut(const verilated_dut&) = delete;
    verilated_dut& operator=(const verilated_dut&) = delete;
    verilated_dut(verilated_dut&&) = delete;
    verilated_dut& operator=(verilated_dut&&) = delete;

    Model& m() { return *model_; }
    /// Active-low reset for two clock cycles, then released with the clock low.
    void reset() {
        model_->clk_i = 0;
        model_->rst_ni = 0;
        model_->eval();
        for (int i = 0; i < 2; ++i) edge();
        model_->rst_ni = 1;
        settle();
    }
    /// Evaluate combinational logic with the clock low (after the inputs were set).
    void settle() {
        model_->clk_i = 0;
        model_->eval();
    }
    /// One rising edge, then the clock goes low again: registers take their _d values.
    void edge() {
        dump();
        ctx_->timeInc(1);
        model_->clk_i = 1;
        model_->eval();
        dump();
        ctx_->timeInc(1);
        model_->clk_i = 0;
        model_->eval();
    }
    /// True once an RTL assertion has failed in this context.
    bool asserted() const { return ctx_->gotError(); }
    /// Coverage points of this model so far (0/0 if it was built without --coverage).
    coverage_summary coverage() const { return read_coverage(*ctx_); }

private:
    void open_wave(const std::string& path) {
        if constexpr (has_fst_trace<Model>::value) {
            fst_ = std::make_unique<VerilatedFstC>();
            model_->trace(fst_.get(), 99);
            fst_->open(path.c_str());
            if (!fst_->isOpen()) {
                throw std::invalid_argument("--wave " + path + ": cannot open the file");
            }
        } else {
            throw std::invalid_argument("--wave: this model was built without --trace-fst");
        }
    }
    void dump() {
        if (fst_) fst_->dump(ctx_->time());
    }

    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Model> model_;
    std::unique_ptr<VerilatedFstC> fst_;
};

}  // namespace ndr::verify
