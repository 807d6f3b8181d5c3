// The HCA's WQE engine rate limits, shared by both HCA levels (cycle::hca_array,
// tlmm::hca_tlm): at most one WQE per hca.message_interval per HCA and at most one per
// hca.qp_message_interval per queue pair (a single QP is processed by one engine pipeline and
// reaches a small fraction of the HCA's message rate; docs/domain.md §13 'HCA message rate').
// Exact in picoseconds over many events, as interval_pacer. SystemC-free.
#pragma once
#include <algorithm>
#include <cstdint>
#include <unordered_map>

#include "common/cycles.h"

namespace ndr::common {

class wqe_pacer {
public:
    wqe_pacer() = default;
    /// 0 = no limit for either interval; `cycle_ps` > 0.
    wqe_pacer(uint64_t hca_interval_ps, uint64_t qp_interval_ps, uint64_t cycle_ps)
        : hca_interval_ps_(hca_interval_ps), qp_interval_ps_(qp_interval_ps), cycle_ps_(cycle_ps) {}

    /// Books the next WQE of queue pair `qp`, wanted at cycle `earliest`: the first cycle at or
    /// after it whose boundary is past both the HCA's and the QP's previous WQE plus their
    /// intervals.
    cycle_t next(cycle_t earliest, uint32_t qp) {
        uint64_t exact = std::max(earliest * cycle_ps_, hca_next_ps_);
        if (qp_interval_ps_ != 0) {
            uint64_t& q = qp_next_ps_[qp];
            exact = std::max(exact, q);
            q = exact + qp_interval_ps_;
        }
        hca_next_ps_ = exact + hca_interval_ps_;
        return (exact + cycle_ps_ - 1) / cycle_ps_;
    }

private:
    uint64_t hca_interval_ps_ = 0;
    uint64_t qp_interval_ps_ = 0;
    uint64_t cycle_ps_ = 1;
    uint64_t hca_next_ps_ = 0;
    std::unordered_map<uint32_t, uint64_t> qp_next_ps_;  ///< per QP: earliest next WQE (ps)
};

}  // namespace ndr::common
