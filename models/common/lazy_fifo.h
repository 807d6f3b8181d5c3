// A FIFO that allocates nothing until its first push: for tables of many queues of which few
// are ever used (a switch's virtual output queues, ports x ports x VLs: 8,192 per 64-port
// switch with 2 VLs; an HCA's queue pairs, one per peer). A std::deque allocates a 512-byte
// block and its map when constructed: 450 MB for the 96 switches of a 2,048-host fat tree.
#pragma once
#include <cstddef>
#include <vector>

namespace ndr::common {

template <typename T>
class lazy_fifo {
public:
    [[nodiscard]] bool empty() const { return head_ == items_.size(); }
    [[nodiscard]] std::size_t size() const { return items_.size() - head_; }
    void push_back(const T& v) { items_.push_back(v); }
    [[nodiscard]] const T& front() const { return items_[head_]; }
    [[nodiscard]] T& front() { return items_[head_]; }
    /// The i-th entry from the front (i < size()).
    [[nodiscard]] const T& operator[](std::size_t i) const { return items_[head_ + i]; }
    [[nodiscard]] T& operator[](std::size_t i) { return items_[head_ + i]; }
    /// Amortised O(1): the consumed prefix is dropped when it is at least half of the storage,
    /// so the storage never exceeds twice the largest size plus a small constant.
    void pop_front() {
        ++head_;
        if (head_ == items_.size()) {
            items_.clear();
            head_ = 0;
        } else if (head_ >= 32 && 2 * head_ >= items_.size()) {
            items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
    }

private:
    std::vector<T> items_;
    std::size_t head_ = 0;
};

}  // namespace ndr::common
