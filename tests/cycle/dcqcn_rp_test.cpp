// DCQCN reaction point (cycle/dcqcn.h) against the DCQCN paper's update rules worked by hand
// (Zhu et al., SIGCOMM 2015): rate cut and alpha on a CNP, fast recovery, additive and hyper
// increase, alpha decay, pacing gap. No simulation: plain arithmetic on one QP.
#include <catch2/catch.hpp>

#include <cmath>

#include "config/config_loader.h"
#include "cycle/dcqcn.h"
#include "cycle/ecn_marker.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using ndr::cycle::dcqcn_params;
using ndr::cycle::dcqcn_rp;

// 400 Gb/s, cycle 1.28 ns; T = K = 55 us = ceil(55000 / 1.28) = 42969 cycles; F = 5;
// R_AI 40 Mb/s, R_HAI 400 Mb/s, g = 1/256, B = 10 MB.
dcqcn_params params() {
    const auto c = ndr::cfg::load_config("", {"fabric.technology=roce"});
    return dcqcn_params::from(c, 1280);
}

}  // namespace

TEST_CASE("dcqcn: a CNP halves a line-rate QP and fast recovery halves the gap per timer",
          "[roce][dcqcn]") {
    const dcqcn_params p = params();
    REQUIRE(p.rate_cycles == 42969);
    REQUIRE(p.alpha_cycles == 42969);
    dcqcn_rp rp;
    CHECK_FALSE(rp.limited());
    rp.on_cnp(1000, p);
    // alpha starts at 1: Rc = 400 (1 - 1/2) = 200 Gb/s, Rt = 400; alpha = (1-g) 1 + g = 1.
    CHECK(rp.limited());
    CHECK(rp.rate_bps() == Approx(200e9));
    CHECK(rp.target_bps() == Approx(400e9));
    CHECK(rp.alpha() == Approx(1.0));
    // Timer events at 1000 + k T: fast recovery Rc = (Rt + Rc) / 2: 300, 350, 375, 387.5.
    rp.advance(1000 + 42969, p);
    CHECK(rp.rate_bps() == Approx(300e9));
    rp.advance(1000 + 4 * 42969, p);
    CHECK(rp.rate_bps() == Approx(387.5e9));
    CHECK(rp.target_bps() == Approx(400e9));
    // Alpha decayed 4 times: (255/256)^4.
    CHECK(rp.alpha() == Approx(std::pow(255.0 / 256.0, 4)));
}

TEST_CASE("dcqcn: a second CNP cuts by alpha/2 from the current rate", "[roce][dcqcn]") {
    const dcqcn_params p = params();
    dcqcn_rp rp;
    rp.on_cnp(0, p);           // Rc 200, Rt 400, alpha 1
    rp.advance(2 * 42969, p);  // two timer events: Rc 300 then 350; alpha (255/256)^2
    const double a = std::pow(255.0 / 256.0, 2);
    REQUIRE(rp.alpha() == Approx(a));
    rp.on_cnp(2 * 42969 + 10, p);  // Rt = 350, Rc = 350 (1 - a/2), alpha = (1-g) a + g
    CHECK(rp.target_bps() == Approx(350e9));
    CHECK(rp.rate_bps() == Approx(350e9 * (1.0 - a / 2.0)));
    CHECK(rp.alpha() == Approx((1.0 - 1.0 / 256) * a + 1.0 / 256));
}

TEST_CASE("dcqcn: after F timer events the increase is additive, R_AI per event", "[roce][dcqcn]") {
    const dcqcn_params p = params();
    dcqcn_rp rp;
    rp.on_cnp(0, p);
    rp.on_cnp(1, p);  // Rt = 200, Rc = 100 (alpha still ~1)
    const double rt0 = rp.target_bps();
    REQUIRE(rt0 == Approx(200e9));
    // Stages 1..4 are fast recovery (max stage < F = 5): Rt unchanged.
    rp.advance(1 + 4 * 42969, p);
    CHECK(rp.target_bps() == Approx(rt0));
    // Stage 5 and 6: max = 5, 6 >= F but min (byte stage 0) <= F: additive, Rt += 40 Mb/s.
    rp.advance(1 + 6 * 42969, p);
    CHECK(rp.target_bps() == Approx(rt0 + 2 * 40e6));
}

TEST_CASE("dcqcn: hyper increase once both stage counts pass F", "[roce][dcqcn]") {
    auto c = ndr::cfg::load_config("", {"fabric.technology=roce", "dcqcn.byte_counter=4096B"});
    const dcqcn_params p = dcqcn_params::from(c, 1280);
    dcqcn_rp rp;
    rp.on_cnp(0, p);
    rp.on_cnp(1, p);  // Rt 200, Rc 100
    // 6 sends of 4096 B at cycle 2: byte stages 1..6 (timer stage 0). Stages 1-4 are fast
    // recovery (max < F); 5 and 6 additive (max >= F, min = 0 <= F): Rt += 2 x 40 Mb/s.
    for (int i = 0; i < 6; ++i) rp.on_send(2, 4096, p);
    CHECK(rp.target_bps() == Approx(200e9 + 2 * 40e6));
    // 6 timer events: timer stage 1..6, byte stage 6: min(t, b) = 6 > F at the 6th: hyper,
    // Rt += (6 - 5) R_HAI = 400 Mb/s; timer stages 1..5 are additive (max = 6 >= F).
    rp.advance(1 + 6 * 42969, p);
    CHECK(rp.target_bps() == Approx(200e9 + 2 * 40e6 + 5 * 40e6 + 400e6));
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
    ndr::cfg::ecn_config e;  // 5 KiB, 200 KiB, 1 %
    ndr::cycle::ecn_marker m(e, 1);
    CHECK(m.probability(5 * 1024 - 1) == 0.0);
    CHECK(m.probability(5 * 1024) == 0.0);
    // Half-way between Kmin and Kmax: Pmax / 2.
    CHECK(m.probability((5 + 200) * 1024 / 2) == Approx(0.005));
    CHECK(m.probability(200 * 1024) == 1.0);
    // Draws follow the probability: Pmax = 1, half-way -> 0.5 (10000 draws, s.d. 0.005).
    e.pmax = 1.0;
    ndr::cycle::ecn_marker half(e, 7);
    int marked = 0;
    for (int i = 0; i < 10000; ++i) marked += half.mark((5 + 200) * 1024 / 2) ? 1 : 0;
    CHECK(marked > 4800);
    CHECK(marked < 5200);
}
