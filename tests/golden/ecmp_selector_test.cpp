// golden::ecmp_selector (routing.ecmp_mode, docs/roce.md 'ECMP modes') against vectors computed
// by hand or by an independent formula: flow = golden::ecmp_member with the switch's seed;
// flowlet = the same hash with the seed of the flow's flowlet n (seed + n x 0x9E3779B9), n
// counting the gaps longer than flowlet_gap; spray = splitmix64 of (seed << 32) ^ packet index,
// scaled to the member count (values from the reference splitmix64, Steele et al. 2014,
// evaluated by hand in Python).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>

#include "golden/ecmp_selector.h"
#include "golden/roce_packet.h"

using namespace ndr::golden;

namespace {

const ecmp_flow A{0x0A000001U, 0x0A000005U, 0xC123, ROCEV2_UDP_PORT};
const ecmp_flow B{0x0A000002U, 0x0A000005U, 0xC456, ROCEV2_UDP_PORT};

uint32_t hash_of(const ecmp_flow& f, uint32_t seed, uint32_t members) {
    return ecmp_member(f.src_ip, f.dst_ip, f.src_port, f.dst_port, seed, members);
}

}  // namespace

TEST_CASE("ecmp_mode_of: the three names, anything else refused", "[ecmp_selector]") {
    CHECK(ecmp_mode_of("flow") == ecmp_mode::flow);
    CHECK(ecmp_mode_of("flowlet") == ecmp_mode::flowlet);
    CHECK(ecmp_mode_of("spray") == ecmp_mode::spray);
    CHECK_THROWS_AS(ecmp_mode_of("packet"), std::invalid_argument);
}

TEST_CASE("ecmp_selector flow: the 5-tuple hash, whatever the time", "[ecmp_selector]") {
    ecmp_selector s(ecmp_mode::flow, 10, 5);
    for (uint64_t t : {0, 1, 1000, 1000000}) {
        CHECK(s.pick(A, t, 4) == hash_of(A, 5, 4));
        CHECK(s.pick(B, t, 3) == hash_of(B, 5, 3));
    }
    CHECK(s.new_flowlets() == 0);
    CHECK(s.pick(A, 0, 0) == 0);
}

TEST_CASE("ecmp_selector flowlet: a gap longer than flowlet_gap re-draws", "[ecmp_selector]") {
    CHECK(ecmp_selector::flowlet_seed(5, 0) == 5);
    CHECK(ecmp_selector::flowlet_seed(5, 1) == 0x9E3779BEU);  // 5 + 0x9E3779B9
    CHECK(ecmp_selector::flowlet_seed(5, 2) == 0x3C6EF377U);  // 5 + 2 x 0x9E3779B9 mod 2^32
    ecmp_selector s(ecmp_mode::flowlet, 100, 5);
    // One flowlet while the gaps are at most 100: the flow's own hash.
    CHECK(s.pick(A, 0, 64) == hash_of(A, 5, 64));
    CHECK(s.pick(A, 50, 64) == hash_of(A, 5, 64));
    CHECK(s.pick(A, 150, 64) == hash_of(A, 5, 64));  // gap exactly 100: same flowlet
    CHECK(s.new_flowlets() == 0);
    // Gap 101: flowlet 1.
    CHECK(s.pick(A, 251, 64) == hash_of(A, 0x9E3779BEU, 64));
    CHECK(s.new_flowlets() == 1);
    // Flow B has its own state: its first packet is its flowlet 0, no new flowlet.
    CHECK(s.pick(B, 260, 64) == hash_of(B, 5, 64));
    CHECK(s.new_flowlets() == 1);
    // A again after 1000: flowlet 2; B after a short gap stays.
    CHECK(s.pick(A, 1251, 64) == hash_of(A, 0x3C6EF377U, 64));
    CHECK(s.pick(B, 300, 64) == hash_of(B, 5, 64));
    CHECK(s.new_flowlets() == 2);
    // The 64 flowlet seeds do not all land on one member: the re-draw moves the flow.
    uint64_t seen = 0;
    for (uint32_t n = 0; n < 64; ++n) seen |= uint64_t{1} << hash_of(A, 5 + n * 0x9E3779B9U, 4);
    CHECK(seen == 0xF);
}

TEST_CASE("ecmp_selector spray: splitmix64 per packet, flow-blind", "[ecmp_selector]") {
    ecmp_selector s(ecmp_mode::spray, 0, 7);
    // splitmix64((7 << 32) ^ n) * members >> 64 for n = 0..7 (hand-evaluated).
    const std::array<uint32_t, 8> four{2, 0, 2, 3, 3, 3, 3, 3};
    for (uint32_t n = 0; n < 8; ++n) CHECK(s.pick(n % 2 ? A : B, n, 4) == four[n]);
    ecmp_selector s3(ecmp_mode::spray, 0, 7);
    const std::array<uint32_t, 8> three{2, 0, 1, 2, 2, 2, 2, 2};
    for (uint32_t n = 0; n < 8; ++n) CHECK(s3.pick(A, 0, 3) == three[n]);
    // Uniform: 40,000 draws over 4 members, each within 2 % of 10,000 (hand count 10016, 9871,
    // 10152, 9961 including the 8 above).
    ecmp_selector u(ecmp_mode::spray, 0, 7);
    std::array<uint32_t, 4> count{};
    for (uint32_t n = 0; n < 40000; ++n) ++count[u.pick(A, n, 4)];
    CHECK(count == std::array<uint32_t, 4>{10016, 9871, 10152, 9961});
    CHECK(u.new_flowlets() == 0);
}
