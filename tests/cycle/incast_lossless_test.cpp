// Lossless operation under a 63:1 incast at full load (IB credit flow control, docs/domain.md §2):
// no packet is lost, no buffer exceeds its capacity, back-pressure reaches the sources and the
// hot port still runs at line rate.
//
// sim.check_invariants (default true) makes the model throw invariant_error on any credit
// underflow, buffer overflow, FCTBS/ABR mismatch (a lost block), misrouted, duplicated or
// reordered packet; run_traffic also checks packet conservation in the pool at the end. So
// "the run completes" is itself the main check. Window: 300k cycles = ~4600 hot-port packets
// and ~94 forced FC refresh rounds (FCTBS checks) at 4.096 us; the source queues grow by
// ~62/65 packets per cycle across the fabric, which keeps memory well below 1 GB.
#include "cycle_test_util.h"

#include "common/invariant_error.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

TEST_CASE("incast 63:1 at load 1.0 for 300k cycles: lossless, hot port at line rate",
          "[cycle][incast][lossless]") {
    nlohmann::json r;
    REQUIRE_NOTHROW(r = ndr::test::run_point(
                        {"switch.ports=64", "traffic.pattern=incast", "traffic.hot_port=0",
                         "traffic.incast_sources=0", "traffic.arrivals=bernoulli",
                         "traffic.load=1.0", "traffic.size=4096", "sim.check_invariants=true",
                         "sim.warmup_cycles=20000", "sim.measure_cycles=300000"}));
    INFO("ports[0] = " << r["ports"][0].dump());
    INFO("packets = " << r["packets"].dump());
    INFO("buffer_occupancy = " << r["buffer_occupancy"].dump());
    INFO("credit_stall_cycles = " << r["credit_stall_cycles"].dump());
    CHECK(r["ports"][0]["accepted_load"].get<double>() >= 0.99);
    // 64 B blocks: the default shared buffer, 2 x 32 KiB = 1024 blocks per port with 128
    // reserved per VL, lets the one busy VL claim 128 + floor(8 x 768 / 9) = 810 blocks
    // (golden/vl_buffer_pool.h); a 4122 B packet takes 65, so at most 12 fit (780).
    for (const auto& b : r["buffer_occupancy"]) {
        CHECK(b["capacity_blocks"].get<uint64_t>() == 810);
        CHECK(b["max_blocks"].get<uint64_t>() <= b["capacity_blocks"].get<uint64_t>());
    }
    // The hot input VL0 buffers must actually have filled (else the test proves little).
    CHECK(r["buffer_occupancy"][0]["max_blocks"].get<uint64_t>() >= 12 * 65);
    CHECK(r["credit_stall_cycles"]["endpoints"].get<uint64_t>() > 0);
    const auto& pk = r["packets"];
    CHECK(pk["dropped"].get<uint64_t>() == 0);
    CHECK(pk["injected"].get<uint64_t>() ==
          pk["delivered"].get<uint64_t>() + pk["in_flight"].get<uint64_t>());
    CHECK(pk["delivered"].get<uint64_t>() > 0);
}
