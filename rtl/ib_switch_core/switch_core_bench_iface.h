// The model-independent face of the switch-core harness: switch_core_bench forwards to one of
// these, implemented once per Verilated build (the real core and its fault builds share the
// port list, so one template implements all: switch_core_bench_model.h).
#pragma once
#include <cstdint>
#include <optional>

#include "switch_core_bench.h"

namespace ndr::verify {

class switch_core_bench::iface {
public:
    virtual ~iface() = default;
    virtual void push(const core_packet& p) = 0;
    virtual void step(switch_core_bench& owner) = 0;
    virtual uint64_t cycle() const = 0;
    virtual uint64_t queued() const = 0;
    virtual uint64_t in_core() const = 0;
    virtual void final_check() = 0;
    virtual const std::optional<mismatch>& first_mismatch() const = 0;
    virtual uint64_t comparisons() const = 0;
    virtual coverage_summary coverage() const = 0;
    virtual const core_stats& stats() const = 0;
    virtual void reset_stats() = 0;
};

}  // namespace ndr::verify
