// VL arbitration at a congested output: delivered VL shares follow the low-priority table
// weights (IBA vol. 1 §7.6.9; golden semantics in models/golden/vl_arb.h).
//
// Setup: two sources incast into one hot port (2:1 overload), 4 KiB packets (4122 B wire =
// 65 beats), SL s -> VL s (sl2vl default: SL mod vls). The hot output's VL arbiter serves each
// table entry for one turn of weight*64 bytes; a packet may start while the turn has > 0 bytes
// left (the last one overshoots, the overshoot is not carried over). Packets per turn, by hand:
//   weight  64 ->  4096 B: 4096 > 0 -> 1 packet (-26 B left)
//   weight 128 ->  8192 B: 8192, 4070 -> 2 packets
//   weight 192 -> 12288 B: 12288, 8166, 4044 -> 3 packets
//   weight 255 -> 16320 B: 16320, 12198, 8076, 3954 -> 4 packets
// so with every VL always waiting, the beat shares are 1:3 (0.25/0.75) and 1:2:4 (1/7, 2/7,
// 4/7). Weights are 8-bit (0..255): the brief's `2:256` is rejected by the config, and 255
// gives the same 4 packets per turn as 256 would.
//
// Source side. traffic.arrivals=backlogged keeps only ~2 packets waiting per SOURCE (one new
// packet per packet sent) with a random SL each: a source blocked on one VL's credits makes no
// new packets, so in the long run each source sends its creation mix (50/50) whatever the
// switch arbiter does, and the hot port then delivers ~50/50, not 25/75 (measured: 0.477 /
// 0.523). The weights can only show if every VL is always waiting at the switch, so these tests
// use Bernoulli arrivals at load 1.0 instead: 2 sources x 1.0 into one port, per-VL demand
// 2 * (1/vls) >= the largest share (1.0 >= 0.75; 0.667 >= 0.571), and the sources' unbounded
// per-VL queues grow, so both input VL buffers stay full.
//
// Window: 300k cycles = ~4600 packets at the hot port = ~1150 turn rounds of the 2-VL table
// (~660 of the 3-VL table); the share error is bounded by one round's packets / total (< 0.2 %)
// once every VL is backlogged, so 2 % leaves a wide margin for the warm-up transient.
#include "cycle_test_util.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using ndr::test::run_point;

void check_hot_port(const nlohmann::json& r, uint32_t hot) {
    const double acc = r["ports"][hot]["accepted_load"].get<double>();
    INFO("hot port accepted_load = " << acc);
    CHECK(acc >= 0.99);
}

}  // namespace

TEST_CASE("VL arbitration: 2 VLs, weights 64:192 -> shares 0.25 / 0.75 at a 2:1 incast",
          "[cycle][vl_arb]") {
    const auto r = run_point({"switch.ports=8", "traffic.pattern=incast", "traffic.hot_port=0",
                              "traffic.incast_sources=2", "traffic.arrivals=bernoulli",
                              "traffic.load=1.0", "traffic.size=4096", "switch.vls=2",
                              "traffic.sl=0@1,1@1", "switch.vl_arb_low=0:64,1:192",
                              "sim.warmup_cycles=20000", "sim.measure_cycles=300000"});
    INFO("vls = " << r["vls"].dump());
    REQUIRE(r["vls"].size() == 2);
    CHECK(r["vls"][0]["share"].get<double>() == Approx(0.25).margin(0.02));
    CHECK(r["vls"][1]["share"].get<double>() == Approx(0.75).margin(0.02));
    check_hot_port(r, 0);
}

TEST_CASE("VL arbitration: 3 VLs, weights 64:128:255 -> shares 1/7, 2/7, 4/7 at a 2:1 incast",
          "[cycle][vl_arb]") {
    const auto r = run_point({"switch.ports=8", "traffic.pattern=incast", "traffic.hot_port=0",
                              "traffic.incast_sources=2", "traffic.arrivals=bernoulli",
                              "traffic.load=1.0", "traffic.size=4096", "switch.vls=3",
                              "traffic.sl=0@1,1@1,2@1", "switch.vl_arb_low=0:64,1:128,2:255",
                              "sim.warmup_cycles=20000", "sim.measure_cycles=300000"});
    INFO("vls = " << r["vls"].dump());
    REQUIRE(r["vls"].size() == 3);
    CHECK(r["vls"][0]["share"].get<double>() == Approx(1.0 / 7.0).margin(0.02));
    CHECK(r["vls"][1]["share"].get<double>() == Approx(2.0 / 7.0).margin(0.02));
    CHECK(r["vls"][2]["share"].get<double>() == Approx(4.0 / 7.0).margin(0.02));
    check_hot_port(r, 0);
}
