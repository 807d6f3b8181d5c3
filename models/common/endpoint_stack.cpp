#include "common/endpoint_stack.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ndr::common {

namespace {

/// Picoseconds per byte of a rate in bits per second.
double ps_per_byte(uint64_t bps) {
    return bps == 0 ? 0.0 : 8e12 / static_cast<double>(bps);
}

}  // namespace

endpoint_stack::endpoint_stack(const cfg::config& c, uint64_t cycle_ps, uint32_t ranks)
    : cycle_ps_(cycle_ps == 0 ? 1 : cycle_ps) {
    const cfg::host_config& h = c.host;
    if (h.stack == "nccl") {
        kind_ = stack_kind::nccl;
        launch_ = to_cycles(static_cast<double>(h.nccl_launch.ps));
        const uint64_t rtt = h.pcie_rtt.ps;
        const uint64_t proxy = h.nccl_proxy_step.ps;
        // Sender: the GPU's posted write (rtt / 2), the proxy's pass, ibv_post_send, the
        // doorbell (rtt / 2), the HCA's WQE fetch and payload fetch (a round trip each).
        post_ps_ = 3 * rtt + proxy + h.wqe_post.ps;
        // Simple receiver: the proxy polls the CQ; with GDR (buffers in GPU memory) on volta
        // and ampere the GDR flush (NCCL's ncclTopoNeedFlush), without GDR the GPU's read of
        // the data from host memory; then the GPU polls the tail in host memory.
        arrive_ps_ = proxy + h.cqe_poll.ps + rtt;
        const std::string& arch = c.nccl.gpu_arch;
        if (!h.nccl_gdr) {
            arrive_ps_ += rtt;
        } else if (arch == "volta" || arch == "ampere") {
            arrive_ps_ += h.wqe_post.ps + 3 * rtt + proxy + h.cqe_poll.ps;
        }
        // LL and LL128: the GPU polls the flags where the receive buffer is: its own memory
        // with GDR (nothing to cross), else host memory (one round trip on average).
        flags_ps_ = h.nccl_gdr ? 0 : rtt;
    } else if (h.stack == "mpi") {
        kind_ = stack_kind::mpi;
        post_ps_ = h.mpi_o.ps;
        arrive_ps_ = h.mpi_o.ps;
        o_ = to_cycles(static_cast<double>(h.mpi_o.ps));
        gap_ps_ = h.mpi_g.ps;
        eager_limit_ = h.mpi_eager_limit.count;
        copy_ps_per_byte_ = ps_per_byte(h.mpi_copy_rate.bps);
        reduce_ps_per_byte_ = ps_per_byte(h.mpi_reduce_rate.bps);
        next_post_ps_.assign(ranks, 0);
    }
    if (kind_ != stack_kind::none) {
        sharp_post_ = to_cycles(static_cast<double>(h.wqe_post.ps));
        sharp_poll_ = to_cycles(static_cast<double>(h.cqe_poll.ps));
    }
}

cycle_t endpoint_stack::sharp_entry_cycles(uint64_t bytes) const {
    if (kind_ == stack_kind::nccl) return launch_;
    if (kind_ != stack_kind::mpi) return 0;
    return o_ + to_cycles(copy_ps(bytes));
}

cycle_t endpoint_stack::sharp_exit_cycles(uint64_t bytes) const {
    if (kind_ != stack_kind::mpi) return 0;
    return o_ + to_cycles(copy_ps(bytes));
}

cycle_t endpoint_stack::to_cycles(double ps) const {
    if (ps <= 0) return 0;
    return static_cast<cycle_t>(std::ceil(ps / static_cast<double>(cycle_ps_) - 1e-9));
}

bool endpoint_stack::rendezvous(uint64_t bytes) const {
    return kind_ == stack_kind::mpi && bytes > eager_limit_;
}

cycle_t endpoint_stack::post_at(cycle_t t, uint32_t rank, uint64_t bytes) {
    if (kind_ == stack_kind::none) return t;
    double ps = static_cast<double>(post_ps_);
    if (kind_ == stack_kind::mpi && !rendezvous(bytes)) ps += copy_ps(bytes);
    cycle_t at = t + to_cycles(ps);
    if (gap_ps_ != 0 && rank < next_post_ps_.size()) {
        const uint64_t at_ps = std::max(at * cycle_ps_, next_post_ps_[rank]);
        next_post_ps_[rank] = at_ps + gap_ps_;
        at = (at_ps + cycle_ps_ - 1) / cycle_ps_;
    }
    return at;
}

cycle_t endpoint_stack::arrival_cycles(uint64_t bytes, bool reduce, arrival_signal signal) const {
    if (kind_ == stack_kind::none) return 0;
    if (kind_ == stack_kind::nccl) {
        if (signal == arrival_signal::flags) return to_cycles(static_cast<double>(flags_ps_));
    }
    double ps = static_cast<double>(arrive_ps_);
    if (kind_ == stack_kind::mpi) {
        if (!rendezvous(bytes)) ps += copy_ps(bytes);
        if (reduce) ps += static_cast<double>(bytes) * reduce_ps_per_byte_;
    }
    return to_cycles(ps);
}

cycle_t endpoint_stack::local_cycles(uint64_t bytes, bool reduce) const {
    if (kind_ != stack_kind::mpi || !reduce) return 0;
    return to_cycles(static_cast<double>(bytes) * reduce_ps_per_byte_);
}

}  // namespace ndr::common
