// The per-device calendar of timed_device: timers in (cycle, insertion) order. A calendar wheel
// of SLOTS one-cycle slots covers [base, base + SLOTS) (per slot a FIFO list of nodes in one
// shared pool, so memory follows the timers pending, not the busiest slot ever seen, and a
// bitmap of non-empty slots); timers further ahead wait in a heap and move into the wheel,
// in insertion order, as soon as the base comes within reach (before any later insertion can
// land in their slot), so the order is exactly that of a (cycle, sequence) priority queue.
#pragma once
#include <cstdint>
#include <queue>
#include <stdexcept>
#include <vector>

namespace ndr::tlmm {

template <typename T>
class timer_calendar {
public:
    static constexpr uint64_t SLOTS = 1024;

    timer_calendar() : slots_(SLOTS) {}
    bool empty() const { return count_ == 0 && far_.empty(); }
    /// Cycle of the earliest timer (the calendar must not be empty).
    uint64_t front_at() const { return count_ != 0 ? first_at() : far_.top().t.at; }
    void push(const T& t) {
        if (t.at < base_) throw std::logic_error("timer_calendar: timer before the base");
        if (t.at >= base_ + SLOTS) {
            far_.push(entry{t, seq_++});
            return;
        }
        put(t);
    }
    /// Takes the earliest timer if it is due at or before `limit`.
    bool pop_due(uint64_t limit, T& out) {
        if (count_ == 0) {
            if (far_.empty() || far_.top().t.at > limit) return false;
            advance(far_.top().t.at);
        }
        const uint64_t at = first_at();
        if (at > limit) return false;
        if (at != base_) advance(at);
        slot& s = slots_[at & (SLOTS - 1)];
        const uint32_t n = s.head;
        out = nodes_[n].t;
        s.head = nodes_[n].next;
        nodes_[n].next = free_;
        free_ = n;
        --count_;
        if (s.head == NIL) {
            s.tail = NIL;
            bits_[(at & (SLOTS - 1)) >> 6] &= ~(uint64_t{1} << (at & 63));
        }
        return true;
    }

private:
    static constexpr uint32_t NIL = ~uint32_t{0};
    struct node {
        T t;
        uint32_t next;
    };
    struct slot {
        uint32_t head = NIL;
        uint32_t tail = NIL;
    };
    struct entry {
        T t;
        uint64_t seq;
    };
    struct later {
        bool operator()(const entry& x, const entry& y) const {
            return x.t.at != y.t.at ? x.t.at > y.t.at : x.seq > y.seq;
        }
    };
    void put(const T& t) {
        uint32_t n = free_;
        if (n != NIL) {
            free_ = nodes_[n].next;
            nodes_[n] = node{t, NIL};
        } else {
            n = static_cast<uint32_t>(nodes_.size());
            nodes_.push_back(node{t, NIL});
        }
        const uint64_t i = t.at & (SLOTS - 1);
        slot& s = slots_[i];
        if (s.tail == NIL) {
            s.head = n;
        } else {
            nodes_[s.tail].next = n;
        }
        s.tail = n;
        bits_[i >> 6] |= uint64_t{1} << (i & 63);
        ++count_;
    }
    void advance(uint64_t to) {
        base_ = to;
        while (!far_.empty() && far_.top().t.at < base_ + SLOTS) {
            put(far_.top().t);
            far_.pop();
        }
    }
    uint64_t first_at() const {
        const uint64_t start = base_ & (SLOTS - 1);
        uint64_t w = start >> 6;
        uint64_t word = bits_[w] & (~uint64_t{0} << (start & 63));
        for (uint64_t k = 0; k <= SLOTS / 64; ++k) {
            if (word != 0) {
                const uint64_t i = (w << 6) | static_cast<uint64_t>(__builtin_ctzll(word));
                return base_ + ((i - start) & (SLOTS - 1));
            }
            w = (w + 1) & (SLOTS / 64 - 1);
            word = bits_[w];
        }
        throw std::logic_error("timer_calendar: no timer in a non-empty wheel");
    }

    std::vector<slot> slots_;
    std::vector<node> nodes_;
    uint32_t free_ = NIL;  ///< free nodes, linked through next
    uint64_t bits_[SLOTS / 64] = {};
    std::size_t count_ = 0;
    uint64_t base_ = 0;
    uint64_t seq_ = 0;
    std::priority_queue<entry, std::vector<entry>, later> far_;
};

}  // namespace ndr::tlmm
