// common/endpoint_stack against hand-computed costs: with a 1 ns cycle every cost below is a
// whole number of cycles, so each expectation is the sum of the configured terms.
#include <catch2/catch.hpp>

#include "common/endpoint_stack.h"
#include "config/sim_config.h"

using ndr::common::arrival_signal;
using ndr::common::cycle_t;
using ndr::common::endpoint_stack;
using ndr::common::stack_kind;

namespace {

constexpr uint64_t NS = 1000;  // ps per 1 ns cycle

ndr::cfg::config with_stack(const char* stack) {
    ndr::cfg::config c;
    c.host.stack = stack;
    c.host.nccl_launch.ps = 5000 * NS;
    c.host.nccl_proxy_step.ps = 400 * NS;
    c.host.wqe_post.ps = 100 * NS;
    c.host.cqe_poll.ps = 50 * NS;
    c.host.pcie_rtt.ps = 600 * NS;
    c.host.mpi_o.ps = 300 * NS;
    c.host.mpi_g.ps = 1000 * NS;
    c.host.mpi_copy_rate.bps = 8'000'000'000;    // 1 GB/s: 1 ns per byte
    c.host.mpi_reduce_rate.bps = 4'000'000'000;  // 0.5 GB/s: 2 ns per byte
    c.host.mpi_eager_limit.count = 1024;
    return c;
}

}  // namespace

TEST_CASE("endpoint_stack none adds nothing", "[common]") {
    endpoint_stack s(with_stack("none"), NS, 4);
    CHECK(s.kind() == stack_kind::none);
    CHECK(s.launch_cycles() == 0);
    CHECK(s.post_at(77, 0, 1 << 20) == 77);
    CHECK(s.arrival_cycles(1 << 20, true) == 0);
    CHECK(s.local_cycles(1 << 20, true) == 0);
    CHECK_FALSE(s.rendezvous(1 << 30));
}

TEST_CASE("endpoint_stack nccl: launch, network step, arrival by protocol", "[common]") {
    endpoint_stack s(with_stack("nccl"), NS, 4);  // nccl.gpu_arch hopper, GDR: no flush
    CHECK(s.kind() == stack_kind::nccl);
    CHECK(s.launch_cycles() == 5000);
    // Sender, in ns: the GPU's posted write into host memory (half of the 600 ns round trip),
    // the proxy's loop pass, ibv_post_send, the doorbell (half a round trip), the HCA's WQE
    // fetch and payload fetch (a round trip each).
    const cycle_t send = 300 + 400 + 100 + 300 + 600 + 600;
    CHECK(send == 2300);
    CHECK(s.post_at(10, 0, 8) == 10 + send);
    CHECK(s.post_at(10, 0, 8) == 10 + send);        // no gap: a rank posts back to back
    CHECK(s.post_at(10, 3, 1 << 20) == 10 + send);  // no per-byte cost
    // LL, LL128 with GDR: the flags land in GPU memory, the GPU polls them there.
    CHECK(s.arrival_cycles(8, true, arrival_signal::flags) == 0);
    // Simple: the proxy's pass, its CQ poll, the GPU's read of the tail in host memory.
    CHECK(s.arrival_cycles(1 << 20, true) == 400 + 50 + 600);
    CHECK(s.arrival_cycles(1 << 20, false, arrival_signal::completion) == 1050);
    CHECK(s.local_cycles(4096, true) == 0);
    CHECK_FALSE(s.rendezvous(1 << 30));
}

TEST_CASE("endpoint_stack nccl: the GDR flush of simple on volta and ampere", "[common]") {
    for (const char* arch : {"volta", "ampere"}) {
        ndr::cfg::config c = with_stack("nccl");
        c.nccl.gpu_arch = arch;
        endpoint_stack s(c, NS, 2);
        // CQ poll as on hopper (400 + 50), then the flush: ibv_post_send of the RDMA read
        // (100), doorbell (300), WQE fetch (600), the read of GPU memory (600), the result and
        // CQE written back (300), the proxy's pass (400) and CQ poll (50); then the tail (600).
        CHECK(s.arrival_cycles(64, false) == 450 + (100 + 300 + 600 + 600 + 300 + 400 + 50) + 600);
        CHECK(s.arrival_cycles(64, false) == 3400);
        // LL and LL128 need no flush; the sender is unchanged.
        CHECK(s.arrival_cycles(64, false, arrival_signal::flags) == 0);
        CHECK(s.post_at(0, 1, 64) == 2300);
    }
    ndr::cfg::config b = with_stack("nccl");
    b.nccl.gpu_arch = "blackwell";
    CHECK(endpoint_stack(b, NS, 2).arrival_cycles(64, false) == 1050);
}

TEST_CASE("endpoint_stack nccl without GDR: receive buffers in host memory", "[common]") {
    for (const char* arch : {"ampere", "hopper"}) {
        ndr::cfg::config c = with_stack("nccl");
        c.host.nccl_gdr = false;
        c.nccl.gpu_arch = arch;  // no flush either way: nothing was written to GPU memory
        endpoint_stack s(c, NS, 2);
        // LL, LL128: the flags polled across PCIe, one 600 ns round trip.
        CHECK(s.arrival_cycles(8, false, arrival_signal::flags) == 600);
        // Simple: proxy pass + CQ poll (450), the GPU reads the data (600) and the tail (600).
        CHECK(s.arrival_cycles(8, false) == 450 + 600 + 600);
        CHECK(s.post_at(0, 0, 8) == 2300);
    }
}

TEST_CASE("endpoint_stack nccl: costs round up to whole cycles once each", "[common]") {
    ndr::cfg::config c = with_stack("nccl");
    c.host.pcie_rtt.ps = 561'000;  // 3 x 561 + 400 + 100 = 2183 ns
    c.host.nccl_gdr = false;
    endpoint_stack s(c, 2 * NS, 1);                                   // 2 ns cycles
    CHECK(s.post_at(0, 0, 8) == 1092);                                // 2183 / 2, up
    CHECK(s.arrival_cycles(8, false, arrival_signal::flags) == 281);  // 561 / 2, up
    CHECK(s.arrival_cycles(8, false) == 786);                         // (450 + 2 x 561) / 2 = 786
}

TEST_CASE("endpoint_stack mpi: LogGP o and g, eager copies, rendezvous, reduction", "[common]") {
    endpoint_stack s(with_stack("mpi"), NS, 2);
    CHECK(s.kind() == stack_kind::mpi);
    CHECK(s.launch_cycles() == 0);
    // Eager 100 B: o + copy in (100 ns).
    CHECK(s.post_at(0, 0, 100) == 300 + 100);
    // The same rank's next message waits for g after the previous one reached the HCA.
    CHECK(s.post_at(0, 0, 100) == 400 + 1000);
    CHECK(s.post_at(0, 1, 100) == 400);  // another rank has its own gap
    // Rendezvous (2000 B > 1024): o only, zero copy.
    CHECK(s.rendezvous(2000));
    CHECK_FALSE(s.rendezvous(1024));
    CHECK(s.post_at(5000, 1, 2000) == 5300);
    // Receiver: o + copy out (100 ns) + reduce (200 ns).
    CHECK(s.arrival_cycles(100, true) == 300 + 100 + 200);
    CHECK(s.arrival_cycles(100, false) == 400);
    CHECK(s.arrival_cycles(2000, false) == 300);
    // Local reduction of 64 B: 128 ns; a local copy is free (the eager send copies).
    CHECK(s.local_cycles(64, true) == 128);
    CHECK(s.local_cycles(64, false) == 0);
    CHECK(s.handshake_cycles() == 300);
}

TEST_CASE("endpoint_stack SHARP host path: entry, post per request, poll per result, exit",
          "[common]") {
    const endpoint_stack none(with_stack("none"), NS, 4);
    CHECK_FALSE(none.sharp_costs());
    CHECK(none.sharp_entry_cycles(4096) == 0);
    CHECK(none.sharp_exit_cycles(4096) == 0);
    const endpoint_stack nccl(with_stack("nccl"), NS, 4);
    CHECK(nccl.sharp_costs());
    CHECK(nccl.sharp_entry_cycles(4096) == 5000);  // the kernel launch, no host copy
    CHECK(nccl.sharp_post_cycles() == 100);        // host.wqe_post
    CHECK(nccl.sharp_poll_cycles() == 50);         // host.cqe_poll
    CHECK(nccl.sharp_exit_cycles(4096) == 0);
    const endpoint_stack mpi(with_stack("mpi"), NS, 4);
    CHECK(mpi.sharp_entry_cycles(4096) == 300 + 4096);  // o + the copy in at 1 ns per byte
    CHECK(mpi.sharp_post_cycles() == 100);
    CHECK(mpi.sharp_poll_cycles() == 50);
    CHECK(mpi.sharp_exit_cycles(8) == 300 + 8);  // o + the copy out
}
