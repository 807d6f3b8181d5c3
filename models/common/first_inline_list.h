// A list whose first element is stored inline and the rest on the heap: the replay's list of
// transfers waiting for one transfer, which is one element for almost every transfer (a ring's
// next hop), so the common case costs no allocation and shares the transfer's cache line.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ndr::common {

template <class T>
class first_inline_list {
public:
    std::size_t size() const { return n_; }
    bool empty() const { return n_ == 0; }
    const T& operator[](std::size_t i) const { return i == 0 ? first_ : rest_[i - 1]; }
    void push_back(const T& v) {
        if (n_ == 0) {
            first_ = v;
        } else {
            rest_.push_back(v);
        }
        ++n_;
    }
    /// Empties the list, keeping the heap part's storage.
    void clear() {
        n_ = 0;
        rest_.clear();
    }

private:
    T first_{};
    uint32_t n_ = 0;
    std::vector<T> rest_;
};

}  // namespace ndr::common
