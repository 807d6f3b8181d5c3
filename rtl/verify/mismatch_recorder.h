// First-mismatch recorder of the block checks (ndrsim verify): counts comparisons and keeps the
// first disagreement between the RTL and its reference, with cycle, port, VL, signal, expected
// and got. The checks stop at the first mismatch (later ones are usually consequences).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "verify/check_result.h"

namespace ndr::verify {

class mismatch_recorder {
public:
    /// One comparison; records a mismatch unless one was recorded already. Returns expected == got.
    template <typename E, typename G>
    bool check(std::uint64_t cycle, int port, int vl, const char* what, const E& expected,
               const G& got) {
        ++comparisons_;
        if (expected == got) return true;
        if (!first_) {
            first_ = mismatch{
                cycle, port, vl, what, fmt::format("{}", expected), fmt::format("{}", got)};
        }
        return false;
    }
    /// A failure that is not a value comparison (e.g. an RTL assertion fired).
    void fail(std::uint64_t cycle, std::string what, std::string expected, std::string got) {
        if (!first_)
            first_ = mismatch{cycle, -1, -1, std::move(what), std::move(expected), std::move(got)};
    }
    /// Records a failed RTL assertion (Verilator prints which one on stderr).
    void assertion(std::uint64_t cycle) {
        fail(cycle, "RTL assertion", "no assertion failure", "assertion failed (see stderr)");
    }
    bool ok() const { return !first_.has_value(); }
    std::uint64_t comparisons() const { return comparisons_; }
    const std::optional<mismatch>& first() const { return first_; }

private:
    std::uint64_t comparisons_ = 0;
    std::optional<mismatch> first_;
};

/// One line: "cycle C, port P, VL V, what: expected E, got G" ("-" for no port or VL).
std::string format_mismatch(const mismatch& m);

}  // namespace ndr::verify
