// Cross-checks of related keys (models/config/cross_check.h) against round trips worked out by
// hand from the defaults (docs/configuration.md):
//   link     = link.fec_latency 100 ns + 3 m x 5 ns/m                       = 115 ns
//   path     = 2 links + switch.latency 300 ns (cut-through)                = 530 ns one way
//   packet   = 4096 B RDMA WRITE MIDDLE = 4122 B -> 65 beats x 1.28 ns     = 83.2 ns
//   ACK      = 30 B -> 1 beat                                              = 1.28 ns
//   round trip (hca.ack_coalesce 16) = 2 x 530 + 16 x 83.2 + 1.28          = 2392.48 ns
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "config/config_loader.h"
#include "config/cross_check.h"

using ndr::cfg::cross_check;
using ndr::cfg::load_config;
using ndr::cfg::rc_round_trip_of;

TEST_CASE("cross-check: the zero-load ACK round trip from the config", "[config][rc]") {
    const auto single = rc_round_trip_of(load_config("", {}));
    CHECK(single.switches == 1);
    CHECK(single.links == 2);
    CHECK(single.path_ns == Approx(530.0));
    CHECK(single.packet_ns == Approx(83.2));
    CHECK(single.ack_ns == Approx(1.28));
    CHECK(single.packets_per_ack == 16);
    CHECK(single.ns() == Approx(2392.48));
    // Fat tree, 2 levels: host links 115 ns, leaf-spine 100 ns + 30 m x 5 ns/m = 250 ns, three
    // switches: 2 x 115 + 2 x 250 + 3 x 300 = 1630 ns one way.
    const auto fat = rc_round_trip_of(load_config("", {"fabric.topology=fat_tree"}));
    CHECK(fat.switches == 3);
    CHECK(fat.links == 4);
    CHECK(fat.path_ns == Approx(1630.0));
    CHECK(fat.ns() == Approx(2 * 1630.0 + 16 * 83.2 + 1.28));
    // Three levels: + 2 spine-core links of 100 ns + 100 m x 5 ns/m = 600 ns, two more switches.
    const auto fat3 =
        rc_round_trip_of(load_config("", {"fabric.topology=fat_tree", "fabric.levels=3"}));
    CHECK(fat3.switches == 5);
    CHECK(fat3.path_ns == Approx(1630.0 + 2 * 600.0 + 2 * 300.0));
    // Store-and-forward: each switch also waits for the whole packet.
    const auto saf = rc_round_trip_of(load_config("", {"switch.cut_through=false"}));
    CHECK(saf.path_ns == Approx(530.0 + 83.2));
    // A window smaller than the coalescing count is acknowledged per window (AckReq).
    const auto w2 = rc_round_trip_of(load_config("", {"hca.max_outstanding=2"}));
    CHECK(w2.packets_per_ack == 2);
    CHECK(w2.ns() == Approx(1060.0 + 2 * 83.2 + 1.28));
}

TEST_CASE("cross-check: the defaults draw no warning", "[config][rc]") {
    CHECK(cross_check(load_config("", {})).empty());
    CHECK(cross_check(load_config("", {"fabric.topology=fat_tree"})).empty());
}

TEST_CASE("cross-check: a send window smaller than its ACK round trip", "[config][rc]") {
    // Window 2 <= ack_coalesce 16: 2 x 83.2 = 166.4 ns per 1227.68 ns round trip = 13.6 %.
    CHECK(cross_check(load_config("", {"hca.max_outstanding=2"})) ==
          std::vector<std::string>{
              "hca.max_outstanding: a window of 2 packets (<= hca.ack_coalesce 16) waits for the "
              "ACK its last packet requests: one 1.23 us round trip per 2 x 4096 B (longest path "
              "1 switch, 2 links), at most 14 % of link.rate per queue pair"});
    // Window 1: 83.2 / (1060 + 83.2 + 1.28) = 7.3 %.
    const auto w1 = cross_check(load_config("", {"hca.max_outstanding=1"}));
    REQUIRE(w1.size() == 1);
    CHECK(w1[0].find("a window of 1 packet (") != std::string::npos);
    CHECK(w1[0].find("one 1.14 us round trip") != std::string::npos);
    CHECK(w1[0].find("at most 7 %") != std::string::npos);
    // Window 20 > 16: 1664 ns on the wire against the 2392.48 ns round trip = 69.6 %.
    CHECK(cross_check(load_config("", {"hca.max_outstanding=20"})) ==
          std::vector<std::string>{
              "hca.max_outstanding: a window of 20 packets (1.66 us on the wire) does not cover "
              "its ACK round trip of 2.39 us (hca.ack_coalesce 16 packets + 2 x 0.53 us, longest "
              "path 1 switch, 2 links): at most 70 % of link.rate per queue pair"});
    // 29 x 83.2 = 2412.8 ns >= 2392.48 ns: covered.
    CHECK(cross_check(load_config("", {"hca.max_outstanding=29"})).empty());
    CHECK(cross_check(load_config("", {"hca.max_outstanding=28"})).size() == 1);
}

TEST_CASE("cross-check: an ACK timeout against the round trip", "[config][rc]") {
    // 64 x 2392.48 ns = 153.1 us.
    CHECK(cross_check(load_config("", {"hca.ack_timeout=20us"})) ==
          std::vector<std::string>{
              "hca.ack_timeout: 20 us is under 64 x the zero-load ACK round trip of 2.39 us (16 x "
              "4096 B packets until the ACK + 2 x 0.53 us, longest path 1 switch, 2 links): ACKs "
              "queued behind data can take longer, giving spurious timeouts without loss; use >= "
              "153 us"});
    const auto short_timeout = cross_check(load_config("", {"hca.ack_timeout=2us"}));
    REQUIRE(short_timeout.size() == 1);
    CHECK(short_timeout[0].rfind("hca.ack_timeout: 2 us is shorter than the zero-load ACK round "
                                 "trip of 2.39 us",
                                 0) == 0);
    CHECK(short_timeout[0].find("every window times out before its ACK arrives") !=
          std::string::npos);
    CHECK(cross_check(load_config("", {"hca.ack_timeout=153us"})).size() == 1);
    CHECK(cross_check(load_config("", {"hca.ack_timeout=154us"})).empty());
    // The fat tree's longer path raises the floor: 64 x 4592.48 ns = 293.9 us.
    CHECK(cross_check(load_config("", {"fabric.topology=fat_tree", "hca.ack_timeout=262.144us"}))
              .size() == 1);
    CHECK(cross_check(load_config("", {"hca.ack_timeout=262.144us"})).empty());
}
