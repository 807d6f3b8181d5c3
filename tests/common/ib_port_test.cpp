// common::ib_ports and common::credit_stalls (models/common/ib_port.h, credit_stalls.h): the
// link-layer rules every device of both levels uses, with hand-computed expectations.
#include "common/ib_port.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/credit_stalls.h"
#include "common/invariant_error.h"
#include "common/rx_buffer.h"

using ndr::common::credit_stalls;
using ndr::common::cycle_t;
using ndr::common::ib_ports;
using ndr::common::invariant_error;
using ndr::common::port_names;
using ndr::common::rx_buffer;
using ndr::golden::vl_arb_table;

namespace {
constexpr port_names ENDPOINT{"endpoint", "endpoint", ""};
constexpr port_names SWITCH{"switch output port", "switch input port", " from the link partner"};

// 2 ports x 2 VLs, 100-block receive buffers, one low-table entry of weight 64 per VL.
ib_ports<> two_by_two(uint32_t fc_min_interval, port_names names = ENDPOINT) {
    return ib_ports<>(2, 2, 100, vl_arb_table::equal_weights(2), fc_min_interval, names);
}

std::string message_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const invariant_error& e) {
        return e.what();
    }
    return "(no invariant_error)";
}
}  // namespace

TEST_CASE("ib_ports: connect clamps the initial credits to 2048 blocks") {
    auto p = two_by_two(0);
    CHECK(p.tx(1, 0).available() == 0);
    p.connect(1, 5000);
    CHECK(p.tx(1, 0).fccl() == 2048);
    CHECK(p.tx(1, 1).fccl() == 2048);
    p.connect(0, 66);
    CHECK(p.tx(0, 1).available() == 66);
    CHECK(p.tx(1, 0).fccl() == 2048);  // port 1 untouched
}

TEST_CASE("ib_ports: an FC update in range is applied, one out of range is an invariant error") {
    auto p = two_by_two(0);
    p.connect(1, 64);
    p.consume(3, 1, 0, 10, true);  // FCTBS 10
    p.on_fccl(7, 1, 0, 100);       // 90 ahead of FCTBS 10
    CHECK(p.tx(1, 0).fccl() == 100);
    CHECK(p.tx(1, 0).available() == 90);
    // 3000 - 10 = 2990 ahead (4096 - 2990 = 1106 behind): more than 2048.
    CHECK(message_of([&] { p.on_fccl(7, 1, 0, 3000); }) ==
          "cycle 7: endpoint 1 VL 0: FCCL update out of range: FCCL 3000 is 2990 blocks ahead of "
          "FCTBS 10 (i.e. 1106 behind); at most 2048 ahead allowed");
    CHECK(p.tx(1, 0).fccl() == 100);  // rejected: unchanged
    auto s = two_by_two(0, SWITCH);
    CHECK(message_of([&] { s.on_fccl(9, 0, 1, 4096); }) ==
          "cycle 9: switch output port 0 VL 1: FCCL update: 4096 is not a 12-bit value (0..4095)");
}

TEST_CASE("ib_ports: FCTBS equal to ABR passes, a mismatch names the lost packet") {
    auto p = two_by_two(0, SWITCH);
    p.rx(0, 1).on_receive(10);
    p.on_fctbs(3, 0, 1, 10);   // ABR 10 = FCTBS 10
    p.rx(0, 1).on_receive(5);  // ABR 15; the partner sent 12 (3 blocks lost)
    CHECK(message_of([&] { p.on_fctbs(4, 0, 1, 12); }) ==
          "cycle 4: switch input port 0 VL 1: FCTBS 12 from the link partner disagrees with "
          "blocks received (ABR 15): a packet was lost on the link");
    auto e = two_by_two(0);
    e.rx(1, 0).on_receive(1);
    CHECK(message_of([&] { e.on_fctbs(8, 1, 0, 0); }) ==
          "cycle 8: endpoint 1 VL 0: FCTBS 0 disagrees with blocks received (ABR 1): a packet was "
          "lost on the link");
}

TEST_CASE("ib_ports: FC updates are paced to one per fc_min_interval per (port, VL)") {
    auto p = two_by_two(8);
    std::vector<std::vector<uint32_t>> sent;  // (cycle, port, vl, fccl)
    std::vector<std::pair<uint32_t, cycle_t>> flushes;
    auto collect = [&](cycle_t t) {
        p.send_fc(
            t,
            [&](uint32_t port, uint32_t vl, uint32_t fccl) {
                sent.push_back({static_cast<uint32_t>(t), port, vl, fccl});
            },
            [&](uint32_t k, cycle_t at) { flushes.emplace_back(k, at); });
    };
    p.rx(0, 1).on_receive(30);
    p.rx(0, 1).on_free(30);  // ABR 30, 100 free: FCCL 130
    p.mark_fc(1);            // slot 1 = port 0, VL 1
    collect(10);             // may go: next one at 10 + 8 = 18
    p.mark_fc(1);
    collect(12);  // paced: one flush at 18
    p.mark_fc(1);
    collect(13);                // still paced, the flush is already pending
    p.rx(0, 1).on_receive(20);  // read when it departs: ABR 50, 80 free -> FCCL 130 again
    p.rx(0, 1).on_free(5);      // 85 free -> 135
    p.on_fc_flush(1);           // at 18
    collect(18);
    REQUIRE(sent.size() == 2);
    CHECK(sent[0] == std::vector<uint32_t>{10, 0, 1, 130});
    CHECK(sent[1] == std::vector<uint32_t>{18, 0, 1, 135});
    REQUIRE(flushes.size() == 1);
    CHECK(flushes[0] == std::pair<uint32_t, cycle_t>{1, 18});
}

TEST_CASE("ib_ports: the forced refresh marks every VL of live ports and sends their FCTBS") {
    auto p = two_by_two(0);
    p.connect(0, 100);
    p.connect(1, 100);
    p.consume(1, 1, 0, 7, true);
    p.consume(1, 1, 1, 65, true);
    std::vector<std::vector<uint32_t>> fctbs;
    p.refresh([](uint32_t port) { return port == 1; },
              [&](uint32_t port, uint32_t vl, uint32_t v) {
                  fctbs.push_back({port, vl, v});
              });
    CHECK(fctbs == std::vector<std::vector<uint32_t>>{{1, 0, 7}, {1, 1, 65}});
    std::vector<uint32_t> fc_slots;
    p.send_fc(
        2, [&](uint32_t port, uint32_t vl, uint32_t) { fc_slots.push_back(port * 2 + vl); },
        [](uint32_t, cycle_t) {});
    CHECK(fc_slots == std::vector<uint32_t>{2, 3});  // port 1's VLs re-advertised, not port 0's
}

TEST_CASE("ib_ports: credit check and consume, underflow under check_invariants") {
    auto p = two_by_two(0);
    p.connect(0, 64);
    CHECK(p.can_send(0, 0, 64));
    CHECK_FALSE(p.can_send(0, 0, 65));
    CHECK(message_of([&] { p.consume(5, 0, 0, 70, true); }) ==
          "cycle 5: endpoint 0 VL 0: credit underflow: 70 blocks, 64 available");
    p.consume(5, 0, 0, 60, true);
    CHECK(p.tx(0, 0).fctbs() == 60);
    CHECK(p.tx(0, 0).available() == 4);
    // Unchecked: the golden counter refuses anyway.
    CHECK_THROWS_AS(p.consume(6, 0, 0, 5, false), std::logic_error);
}

TEST_CASE("ib_ports: the VL-arbitration call and its commit") {
    auto p = two_by_two(0);
    p.connect(0, 2048);
    CHECK(p.pick_vl(0, 0) == -1);
    CHECK(p.pick_vl(0, 0b10) == 1);  // one weighted VL: taken directly
    CHECK(p.pick_vl(0, 0b11) == 0);  // the arbiter: entry 0 is current
    // 4096 B = the whole weight 64 x 64 B of entry 0: its turn ends, VL 1's entry is next.
    p.sent(1, 0, 0, 65, 4096, true);
    CHECK(p.tx(0, 0).fctbs() == 65);
    CHECK(p.pick_vl(0, 0b11) == 1);
    CHECK(p.pick_vl(1, 0b11) == 0);  // port 1's arbiter is its own
}

TEST_CASE("credit_stalls: endpoint form, stalls over a measurement window") {
    credit_stalls s(2, 2);
    std::vector<uint64_t> per_vl(2, 0);
    const auto add = [&](uint32_t, uint32_t vl, cycle_t c) { per_vl[vl] += c; };
    s.track_port(10, 0, 0b01, false, add);  // port 0 VL 0 stalls from 10 (before the window)
    s.open_window(20);                      // counts from 20
    s.track_port(30, 0, 0b10, true, add);   // VL 0 ends: 30 - 20 = 10; VL 1 starts at 30
    CHECK(s.stalled_vls(0) == 0b10);
    s.track_port(35, 1, 0b01, true, add);  // port 1 VL 0 from 35
    s.track_port(45, 1, 0b00, true, add);  // ends: 10
    s.close_window(50, add);               // port 0 VL 1 still stalled: 50 - 30 = 20
    CHECK(per_vl == std::vector<uint64_t>{20, 20});
    s.track_port(60, 0, 0, false, add);  // after the window: not counted
    CHECK(per_vl == std::vector<uint64_t>{20, 20});
}

TEST_CASE("credit_stalls: switch form, per VL masks of ports") {
    credit_stalls s(2, 2);
    std::vector<uint64_t> per_vl(2, 0);
    const auto add = [&](uint32_t, uint32_t vl, cycle_t c) { per_vl[vl] += c; };
    s.track_vls(5, {0b11, 0b00}, true, add);  // ports 0 and 1 stall on VL 0 from 5
    s.track_vls(8, {0b01, 0b10}, true, add);  // port 1 VL 0 ends: 3; port 1 VL 1 from 8
    CHECK(s.stalled_ports(0) == 0b01);
    s.close_window(12, add);  // port 0 VL 0: 7; port 1 VL 1: 4; both restart at 12
    CHECK(per_vl == std::vector<uint64_t>{10, 4});
    s.track_vls(14, {0b00, 0b00}, true, add);  // counted from the restart: 2 + 2
    CHECK(per_vl == std::vector<uint64_t>{12, 6});
}

TEST_CASE("ib_ports: switch receive state keeps its occupancy statistic beside the credits") {
    ib_ports<rx_buffer> p(1, 1, 10, vl_arb_table::equal_weights(1), 0, SWITCH);
    static_assert(alignof(rx_buffer) == 64, "one cache line per input buffer");
    p.rx(0).on_receive(4);
    p.rx(0).occ.update(3, p.rx(0).occupied());
    CHECK(p.rx(0, 0).occ.value() == 4);
    CHECK(p.rx(0).fccl() == 10);  // ABR 4 + 6 free
}

TEST_CASE("ib_ports: a shared buffer grows a busy VL from its reservation to the pool") {
    // 1 port, 2 VLs of 512 blocks = a 1024-block pool, 128 reserved per VL, alpha 8, window 512
    // (the defaults: 2 x 32 KiB, 8 KiB, 8, the static share). Hand-derived with
    // golden/vl_buffer_pool.h's rule: a busy VL grows by d = floor((8 x unclaimed - its pool
    // blocks) / 9), its window at most 512; an idle VL keeps its claim; blocks read out return.
    ib_ports<rx_buffer> p(1, 2, 512, vl_arb_table::equal_weights(2), 0, SWITCH);
    p.set_shared_pool(1024, 128, 8.0, 512);
    REQUIRE(p.rx(0, 0).capacity() == 128);
    REQUIRE(p.rx(0, 1).capacity() == 128);
    std::vector<std::pair<uint32_t, uint32_t>> sent;  // (vl, fccl)
    const auto send = [&](uint32_t, uint32_t vl, uint32_t fccl) { sent.emplace_back(vl, fccl); };
    const auto flush = [](uint32_t, cycle_t) {};
    // A 65-block packet arrives on VL0: it could claim more, so an FC update goes.
    CHECK(p.arrived(0, 65));
    p.send_fc(1, send, flush);
    REQUIRE(sent.size() == 1);
    // d = 682 but the window limits: 65 + 512 = 577; FCCL = ABR 65 + 512.
    CHECK(sent[0] == std::make_pair(0U, 577U));
    CHECK(p.rx(0, 0).capacity() == 577);
    // VL1 idle: a refresh-style update re-advertises only its reservation.
    p.mark_fc(1);
    sent.clear();
    p.send_fc(2, send, flush);
    REQUIRE(sent.size() == 1);
    CHECK(sent[0] == std::make_pair(1U, 128U));
    // VL1 busy: 319 unclaimed, d = floor(2552 / 9) = 283 -> 411; FCCL = 65 + (411 - 65).
    CHECK(p.arrived(1, 65));
    sent.clear();
    p.send_fc(3, send, flush);
    REQUIRE(sent.size() == 1);
    CHECK(sent[0] == std::make_pair(1U, 411U));
    // VL0's packet is read out: its 65 blocks return to the pool (capacity 512) and VL0, now
    // idle, keeps its promise: FCCL = ABR 65 + 512 = 577, unchanged.
    p.release(0, 65);
    CHECK(p.rx(0, 0).capacity() == 512);
    sent.clear();
    p.send_fc(4, send, flush);
    REQUIRE(sent.size() == 1);
    CHECK(sent[0] == std::make_pair(0U, 577U));
    // Busy VL1 again: 1024 - 512 - 411 = 101 unclaimed, it holds 283 pool blocks:
    // d = floor((808 - 283) / 9) = 58 -> 469; FCCL = 65 + (469 - 65) = 469.
    p.mark_fc(1);
    sent.clear();
    p.send_fc(5, send, flush);
    REQUIRE(sent.size() == 1);
    CHECK(sent[0] == std::make_pair(1U, 469U));
    CHECK(p.rx(0, 0).capacity() + p.rx(0, 1).capacity() <= 1024);
}
