// The queue pairs of a set of HCAs (cycle::hca_array, tlmm::hca_tlm): one per (source,
// destination) host pair, created on first use, numbered in creation order. SystemC-free.
//
// Storage is a std::deque: a queue pair never moves once created, so a caller may hold a
// reference to one while a host callback opens another. The (src, dst) -> index map is consulted
// once per posted message; a received packet finds its receiver QP through `reverse`, which
// caches the index of the opposite direction's QP next to each QP (one map lookup per pair, not
// per packet).
#pragma once
#include <cstdint>
#include <deque>
#include <limits>
#include <unordered_map>
#include <vector>

namespace ndr::common {

/// QueuePair: default-constructible, with public `src` and `dst` host fields.
template <class QueuePair>
class qp_table {
public:
    /// Index of the queue pair src -> dst, appending a new one (src and dst set) on first use.
    uint32_t index(uint32_t src, uint32_t dst) {
        const uint64_t key = key_of(src, dst);
        const auto it = of_.find(key);
        if (it != of_.end()) return it->second;
        const auto idx = static_cast<uint32_t>(qps_.size());
        QueuePair& q = qps_.emplace_back();
        q.src = src;
        q.dst = dst;
        reverse_.push_back(NONE);
        of_.emplace(key, idx);
        return idx;
    }
    /// Index of the queue pair opposite to `qp` (its dst -> its src), created on first use as
    /// index() would: the receiver state at dst of the packets `qp` sends.
    uint32_t reverse(uint32_t qp) {
        uint32_t r = reverse_[qp];
        if (r != NONE) return r;
        r = index(qps_[qp].dst, qps_[qp].src);
        reverse_[qp] = r;
        reverse_[r] = qp;
        return r;
    }
    /// Index of the queue pair src -> dst, or `npos` if there is none (nothing is created).
    uint32_t find(uint32_t src, uint32_t dst) const {
        const auto it = of_.find(key_of(src, dst));
        return it == of_.end() ? npos : it->second;
    }
    QueuePair& operator[](uint32_t qp) { return qps_[qp]; }
    const QueuePair& operator[](uint32_t qp) const { return qps_[qp]; }
    [[nodiscard]] std::size_t size() const { return qps_.size(); }

    static constexpr uint32_t npos = std::numeric_limits<uint32_t>::max();

private:
    static constexpr uint32_t NONE = npos;
    static uint64_t key_of(uint32_t src, uint32_t dst) { return (uint64_t{src} << 32) | dst; }

    std::deque<QueuePair> qps_;
    std::vector<uint32_t> reverse_;  ///< [qp]: the opposite QP's index once known, else NONE
    std::unordered_map<uint64_t, uint32_t> of_;
};

}  // namespace ndr::common
