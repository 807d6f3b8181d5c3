// Shared pieces of the RTL-versus-golden checks in tests/rtl: a first-mismatch recorder and a
// clock/reset driver for Verilated --cc models (one VerilatedContext per model, assertions on).
#pragma once
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include <verilated.h>

namespace ndr::rtl_test {

/// Records the first disagreement between the RTL and the golden model, with cycle, VL, signal,
/// expected and got. Later mismatches are ignored (they are usually consequences).
class mismatch_log {
public:
    template <typename E, typename G>
    bool check(uint64_t cycle, int vl, const char* what, const E& expected, const G& got) {
        if (expected == got) return true;
        if (first_.empty()) {
            std::ostringstream os;
            os << "cycle " << cycle << ", VL " << vl << ", " << what << ": expected " << expected
               << ", got " << got;
            first_ = os.str();
        }
        return false;
    }
    void fail(std::string message) {
        if (first_.empty()) first_ = std::move(message);
    }
    bool ok() const { return first_.empty(); }
    const std::string& first() const { return first_; }

private:
    std::string first_;
};

/// Owns one Verilated model in its own context. Assertion failures ($error in an `assert`) do not
/// abort: the context records them and the harness reports them as a mismatch (asserted()).
template <typename Model>
class verilated_dut {
public:
    verilated_dut() : ctx_(std::make_unique<VerilatedContext>()) {
        ctx_->fatalOnError(false);
        model_ = std::make_unique<Model>(ctx_.get(), "dut");
    }
    ~verilated_dut() {
        if (model_) model_->final();
    }
    verilated_dut(const verilated_dut&) = delete;
    verilated_dut& operator=(const verilated_dut&) = delete;

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
        ctx_->timeInc(1);
        model_->clk_i = 1;
        model_->eval();
        ctx_->timeInc(1);
        model_->clk_i = 0;
        model_->eval();
    }
    /// True once an RTL assertion has failed in this context.
    bool asserted() const { return ctx_->gotError(); }

private:
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Model> model_;
};

}  // namespace ndr::rtl_test
