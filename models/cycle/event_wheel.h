// Future events of one engine, keyed by cycle. Two stores, both O(1) per event:
//  - per-kind FIFO lanes: an event whose cycle is >= the last one queued in its kind's lane is
//    appended there (most kinds have a constant or monotonic delay), so memory is touched
//    sequentially and stays in cache;
//  - a calendar wheel (plus a heap for the far future) for everything else.
// pop_cycle returns the lanes' events (by kind) and then the calendar's, in insertion order
// within each; engines apply one cycle's events order-independently (see cycle_engine.h).
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include "cycle/event.h"

namespace ndr::cycle {

class event_wheel {
public:
    explicit event_wheel(uint32_t slots_log2 = 10);
    /// Schedules e at cycle `at` (>= the cycle last popped). Inline: the hot path.
    void push(cycle_t at, event e) {
        if (at < base_) throw_past();
        ++count_;
        const uint32_t k = e.kind & (NUM_LANES - 1);
        lane& l = lanes_[k];
        if (l.size == 0 || at >= l.back_at) {
            if (l.size == l.buf.size()) l.grow();
            l.buf[(l.head + l.size) & l.mask] = timed{static_cast<uint32_t>(at), e};
            if (l.size == 0) l.front_at = at;
            ++l.size;
            l.back_at = at;
            lanes_busy_ |= 1U << k;
            return;
        }
        push_calendar(at, e);
    }
    /// Earliest cycle that has an event, or UINT64_MAX if none.
    cycle_t next_cycle() const;
    /// Moves all events of cycle `now` (which must be next_cycle()) into out (cleared first).
    void pop_cycle(cycle_t now, std::vector<event>& out);
    bool empty() const { return count_ == 0; }
    std::size_t size() const { return count_; }

private:
    /// 16 bytes: the cycle is kept modulo 2^32 (events lie within 2^32 cycles of now).
    struct timed {
        uint32_t at_lo;
        event ev;
    };
    /// Ring buffer of timed events with non-decreasing cycle.
    struct lane {
        std::vector<timed> buf;  ///< capacity a power of two
        std::size_t mask = 0;
        std::size_t head = 0;
        std::size_t size = 0;
        cycle_t back_at = 0;
        cycle_t front_at = 0;  ///< full cycle of buf[head] when size > 0
        void grow();
    };
    struct far_event {
        cycle_t at;
        uint64_t seq;
        event ev;
        bool operator>(const far_event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    static constexpr uint32_t NUM_LANES = 32;
    [[noreturn]] static void throw_past();
    void push_calendar(cycle_t at, const event& e);
    cycle_t calendar_next() const;
    void migrate_far();

    lane lanes_[NUM_LANES];
    uint32_t lanes_busy_ = 0;  ///< bit k: lane k non-empty
    uint32_t mask_;
    std::vector<std::vector<event>> slots_;
    std::vector<uint64_t> occupied_;         ///< bitmap of non-empty slots
    std::vector<std::vector<event>> spare_;  ///< emptied slot buffers, most recent last
    std::priority_queue<far_event, std::vector<far_event>, std::greater<far_event>> far_;
    uint64_t far_seq_ = 0;
    cycle_t base_ = 0;  ///< slots hold cycles [base_, base_ + slots)
    std::size_t count_ = 0;
    std::size_t near_count_ = 0;
};

}  // namespace ndr::cycle
