// common/endpoint_stack against hand-computed costs: with a 1 ns cycle every cost below is a
// whole number of cycles, so each expectation is the sum of the configured terms.
#include <catch2/catch.hpp>

#include "common/endpoint_stack.h"
#include "config/sim_config.h"

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

TEST_CASE("endpoint_stack nccl: launch, proxy + post, poll", "[common]") {
    endpoint_stack s(with_stack("nccl"), NS, 4);
    CHECK(s.kind() == stack_kind::nccl);
    CHECK(s.launch_cycles() == 5000);
    CHECK(s.post_at(10, 0, 8) == 10 + 400 + 100);
    CHECK(s.post_at(10, 0, 8) == 510);  // no gap: a rank posts back to back
    CHECK(s.arrival_cycles(1 << 20, true) == 50);
    CHECK(s.local_cycles(4096, true) == 0);
    CHECK_FALSE(s.rendezvous(1 << 30));
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
