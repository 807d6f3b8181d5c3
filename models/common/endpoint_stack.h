// The endpoint software of host collectives (the `host` section, config/keys/host_keys.h): what
// the host adds before a transfer reaches its HCA and after its data has arrived, chosen by
// host.stack. testbench/host/replay.cpp asks it at the one place network transfers are posted
// and completed, so every model level (cycle, tlm) gets the same costs. SystemC-free.
//   none  no costs: transfers post and complete at the HCA's times.
//   nccl  NCCL's network transport (NVIDIA/nccl src/transport/net.cc, net_ib), with R =
//         host.pcie_rtt, P = host.nccl_proxy_step, W = host.wqe_post, C = host.cqe_poll:
//         per collective host.nccl_launch (the kernel's launch and teardown);
//         per network step before the HCA sends: R/2 (the GPU's posted write of the data or
//         the FIFO entry into host memory) + P (the proxy's loop notices it) + W
//         (ibv_post_send) + R/2 (the doorbell reaches the HCA) + R (WQE fetch) + R (payload
//         fetch: NCCL posts no inline data) = 3R + P + W;
//         per arrival, by where NCCL's receive buffers are (host.nccl_gdr, net.cc's
//         recvProxyConnect): with GPUDirect RDMA in GPU memory, so LL and LL128 (the GPU polls
//         the flags in the data) add nothing and simple adds P + C (the proxy polls the CQ) +
//         on volta/ampere (nccl.gpu_arch) the GDR flush W + 3R + P + C (an RDMA read of GPU
//         memory on a loopback QP: post, doorbell, WQE fetch, the read, the result and CQE
//         written back, the proxy polling it) + R (the GPU polls the tail the proxy wrote into
//         host memory); without GDR in host memory: LL and LL128 R (the flags polled across
//         PCIe: on average one read round trip after they land), simple P + C + R (the
//         GPU's read of the data) + R (the tail).
//   mpi   LogGP: per message host.mpi_o on the sender before it posts and on the receiver
//         after arrival, a rank posts at most one message per host.mpi_g; eager messages (<=
//         host.mpi_eager_limit) are copied into and out of bounce buffers at
//         host.mpi_copy_rate; larger ones go by rendezvous (a 0-byte request and reply cross
//         the fabric first, zero copy); a reduce transfer also pays host.mpi_reduce_rate.
//         A local step (src == dst: rd's reduction of a received buffer) pays the reduction,
//         its copy into the send buffer nothing (the eager copy of the send pays for it).
// SHARP collectives (nccl and mpi; none: no costs) go through the SHARP library on each member:
// the collective's entry (nccl: host.nccl_launch; mpi: host.mpi_o plus the copy of the buffer
// into the library's registered buffer at host.mpi_copy_rate), one host.wqe_post per OST request
// it posts, one host.cqe_poll per result it polls, and the exit (mpi: host.mpi_o plus the copy
// of the result out; nccl: nothing).
// Times are in picoseconds, rounded up to whole cycles once per cost.
#pragma once
#include <cstdint>
#include <vector>

#include "common/cycles.h"
#include "config/sim_config.h"

namespace ndr::common {

enum class stack_kind : uint8_t { none, nccl, mpi };

/// How the receiver of a network step learns that its data is there (NCCL's protocols).
enum class arrival_signal : uint8_t {
    completion,  ///< simple: the proxy polls the receive completion and updates the tail
    flags,       ///< LL, LL128: the GPU polls the flags in the data
};

class endpoint_stack {
public:
    /// `ranks`: how many ranks keep a gap (host.mpi_g) state.
    endpoint_stack(const cfg::config& c, uint64_t cycle_ps, uint32_t ranks);

    stack_kind kind() const { return kind_; }
    /// Cycles from a collective's start to its first transfers being ready (nccl launch).
    cycle_t launch_cycles() const { return launch_; }
    /// The cycle at which a network transfer of `bytes` that `rank` is ready to send at `t`
    /// starts at its HCA; takes the rank's next slot under host.mpi_g. `t` itself when nothing
    /// applies.
    cycle_t post_at(cycle_t t, uint32_t rank, uint64_t bytes);
    /// Cycles from a network transfer's arrival to the receiver acting on it; `signal` is how
    /// the receiver learns of it (nccl: by protocol; mpi: ignored).
    cycle_t arrival_cycles(uint64_t bytes, bool reduce,
                           arrival_signal signal = arrival_signal::completion) const;
    /// Cycles a local step (src == dst) takes.
    cycle_t local_cycles(uint64_t bytes, bool reduce) const;
    /// True if a message of `bytes` goes by rendezvous (mpi, above host.mpi_eager_limit).
    bool rendezvous(uint64_t bytes) const;
    /// Cycles of the receiver's work on a rendezvous request before it replies (mpi: o).
    cycle_t handshake_cycles() const { return o_; }
    /// True if SHARP collectives pay the SHARP library's host path (nccl, mpi).
    bool sharp_costs() const { return kind_ != stack_kind::none; }
    /// SHARP: cycles from a member's call to it being ready to post its first OST request.
    cycle_t sharp_entry_cycles(uint64_t bytes) const;
    /// SHARP: cycles the host spends posting one OST request (host.wqe_post).
    cycle_t sharp_post_cycles() const { return sharp_post_; }
    /// SHARP: cycles from a result's arrival to the host having polled it (host.cqe_poll).
    cycle_t sharp_poll_cycles() const { return sharp_poll_; }
    /// SHARP: cycles from a member's last result polled to its call returning.
    cycle_t sharp_exit_cycles(uint64_t bytes) const;

private:
    cycle_t to_cycles(double ps) const;
    double copy_ps(uint64_t bytes) const { return static_cast<double>(bytes) * copy_ps_per_byte_; }

    stack_kind kind_ = stack_kind::none;
    uint64_t cycle_ps_ = 1;
    cycle_t launch_ = 0;
    uint64_t post_ps_ = 0;    ///< fixed sender cost per transfer
    uint64_t arrive_ps_ = 0;  ///< fixed receiver cost per arrival (mpi; nccl: simple)
    uint64_t flags_ps_ = 0;   ///< nccl LL, LL128: the GPU's poll of the flags
    cycle_t o_ = 0;           ///< mpi: o in cycles
    cycle_t sharp_post_ = 0;  ///< SHARP: host.wqe_post in cycles
    cycle_t sharp_poll_ = 0;  ///< SHARP: host.cqe_poll in cycles
    uint64_t gap_ps_ = 0;     ///< mpi: g
    uint64_t eager_limit_ = 0;
    double copy_ps_per_byte_ = 0;
    double reduce_ps_per_byte_ = 0;
    std::vector<uint64_t> next_post_ps_;  ///< per rank: earliest next post under g
};

}  // namespace ndr::common
