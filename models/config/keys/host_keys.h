// The `host` section: the endpoint software stack that issues a host collective's transfers
// and consumes their completions (models/common/endpoint_stack.h, applied once in
// testbench/host/replay.cpp for every model level). Each parameter is one field here, with its
// default as the initialiser, and one row in host_rows() below (key, range, help with its source),
// in the order `ndrsim config keys` lists them. Adding a key to this section touches no other
// config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Host software costs (docs/domain.md §13 "Endpoint software costs"; soft values).
struct host_config {
    std::string stack = "none";          ///< none | nccl | mpi: which costs apply
    time_ps_t nccl_launch{3'000'000};    ///< per collective: launch + teardown, back to back
    time_ps_t nccl_proxy_step{400'000};  ///< per proxy event: a progress-loop pass (soft)
    time_ps_t wqe_post{100'000};  ///< per transfer / SHARP OST request: post + doorbell (soft)
    time_ps_t cqe_poll{50'000};   ///< per arrival / SHARP result: CQ poll noticing it (soft)
    time_ps_t pcie_rtt{560'000};  ///< 64 B read across PCIe, device <-> host memory (pcie-bench)
    bool nccl_gdr = true;         ///< receive buffers in GPU memory (GPUDirect RDMA)
    time_ps_t mpi_o{300'000};     ///< LogGP o: per message, each side (soft)
    time_ps_t mpi_g{200'000};     ///< LogGP g: min gap between a rank's messages (soft)
    rate_bps_t mpi_copy_rate{80'000'000'000};    ///< eager buffer copy, 10 GB/s (soft)
    rate_bps_t mpi_reduce_rate{40'000'000'000};  ///< CPU reduction, 5 GB/s (soft)
    bytes_t mpi_eager_limit{12 * 1024};          ///< above it: rendezvous (RTS/CTS round trip)
};

namespace detail {

/// The rows of the `host` section; `s` is a section_keys<host_config>
/// (config/keys/key_builders.h).
template <class Rows>
void host_rows(Rows& s) {
    s.choice_key("host.stack", &host_config::stack, {"none", "nccl", "mpi"},
                 "endpoint software of host collectives: none (transfers post and complete at "
                 "the HCA's times), nccl (host.nccl_* launch and proxy costs, host.wqe_post, "
                 "host.cqe_poll; `auto` algorithm and protocol by NCCL's tuner, alltoall as "
                 "NCCL's grouped send/recv, p2p), mpi (LogGP "
                 "host.mpi_* costs, eager / "
                 "rendezvous, MPICH's `auto`: rd up to 2 KiB); docs/architecture.md 'Endpoint "
                 "software costs'");
    s.unit_key("host.nccl_launch", &host_config::nccl_launch, LATENCY_RANGE, latency,
               "nccl: per collective, the kernel's launch and teardown as nccl-tests times "
               "them without CUDA graphs (before the first transfer); "
               "docs/domain.md §13 'Endpoint software costs' (~3 us: NVIDIA/nccl issue 1984, "
               "soft)");
    s.unit_key("host.nccl_proxy_step", &host_config::nccl_proxy_step, LATENCY_RANGE, latency,
               "nccl: per event the proxy thread waits for (a network step's data ready to "
               "send; with simple, its receive completion and the GDR flush's completion), one "
               "pass of the proxy's progress loop, which yields the CPU when idle; "
               "docs/domain.md §13 'Endpoint software costs' (soft)");
    s.unit_key("host.wqe_post", &host_config::wqe_post, LATENCY_RANGE, latency,
               "nccl: per network step (and per GDR flush), building the WQE and ringing the "
               "doorbell (ibv_post_send); nccl and mpi: per OST request a SHARP collective's "
               "library posts; docs/domain.md §13 'Endpoint software costs' (~0.1 us, soft)");
    s.unit_key("host.cqe_poll", &host_config::cqe_poll, LATENCY_RANGE, latency,
               "nccl: per simple-protocol arrival (and per GDR flush), the proxy's CQ poll "
               "reading the completion; nccl and mpi: per SHARP result the library polls; "
               "docs/domain.md §13 'Endpoint software costs' (soft)");
    s.unit_key("host.pcie_rtt", &host_config::pcie_rtt, LATENCY_RANGE, latency,
               "nccl: round trip of a small read across PCIe between a device and host memory "
               "(a posted write costs half): per network step the GPU's write of data or FIFO "
               "entry, the doorbell, the HCA's WQE and payload fetches, the receiving GPU's "
               "poll of host memory (LL flags, simple tail) and the GDR flush; docs/domain.md "
               "§13 'Endpoint software costs' (0.56 us: pcie-bench 64 B DMA read, Neugebauer "
               "et al., SIGCOMM 2018)");
    s.bool_key("host.nccl_gdr", &host_config::nccl_gdr,
               "nccl: GPUDirect RDMA on the receive side, so NCCL's receive buffers of every "
               "protocol are in GPU memory (LL and LL128 flags polled locally; simple flushed "
               "on volta/ampere); false: in host memory, the GPU polls flags and the tail and "
               "reads simple data across PCIe (host.pcie_rtt each); docs/domain.md §13 "
               "'Endpoint software costs' (NCCL uses GDR when GPU and NIC share a PCIe switch, "
               "NCCL_NET_GDR_LEVEL)");
    s.unit_key("host.mpi_o", &host_config::mpi_o, LATENCY_RANGE, latency,
               "mpi: LogGP overhead o, CPU time per message on the sender (before it posts) and "
               "on the receiver (after it arrives); docs/domain.md §13 'Endpoint software "
               "costs' (soft)");
    s.unit_key("host.mpi_g", &host_config::mpi_g, LATENCY_RANGE, latency,
               "mpi: LogGP gap g, the least time between two messages one rank posts; "
               "docs/domain.md §13 'Endpoint software costs' (soft)");
    s.unit_key("host.mpi_copy_rate", &host_config::mpi_copy_rate, "> 0", positive,
               "mpi: memory copy rate of an eager message into the send buffer and out of the "
               "receive buffer (per-byte copy cost = 1 / rate); docs/domain.md §13 'Endpoint "
               "software costs' (10 GB/s, soft)");
    s.unit_key("host.mpi_reduce_rate", &host_config::mpi_reduce_rate, "> 0", positive,
               "mpi: CPU reduction rate of a received buffer into the result (per-byte reduce "
               "cost = 1 / rate); docs/domain.md §13 'Endpoint software costs' (5 GB/s, soft)");
    s.unit_key("host.mpi_eager_limit", &host_config::mpi_eager_limit, "any", nullptr,
               "mpi: largest eager message; larger ones use rendezvous: a 0-byte request to the "
               "receiver and its 0-byte reply cross the fabric before the data (zero copy); "
               "docs/domain.md §13 'Endpoint software costs' (Open MPI openib 12 KiB, soft)");
}

}  // namespace detail
}  // namespace ndr::cfg
