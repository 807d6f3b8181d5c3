// DCQCN reaction point (cycle/dcqcn.h) against the DCQCN paper's update rules worked by hand
// (Zhu et al., SIGCOMM 2015) with the ConnectX firmware default parameters (docs/roce.md):
// rate cut and alpha on a CNP, fast recovery, additive and hyper increase, alpha decay, pacing
// gap. No simulation: plain arithmetic on one QP.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "config/config_loader.h"
#include "cycle/dcqcn.h"
#include "cycle/ecn_marker.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using ndr::cycle::dcqcn_params;
using ndr::cycle::dcqcn_rp;

// Cycle 1.28 ns (64 B at 400 Gb/s). The defaults are the NVIDIA ConnectX firmware DCQCN
// defaults ("DCQCN CC Parameters", ConnectX-4 and later; docs/roce.md): T = rpg_time_reset
// 300 us = 300000 / 1.28 = 234375 cycles; K = dce_tcp_rtt 1 us = ceil(1000 / 1.28) = 782
// cycles; g from dce_tcp_g 1019 = (1024 - 1019) / 1024; F = rpg_threshold 1;
// R_AI / R_HAI = rpg_ai_rate 5 / rpg_hai_rate 50 Mb/s x 400G / 25G = 80 / 800 Mb/s.
constexpr uint64_t T = 234375;
constexpr uint64_t K = 782;
constexpr double G = 5.0 / 1024;
constexpr double RAI = 80e6;
constexpr double RHAI = 800e6;

dcqcn_params params(std::vector<std::string> extra = {}) {
    extra.insert(extra.begin(), "fabric.technology=roce");
    const auto c = ndr::cfg::load_config("", extra);
    return dcqcn_params::from(c, 1280);
}

}  // namespace

TEST_CASE("dcqcn: the defaults are the ConnectX firmware values", "[roce][dcqcn]") {
    const dcqcn_params p = params();
    CHECK(p.rate_cycles == T);
    CHECK(p.alpha_cycles == K);
    CHECK(p.g == Approx(G));
    CHECK(p.fast_recovery == 1);
    CHECK(p.byte_counter == 32767);
    CHECK(p.rai_bps == Approx(5e6 * 400 / 25));
    CHECK(p.rhai_bps == Approx(50e6 * 400 / 25));
    CHECK(p.min_bps == Approx(1e6));
}

TEST_CASE("dcqcn: a CNP halves a line-rate QP and each increase halves the gap to the target",
          "[roce][dcqcn]") {
    const dcqcn_params p = params();
    dcqcn_rp rp;
    CHECK_FALSE(rp.limited());
    rp.on_cnp(1000, p);
    // alpha starts at 1: Rc = 400 (1 - 1/2) = 200 Gb/s, Rt = 400; alpha = (1-g) 1 + g = 1.
    CHECK(rp.limited());
    CHECK(rp.rate_bps() == Approx(200e9));
    CHECK(rp.target_bps() == Approx(400e9));
    CHECK(rp.alpha() == Approx(1.0));
    // Timer events at 1000 + k T. F = 1: already the first event is additive (max stage 1 is
    // not < F, min stage 0 <= F), Rt = min(400 + 0.08, 400) = 400; then Rc = (Rt + Rc) / 2:
    // 300, 350, 375, 387.5.
    rp.advance(1000 + T, p);
    CHECK(rp.rate_bps() == Approx(300e9));
    rp.advance(1000 + 4 * T, p);
    CHECK(rp.rate_bps() == Approx(387.5e9));
    CHECK(rp.target_bps() == Approx(400e9));
    // Alpha decays once per K after the CNP: floor(4 T / K) = 1198 periods by 1000 + 4 T.
    CHECK(4 * T / K == 1198);
    CHECK(rp.alpha() == Approx(std::pow(1.0 - G, 1198)));
}

TEST_CASE("dcqcn: a second CNP cuts by alpha/2 from the current rate", "[roce][dcqcn]") {
    const dcqcn_params p = params();
    dcqcn_rp rp;
    rp.on_cnp(0, p);       // Rc 200, Rt 400, alpha 1
    rp.advance(2 * T, p);  // two timer events: Rc 300 then 350
    const double a = std::pow(1.0 - G, static_cast<double>(2 * T / K));  // 599 periods
    REQUIRE(rp.alpha() == Approx(a));
    rp.on_cnp(2 * T + 10, p);  // no alpha period ends in between (600 K > 2 T + 10)
    CHECK(rp.target_bps() == Approx(350e9));
    CHECK(rp.rate_bps() == Approx(350e9 * (1.0 - a / 2.0)));
    CHECK(rp.alpha() == Approx((1.0 - G) * a + G));
}

TEST_CASE("dcqcn: with F = 1 every timer event is additive, R_AI per event", "[roce][dcqcn]") {
    const dcqcn_params p = params();
    dcqcn_rp rp;
    rp.on_cnp(0, p);
    rp.on_cnp(1, p);  // Rt = 200, Rc = 100 (alpha still 1: no period has ended)
    const double rt0 = rp.target_bps();
    REQUIRE(rt0 == Approx(200e9));
    REQUIRE(rp.rate_bps() == Approx(100e9));
    // Timer stages 1..6, byte stage 0: max >= F = 1, min = 0 <= F: additive each time.
    rp.advance(1 + 6 * T, p);
    CHECK(rp.target_bps() == Approx(rt0 + 6 * RAI));
}

TEST_CASE("dcqcn: F = 5 (the paper's value) gives four fast-recovery events first",
          "[roce][dcqcn]") {
    const dcqcn_params p = params({"dcqcn.fast_recovery_steps=5", "dcqcn.rate_ai=40Mbps"});
    dcqcn_rp rp;
    rp.on_cnp(0, p);
    rp.on_cnp(1, p);
    const double rt0 = rp.target_bps();
    // Stages 1..4 are fast recovery (max stage < F = 5): Rt unchanged.
    rp.advance(1 + 4 * T, p);
    CHECK(rp.target_bps() == Approx(rt0));
    // Stage 5 and 6: max = 5, 6 >= F but min (byte stage 0) <= F: additive, Rt += 40 Mb/s.
    rp.advance(1 + 6 * T, p);
    CHECK(rp.target_bps() == Approx(rt0 + 2 * 40e6));
}

TEST_CASE("dcqcn: hyper increase once both stage counts pass F", "[roce][dcqcn]") {
    const dcqcn_params p = params({"dcqcn.byte_counter=4096B"});
    dcqcn_rp rp;
    rp.on_cnp(0, p);
    rp.on_cnp(1, p);  // Rt 200, Rc 100
    // 6 sends of 4096 B at cycle 2: byte stages 1..6 (timer stage 0): min = 0 <= F = 1, so
    // all six are additive: Rt += 6 R_AI.
    for (int i = 0; i < 6; ++i) rp.on_send(2, 4096, p);
    CHECK(rp.target_bps() == Approx(200e9 + 6 * RAI));
    // 6 timer events, byte stage 6: timer stage 1 (min 1 <= F) additive; stages 2..6
    // (min = t > F) hyper, Rt += (t - F) R_HAI = (1 + 2 + 3 + 4 + 5) R_HAI.
    rp.advance(1 + 6 * T, p);
    CHECK(rp.target_bps() == Approx(200e9 + 7 * RAI + 15 * RHAI));
}

TEST_CASE("dcqcn: packets are paced at the current rate", "[roce][dcqcn]") {
    const dcqcn_params p = params();
    dcqcn_rp rp;
    CHECK(rp.on_send(0, 4178, p) == 0.0);  // unlimited: no pacing
    rp.on_cnp(100, p);                     // 200 Gb/s
    // 4178 B at 200 Gb/s = 167.12 ns = 130.5625 cycles of 1.28 ns.
    CHECK(rp.on_send(100, 4178, p) == Approx(100 + 130.5625));
}

TEST_CASE("ecn: RED-like marking probability from Kmin/Kmax/Pmax", "[roce][ecn]") {
    ndr::cfg::ecn_config e;  // defaults: 150 KiB, 1500 KiB, Pmax 1 (NVIDIA RoCE switch default)
    constexpr uint64_t kmin = 150 * 1024;
    constexpr uint64_t kmax = 1500 * 1024;
    ndr::cycle::ecn_marker m(e, 1);
    CHECK(m.probability(kmin - 1) == 0.0);
    CHECK(m.probability(kmin) == 0.0);
    // Half-way between Kmin and Kmax: Pmax / 2; a tenth of the way: Pmax / 10.
    CHECK(m.probability((kmin + kmax) / 2) == Approx(0.5));
    CHECK(m.probability(kmin + (kmax - kmin) / 10) == Approx(0.1));
    CHECK(m.probability(kmax) == 1.0);
    // The DCQCN paper's Pmax 1 % scales the ramp: half-way -> 0.005.
    e.pmax = 0.01;
    ndr::cycle::ecn_marker paper(e, 1);
    CHECK(paper.probability((kmin + kmax) / 2) == Approx(0.005));
    CHECK(paper.probability(kmax) == 1.0);
    // Draws follow the probability: Pmax = 1, half-way -> 0.5 (10000 draws, s.d. 0.005).
    e.pmax = 1.0;
    ndr::cycle::ecn_marker half(e, 7);
    int marked = 0;
    for (int i = 0; i < 10000; ++i) marked += half.mark((kmin + kmax) / 2) ? 1 : 0;
    CHECK(marked > 4800);
    CHECK(marked < 5200);
}
