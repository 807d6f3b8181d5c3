// Decides when FC packets go out on each (port, VL) of an engine: an FC packet carries the
// receive buffer's current FCCL whenever it changed, but at most one per `min_interval` cycles
// per (port, VL) (link.fc_min_interval): an FC packet costs wire time, so hardware paces them.
// A change inside the interval is sent when the interval expires (the engine schedules a flush
// event then). The value sent is read when the packet departs, so the last change always goes.
#pragma once
#include <cstdint>
#include <vector>

#include "common/cycles.h"

namespace ndr::common {

class fc_pacer {
public:
    fc_pacer(std::size_t slots, uint32_t min_interval)
        : flag_(slots, 0), next_ok_(slots, 0), flush_pending_(slots, 0), interval_(min_interval) {}
    /// The buffer behind slot k changed (or a refresh wants an FC packet).
    void mark(uint32_t k) {
        if (!flag_[k]) {
            flag_[k] = 1;
            dirty_.push_back(k);
        }
    }
    /// End of cycle t: calls send(k) for each slot that may send now, and flush_at(k, cycle)
    /// once for each slot that must wait (the engine then calls on_flush(k) at that cycle).
    template <typename Send, typename FlushAt>
    void collect(cycle_t t, Send&& send, FlushAt&& flush_at) {
        for (uint32_t k : dirty_) {
            flag_[k] = 0;
            if (t >= next_ok_[k]) {
                next_ok_[k] = t + interval_;
                send(k);
            } else if (!flush_pending_[k]) {
                flush_pending_[k] = 1;
                flush_at(k, next_ok_[k]);
            }
        }
        dirty_.clear();
    }
    void on_flush(uint32_t k) {
        flush_pending_[k] = 0;
        mark(k);
    }

private:
    std::vector<uint32_t> dirty_;
    std::vector<uint8_t> flag_;
    std::vector<cycle_t> next_ok_;
    std::vector<uint8_t> flush_pending_;
    uint32_t interval_;
};

}  // namespace ndr::common
