// SHARP fallback to a host algorithm when no tree can be had or the operation is not supported
// (docs/domain.md §7: sum/min/max only, no prod/avg). The collective must still complete, with
// collectives[i].algo the host algorithm chosen (ring or tree), algo_requested "sharp" and
// collectives[i].fallback saying why.
//
//   Tree exhaustion: sharp.max_trees = 1, 16 hosts on one switch, two disjoint communicators
//   (comm 0 = ranks 0..7, comm 1 = ranks 8..15), each one 64 KiB fp32 sum allreduce with algo
//   sharp, issued together at t = 0. The trace lists comm 0's records first, so its collective
//   starts first and takes the subnet's only tree; comm 1's finds trees_.size() 1 >= 1 and
//   falls back, naming sharp.max_trees.
//   Unsupported redop: prod on 8 hosts falls back naming the redop.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <string>
#include <vector>

#include <unistd.h>

#include <systemc>

#include "config/config_loader.h"
#include "run_report.h"
#include "run_sim.h"
#include "trace/trace.h"

#include "sharp_test_util.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using namespace sharp_test;  // NOLINT: test-local helpers
bool host_algo(const nlohmann::json& c) {
    return c["algo"] == "ring" || c["algo"] == "tree";
}

}  // namespace

TEST_CASE("sharp fallback: sharp.max_trees=1, second communicator falls back", "[run][sharp]") {
    constexpr uint32_t half = 8;
    constexpr uint64_t count = (64 * 1024) / 4;
    const sim_run r =
        simulate("sharp_fb_trees",
                 header(2 * half, "sharp max_trees") + comm(0, 0, half) + comm(1, half, half) +
                     allreduce(0, 0, half, 0, count, "fp32", "sum", "sharp") +
                     allreduce(1, half, half, 0, count, "fp32", "sum", "sharp"),
                 {"switch.ports=64", "fabric.topology=single_switch", "sharp.max_trees=1"});
    INFO("collectives = " << r.report["collectives"].dump());
    INFO("sharp = " << r.report["sharp"].dump());
    REQUIRE(r.out.collectives.size() == 2);
    CHECK(r.out.collectives[0].done);
    CHECK(r.out.collectives[1].done);
    const auto& c0 = r.report["collectives"][0];
    const auto& c1 = r.report["collectives"][1];
    CHECK(c0["comm"].get<uint32_t>() == 0);
    CHECK(c1["comm"].get<uint32_t>() == 1);
    // comm 0: on SHARP.
    CHECK(c0["algo"] == "sharp");
    CHECK_FALSE(c0.contains("fallback"));
    CHECK(c0.contains("sharp"));
    // comm 1: host algorithm, with the reason.
    CHECK(c1["algo_requested"] == "sharp");
    CHECK(host_algo(c1));
    CHECK_FALSE(c1.contains("sharp"));
    REQUIRE(c1.contains("fallback"));
    CHECK(c1["fallback"].get<std::string>().find("sharp.max_trees") != std::string::npos);
    CHECK(c1["time_ns"].get<double>() > 0.0);
    CHECK(r.report["sharp"]["trees"].size() == 1);
    // The fallback's busbw factor is the point-to-point one, 2(n-1)/n = 14/8.
    CHECK(c1["busbw_factor"].get<double>() == Approx(2.0 * (half - 1) / half));
    CHECK(c0["busbw_factor"].get<double>() == Approx((half - 1.0) / (half + 1.0)));
    CHECK(r.out.hca.retransmitted_packets == 0);
}

TEST_CASE("sharp fallback: redop prod is not a SHARP operation", "[run][sharp]") {
    constexpr uint32_t n = 8;
    const sim_run r = simulate("sharp_fb_prod",
                               header(n, "sharp prod") + comm(0, 0, n) +
                                   allreduce(0, 0, n, 0, 4096, "fp32", "prod", "sharp"),
                               {"switch.ports=64", "fabric.topology=single_switch"});
    INFO("collectives = " << r.report["collectives"].dump());
    REQUIRE(r.out.collectives.size() == 1);
    CHECK(r.out.collectives[0].done);
    const auto& c = r.report["collectives"][0];
    CHECK(c["algo_requested"] == "sharp");
    CHECK(host_algo(c));
    CHECK_FALSE(c.contains("sharp"));
    REQUIRE(c.contains("fallback"));
    const std::string why = c["fallback"].get<std::string>();
    CHECK(why.find("prod") != std::string::npos);
    CHECK(why.find("redop") != std::string::npos);
    CHECK(r.report["sharp"]["trees"].size() == 0);  // no tree was built for it
}
