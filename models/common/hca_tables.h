// Bookkeeping shared by the cycle-level HCA (models/cycle/hca.h) and the TLM HCA
// (tlm/hca_tlm.h): the queue pair of a (source, destination) host pair, created on first use,
// and reusable message slots. SystemC-free.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/hca_host.h"

namespace ndr::common {

/// Index of the queue pair src -> dst in `qps`, appending a new one (src and dst set) on first use.
/// `qps` is a container whose push_back keeps references valid (std::deque): callers hold a
/// reference to one queue pair while a host callback may open another.
template <class QueuePairs>
uint32_t find_or_add_qp(QueuePairs& qps, std::unordered_map<uint64_t, uint32_t>& qp_of,
                        uint32_t src, uint32_t dst) {
    const uint64_t key = (uint64_t{src} << 32) | dst;
    const auto it = qp_of.find(key);
    if (it != qp_of.end()) return it->second;
    const auto idx = static_cast<uint32_t>(qps.size());
    typename QueuePairs::value_type q;
    q.src = src;
    q.dst = dst;
    qps.push_back(std::move(q));
    qp_of.emplace(key, idx);
    return idx;
}

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
