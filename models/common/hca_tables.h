// Bookkeeping shared by the cycle-level HCA (models/cycle/hca.h) and the TLM HCA
// (tlm/hca_tlm.h): reusable message slots, delivery and timer bookkeeping (the queue pairs are
// in common/qp_table.h). SystemC-free.
#pragma once
#include <cstdint>
#include <vector>

#include "common/hca_host.h"

namespace ndr::common {

/// A slot of `slots` reset to T{}: a freed one (from `free_slots`) if any, else a new one.
template <class T>
uint32_t alloc_slot(std::vector<T>& slots, std::vector<uint32_t>& free_slots) {
    uint32_t m;
    if (!free_slots.empty()) {
        m = free_slots.back();
        free_slots.pop_back();
    } else {
        m = static_cast<uint32_t>(slots.size());
        slots.emplace_back();
    }
    slots[m] = T{};
    return m;
}

/// Message m is placed at its destination: counted in `delivered`, marked, retired (`retire(m)`,
/// which frees it once its sender's side is done too), and then the host is told, so the
/// tables are consistent when the host reacts (it may post new messages).
template <class Message, class Retire>
void message_placed(std::vector<Message>& msgs, uint64_t& delivered, Retire&& retire,
                    hca_host* host, uint64_t t, uint32_t m) {
    Message& msg = msgs[m];
    ++delivered;
    const uint32_t dst = msg.dst;
    const uint64_t tag = msg.tag;
    msg.delivered = true;
    retire(m);
    if (host != nullptr) host->on_delivered(t, dst, tag);
}

/// Host timer `slot` fires: its slot is freed, then the host gets its token.
inline void timer_fired(std::vector<uint64_t>& timers, std::vector<uint32_t>& free_timers,
                        hca_host* host, uint64_t t, uint32_t slot) {
    const uint64_t token = timers[slot];
    free_timers.push_back(slot);
    if (host != nullptr) host->on_timer(t, token);
}

}  // namespace ndr::common
