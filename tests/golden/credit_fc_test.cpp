// Credit flow control golden model (docs/domain.md §2.2). Expectations are hand-computed, and the
// long random run is checked against an independent model in plain unbounded integers.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <stdexcept>

#include "golden/credit_fc.h"

using namespace ndr::golden;
using Catch::Matchers::Contains;

TEST_CASE("blocks_for_bytes rounds up to 64-byte blocks", "[credit]") {
    CHECK(blocks_for_bytes(4122) == 65);  // 4096 B payload + LRH+BTH+ICRC+VCRC
    CHECK(blocks_for_bytes(4096) == 64);
    CHECK(blocks_for_bytes(64) == 1);
    CHECK(blocks_for_bytes(65) == 2);
    CHECK(blocks_for_bytes(1) == 1);
    CHECK(blocks_for_bytes(0) == 0);
    CHECK(blocks_for_bytes(100, 32) == 4);               // negotiated credit size
    CHECK(blocks_for_bytes(0xFFFFFFFFU) == 0x4000000U);  // no overflow in the rounding
    CHECK_THROWS_AS(blocks_for_bytes(64, 0), std::invalid_argument);
}

TEST_CASE("fc_add and fc_sub are modulo 4096", "[credit]") {
    CHECK(fc_add(4090, 10) == 4);
    CHECK(fc_add(4095, 1) == 0);
    CHECK(fc_sub(5, 4090) == 11);
    CHECK(fc_sub(0, 1) == 4095);
    CHECK(fc_sub(2048, 0) == 2048);
    CHECK(fc_sub(100, 100) == 0);
}

TEST_CASE("sender: zero credits stall, an FC update resumes", "[credit]") {
    credit_sender s;  // FCCL == FCTBS == 0
    CHECK(s.available() == 0);
    CHECK_FALSE(s.can_send(1));
    CHECK(s.can_send(0));
    CHECK_THROWS_WITH(s.on_send(1),
                      Contains("credit underflow on send: 1 blocks requested, 0 available"));
    CHECK(s.fctbs() == 0);  // a refused send changes nothing

    s.on_fccl(65);
    CHECK(s.available() == 65);
    CHECK(s.can_send(65));
    CHECK_FALSE(s.can_send(66));
    s.on_send(65);
    CHECK(s.fctbs() == 65);
    CHECK(s.available() == 0);
    CHECK_FALSE(s.can_send(1));
}

TEST_CASE("sender: underflow message names requested and available blocks", "[credit]") {
    credit_sender s(64);
    CHECK_THROWS_AS(s.on_send(70), std::logic_error);
    CHECK_THROWS_WITH(s.on_send(70),
                      Contains("credit underflow on send: 70 blocks requested, 64 available"));
}

TEST_CASE("sender: 12-bit FCTBS wraps while the credit check stays right", "[credit]") {
    credit_sender s(2048);
    s.on_send(2048);  // FCTBS 2048, nothing left
    CHECK(s.available() == 0);
    s.on_fccl(4000);  // 1952 ahead
    CHECK(s.available() == 1952);
    s.on_send(1950);
    CHECK(s.fctbs() == 3998);
    CHECK(s.available() == 2);
    s.on_fccl(2);  // 3998 + 100 = 4098 = 2 mod 4096: the limit has wrapped, FCTBS not yet
    CHECK(s.available() == 100);
    CHECK(s.can_send(100));
    CHECK_FALSE(s.can_send(101));
    s.on_send(97);
    CHECK(s.fctbs() == 4095);
    CHECK(s.available() == 3);  // (2 - 4095) mod 4096
    s.on_send(2);               // 4097 = 1 mod 4096
    CHECK(s.fctbs() == 1);
    CHECK(s.available() == 1);
    CHECK(s.can_send(1));
    CHECK_FALSE(s.can_send(2));
    s.on_send(1);
    CHECK(s.fctbs() == 2);
    CHECK_FALSE(s.can_send(1));
}

TEST_CASE("sender: at most 2048 blocks ahead", "[credit]") {
    CHECK_NOTHROW(credit_sender(2048));
    CHECK_THROWS_AS(credit_sender(2049), std::invalid_argument);

    credit_sender s(2048);
    CHECK(s.can_send(2048));
    CHECK_FALSE(s.can_send(2049));
    // (FCCL - (FCTBS + 4096)) mod 4096 = 2048 would pass the bare modular compare: refused.
    CHECK_FALSE(s.can_send(4096));
    CHECK_FALSE(s.can_send(6144));

    s.on_send(100);   // FCTBS 100
    s.on_fccl(2148);  // exactly 2048 ahead: accepted
    CHECK(s.available() == 2048);
    CHECK_THROWS_WITH(s.on_fccl(2149), Contains("2049 blocks ahead of FCTBS 100"));
    CHECK_THROWS_AS(s.on_fccl(99), std::logic_error);  // behind FCTBS = 4095 ahead
    CHECK_THROWS_WITH(s.on_fccl(99), Contains("1 behind"));
    CHECK_THROWS_WITH(s.on_fccl(4096), Contains("not a 12-bit value"));
    CHECK(s.fccl() == 2148);  // rejected updates change nothing

    // Wrapped: FCTBS 3000, FCCL may go up to 3000 + 2048 = 5048 = 952 mod 4096.
    credit_sender w(2048);
    w.on_send(2048);
    w.on_fccl(4000);
    w.on_send(952);  // FCTBS 3000
    CHECK_NOTHROW(w.on_fccl(952));
    CHECK(w.available() == 2048);
    CHECK_THROWS_AS(w.on_fccl(953), std::logic_error);
}

TEST_CASE("receiver: FCCL = ABR + free, clamped to 2048 ahead", "[credit]") {
    credit_receiver r(512);
    CHECK(r.fccl() == 512);
    r.on_receive(65);
    CHECK(r.abr() == 65);
    CHECK(r.occupied() == 65);
    CHECK(r.free_blocks() == 447);
    CHECK(r.fccl() == 512);  // receiving does not move the limit
    r.on_free(65);
    CHECK(r.fccl() == 577);

    credit_receiver big(3000);
    CHECK(big.fccl() == 2048);  // clamp
    big.on_receive(1000);       // ABR 1000, free 2000
    CHECK(big.fccl() == 3000);
    big.on_receive(1000);  // ABR 2000, free 1000
    CHECK(big.fccl() == 3000);
    big.on_free(1500);  // free 2500 -> clamped to 2048
    CHECK(big.fccl() == 4048);
    big.on_receive(2000);  // ABR 4000, free 500
    CHECK(big.abr() == 4000);
    CHECK(big.fccl() == 404);  // 4500 mod 4096
}

TEST_CASE("receiver: capacity errors", "[credit]") {
    credit_receiver r(100);
    r.on_receive(60);
    CHECK_THROWS_WITH(r.on_receive(41), Contains("41 blocks arrived, 40 free"));
    CHECK(r.occupied() == 60);
    CHECK_THROWS_WITH(r.on_free(61), Contains("61 blocks freed, 60 occupied"));
    r.on_receive(40);
    CHECK(r.free_blocks() == 0);
    CHECK(r.fccl() == 100);
}

TEST_CASE("receiver: on_fctbs repairs ABR after a lost data packet", "[credit]") {
    credit_sender s(512);
    credit_receiver r(512);
    s.on_send(65);
    r.on_receive(65);
    CHECK(r.on_fctbs(s.fctbs()));  // in sync
    s.on_send(65);                 // lost on the link: the receiver never sees it
    CHECK(s.fctbs() == 130);
    CHECK(r.abr() == 65);
    CHECK(r.fccl() == 512);
    CHECK_FALSE(r.on_fctbs(130));  // repaired
    CHECK(r.abr() == 130);
    CHECK(r.fccl() == 577);  // 130 + 447: the lost packet's credits come back
    s.on_fccl(r.fccl());
    CHECK(s.available() == 447);  // = free blocks at the receiver
    CHECK(r.on_fctbs(130));
    CHECK_THROWS_WITH(r.on_fctbs(4096), Contains("not a 12-bit value"));

    // Repair across the wrap: ABR 4090, FCTBS 10 (16 blocks lost).
    credit_receiver w(3000);
    w.on_receive(2045);
    w.on_free(2045);
    w.on_receive(2045);
    w.on_free(2045);
    CHECK(w.abr() == 4090);
    CHECK_FALSE(w.on_fctbs(10));
    CHECK(w.abr() == 10);
    CHECK(w.fccl() == 2058);
}

namespace {

// One direction of a link: a FIFO of items with arrival times (in-order delivery).
template <typename T>
struct link_fifo {
    struct item {
        uint64_t at;
        T v;
    };
    std::deque<item> q;
    uint64_t last_at = 0;
    void push(uint64_t now, uint64_t delay, T v) {
        last_at = std::max(last_at, now + delay);
        q.push_back(item{last_at, v});
    }
    bool ready(uint64_t now) const { return !q.empty() && q.front().at <= now; }
    T pop() {
        T v = q.front().v;
        q.pop_front();
        return v;
    }
};

struct data_item {
    bool is_fc = false;    // FC packet carrying FCTBS (else a data packet)
    uint32_t blocks = 0;   // data
    bool lost = false;     // data packet corrupted on the link
    uint32_t fctbs = 0;    // FC: 12-bit FCTBS
    uint64_t fctbs_u = 0;  // FC: unbounded total blocks sent (independent model)
};

struct fc_item {
    uint32_t fccl = 0;    // 12-bit
    uint64_t fccl_u = 0;  // unbounded (independent model)
};

void run_random_link(uint32_t capacity, uint32_t seed, bool with_loss) {
    std::mt19937 rng(seed);
    auto uni = [&rng](uint32_t lo, uint32_t hi) {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng);
    };

    credit_receiver rx(capacity);
    credit_sender tx(std::min(capacity, FC_MAX_OUTSTANDING));
    link_fifo<data_item> fwd;
    link_fifo<fc_item> back;

    // Independent model: plain unbounded integers.
    uint64_t sent_u = 0;  // blocks sent (FCTBS unbounded)
    uint64_t fccl_known_u = std::min<uint64_t>(capacity, FC_MAX_OUTSTANDING);
    uint64_t abr_u = 0;               // receiver's ABR, unbounded
    uint64_t occupied_u = 0;          // blocks in the receive buffer
    std::deque<uint32_t> rx_packets;  // packets in the buffer, in arrival order
    uint64_t sends = 0, refused = 0, repairs = 0;

    uint32_t next_blocks = blocks_for_bytes(uni(1, 4122));
    const uint64_t target = 16ULL * FC_COUNTER_MOD + 1000;  // 16 full wraps (> 3 required)
    uint64_t now = 0;
    for (; sent_u < target && now < 5'000'000; ++now) {
        // Sender: try the head packet.
        if (uni(0, 3) != 0) {
            const bool ok = tx.can_send(next_blocks);
            // Independent check: the sender may send iff the unbounded limit allows it.
            const uint64_t avail_u = fccl_known_u - sent_u;
            REQUIRE(avail_u <= FC_MAX_OUTSTANDING);
            REQUIRE(tx.available() == avail_u);
            REQUIRE(ok == (next_blocks <= avail_u));
            if (ok) {
                tx.on_send(next_blocks);
                sent_u += next_blocks;
                REQUIRE(tx.fctbs() == sent_u % FC_COUNTER_MOD);
                const bool lost = with_loss && uni(0, 99) == 0;
                fwd.push(now, uni(1, 40), data_item{false, next_blocks, lost, 0, 0});
                ++sends;
                next_blocks = blocks_for_bytes(uni(1, 4122));
            } else {
                ++refused;
            }
        }
        // Sender occasionally sends an FC packet with its FCTBS (in order with data).
        if (uni(0, 199) == 0) {
            fwd.push(now, uni(1, 40), data_item{true, 0, false, tx.fctbs(), sent_u});
        }
        // Receiver: arrivals.
        while (fwd.ready(now)) {
            const data_item d = fwd.pop();
            if (d.is_fc) {
                const bool in_sync = rx.on_fctbs(d.fctbs);
                REQUIRE(in_sync == (abr_u == d.fctbs_u));
                if (!in_sync) ++repairs;
                abr_u = d.fctbs_u;
            } else if (!d.lost) {
                // THE property: an admitted packet always fits in the receive buffer.
                REQUIRE(occupied_u + d.blocks <= capacity);
                rx.on_receive(d.blocks);
                occupied_u += d.blocks;
                abr_u += d.blocks;
                rx_packets.push_back(d.blocks);
            }
            REQUIRE(rx.abr() == abr_u % FC_COUNTER_MOD);
            REQUIRE(rx.occupied() == occupied_u);
        }
        // Receiver drains whole packets at a random pace.
        if (!rx_packets.empty() && uni(0, 2) == 0) {
            rx.on_free(rx_packets.front());
            occupied_u -= rx_packets.front();
            rx_packets.pop_front();
        }
        // Receiver sends FC updates at random times with random delays; 10 % are lost.
        if (uni(0, 9) == 0) {
            const uint64_t fccl_u =
                abr_u + std::min<uint64_t>(capacity - occupied_u, FC_MAX_OUTSTANDING);
            REQUIRE(rx.fccl() == fccl_u % FC_COUNTER_MOD);
            if (uni(0, 9) != 0) back.push(now, uni(1, 300), fc_item{rx.fccl(), fccl_u});
        }
        while (back.ready(now)) {
            const fc_item f = back.pop();
            tx.on_fccl(f.fccl);                 // throws if out of range: it never is
            REQUIRE(f.fccl_u >= fccl_known_u);  // limits never move backwards
            fccl_known_u = f.fccl_u;
        }
    }
    INFO("sends " << sends << ", refused " << refused << ", repairs " << repairs);
    REQUIRE(sent_u >= target);
    CHECK(sent_u / FC_COUNTER_MOD >= 16);
    CHECK(refused > 0);  // credits were actually the bottleneck at times
    if (with_loss) CHECK(repairs > 0);
}

}  // namespace

TEST_CASE("random sender/receiver pair over 16 counter wraps never overflows", "[credit]") {
    SECTION("buffer-limited, 512 blocks") {
        run_random_link(512, 1, false);
    }
    SECTION("2048-limited, 3000 blocks") {
        run_random_link(3000, 2, false);
    }
    SECTION("small buffer, 65 blocks (one MTU)") {
        run_random_link(65, 3, false);
    }
    SECTION("with lost data packets and FCTBS repair") {
        run_random_link(512, 4, true);
    }
    SECTION("2048-limited with loss") {
        run_random_link(3000, 5, true);
    }
}
