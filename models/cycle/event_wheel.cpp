#include "cycle/event_wheel.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ndr::cycle {

void event_wheel::lane::grow() {
    std::vector<timed> bigger(buf.empty() ? 256 : buf.size() * 2);
    for (std::size_t i = 0; i < size; ++i) bigger[i] = buf[(head + i) & mask];
    buf.swap(bigger);
    mask = buf.size() - 1;
    head = 0;
}

void event_wheel::throw_past() {
    throw std::logic_error("event_wheel: event scheduled in the past");
}

event_wheel::event_wheel(uint32_t slots_log2)
    : mask_((1U << slots_log2) - 1U),
      slots_(std::size_t{1} << slots_log2),
      occupied_((std::size_t{1} << slots_log2) / 64 + 1, 0) {}

void event_wheel::push_calendar(cycle_t at, const event& e) {
    if (at - base_ > mask_) {
        far_.push(far_event{at, far_seq_++, e});
        return;
    }
    const uint32_t s = static_cast<uint32_t>(at) & mask_;
    std::vector<event>& slot = slots_[s];
    if (slot.capacity() == 0 && !spare_.empty()) {
        // Reuse the most recently released buffer: it is still in cache.
        slot.swap(spare_.back());
        spare_.pop_back();
    }
    slot.push_back(e);
    occupied_[s >> 6] |= uint64_t{1} << (s & 63U);
    ++near_count_;
}

cycle_t event_wheel::calendar_next() const {
    if (near_count_ == 0) {
        return far_.empty() ? std::numeric_limits<cycle_t>::max() : far_.top().at;
    }
    // Scan the occupancy bitmap from base_ (wrapping once).
    const uint32_t nslots = mask_ + 1U;
    uint32_t pos = static_cast<uint32_t>(base_) & mask_;
    uint32_t scanned = 0;
    cycle_t near = std::numeric_limits<cycle_t>::max();
    while (scanned < nslots) {
        const uint32_t bit = pos & 63U;
        const uint64_t w = occupied_[pos >> 6] >> bit;
        if (w != 0) {
            const uint32_t dist = scanned + static_cast<uint32_t>(__builtin_ctzll(w));
            if (dist < nslots) near = base_ + dist;
            break;
        }
        const uint32_t step = 64U - bit;
        scanned += step;
        pos = (pos + step) & mask_;
    }
    if (!far_.empty() && far_.top().at < near) return far_.top().at;
    return near;
}

cycle_t event_wheel::next_cycle() const {
    if (count_ == 0) return std::numeric_limits<cycle_t>::max();
    cycle_t best = count_ > 0 ? calendar_next() : std::numeric_limits<cycle_t>::max();
    for (uint32_t m = lanes_busy_; m != 0; m &= m - 1) {
        best = std::min(best, lanes_[__builtin_ctz(m)].front_at);
    }
    return best;
}

void event_wheel::migrate_far() {
    while (!far_.empty() && far_.top().at - base_ <= mask_) {
        const far_event f = far_.top();
        far_.pop();
        push_calendar(f.at, f.ev);
    }
}

void event_wheel::pop_cycle(cycle_t now, std::vector<event>& out) {
    out.clear();
    if (now < base_) throw std::logic_error("event_wheel: pop_cycle went backwards");
    base_ = now;
    for (uint32_t m = lanes_busy_; m != 0; m &= m - 1) {
        const uint32_t k = static_cast<uint32_t>(__builtin_ctz(m));
        lane& l = lanes_[k];
        if (l.front_at != now) continue;
        // Every entry is in [now, now + 2^32), so comparing the low 32 bits is exact.
        const uint32_t lo = static_cast<uint32_t>(now);
        std::size_t head = l.head;
        std::size_t size = l.size;
        do {
            out.push_back(l.buf[head].ev);
            head = (head + 1) & l.mask;
            --size;
        } while (size != 0 && l.buf[head].at_lo == lo);
        l.head = head;
        l.size = size;
        if (size == 0) {
            lanes_busy_ &= ~(1U << k);
        } else {
            l.front_at = l.back_at - static_cast<uint32_t>(static_cast<uint32_t>(l.back_at) -
                                                           l.buf[head].at_lo);
        }
    }
    count_ -= out.size();
    migrate_far();
    const uint32_t s = static_cast<uint32_t>(now) & mask_;
    std::vector<event>& slot = slots_[s];
    if (slot.empty()) return;
    const std::size_t n = slot.size();
    out.insert(out.end(), slot.begin(), slot.end());
    slot.clear();
    // Park the buffer for reuse (LIFO) instead of leaving it to go cold until this slot
    // comes round again.
    spare_.push_back(std::vector<event>());
    spare_.back().swap(slot);
    occupied_[s >> 6] &= ~(uint64_t{1} << (s & 63U));
    count_ -= n;
    near_count_ -= n;
}

}  // namespace ndr::cycle
