#include "switch_core_bench.h"

#include <Vib_switch_core.h>
#include <Vib_switch_core_fault.h>

#include <stdexcept>

#include "switch_core_bench_model.h"

namespace ndr::verify {

core_geometry switch_core_bench::geometry() {
    return core_geometry{NDR_RTL_CORE_NUM_PORTS, NDR_RTL_CORE_NUM_VLS, NDR_RTL_CORE_BUF_BLOCKS,
                         (1U << NDR_RTL_CORE_BLOCKS_W) - 1, NDR_RTL_CORE_ITERATIONS};
}

std::vector<std::string> switch_core_bench::fault_names() {
    return {"drop_credit"};
}

switch_core_bench::switch_core_bench(const bench_params& p) {
    if (p.fault.empty()) {
        impl_ = std::make_unique<switch_core_bench_model<Vib_switch_core>>(p, geometry());
    } else if (p.fault == "drop_credit") {
        impl_ = std::make_unique<switch_core_bench_model<Vib_switch_core_fault>>(p, geometry());
    } else {
        throw std::invalid_argument("unknown fault '" + p.fault +
                                    "' for switch (known: drop_credit)");
    }
}

switch_core_bench::switch_core_bench(std::unique_ptr<iface> impl) : impl_(std::move(impl)) {}

switch_core_bench::~switch_core_bench() = default;

void switch_core_bench::push(const core_packet& p) {
    impl_->push(p);
}
void switch_core_bench::step() {
    impl_->step(*this);
}
uint64_t switch_core_bench::cycle() const {
    return impl_->cycle();
}
uint64_t switch_core_bench::queued() const {
    return impl_->queued();
}
uint64_t switch_core_bench::in_core() const {
    return impl_->in_core();
}
void switch_core_bench::final_check() {
    impl_->final_check();
}
const std::optional<mismatch>& switch_core_bench::first_mismatch() const {
    return impl_->first_mismatch();
}
uint64_t switch_core_bench::comparisons() const {
    return impl_->comparisons();
}
coverage_summary switch_core_bench::coverage() const {
    return impl_->coverage();
}
const core_stats& switch_core_bench::stats() const {
    return impl_->stats();
}
void switch_core_bench::reset_stats() {
    impl_->reset_stats();
}

}  // namespace ndr::verify
