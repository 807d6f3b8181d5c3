// Payload bytes a replay delivered per (source host, destination host), kept sparse: a ring
// on 16,384 hosts touches two pairs per host, where a dense matrix held 268 M counters (2 GiB,
// zero-filled at construction and copied again into the outcome). Tests read it to check a
// schedule's traffic pattern against its closed form.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace ndr::tb {

class pair_traffic {
public:
    pair_traffic() = default;
    explicit pair_traffic(uint32_t hosts) : hosts_(hosts) {}
    void add(uint32_t src, uint32_t dst, uint64_t bytes) { bytes_[key(src, dst)] += bytes; }
    /// Bytes from `src` to `dst`; 0 for a pair that carried nothing.
    [[nodiscard]] uint64_t get(uint32_t src, uint32_t dst) const {
        const auto it = bytes_.find(key(src, dst));
        return it == bytes_.end() ? 0 : it->second;
    }
    [[nodiscard]] uint32_t hosts() const { return hosts_; }
    /// Pairs that carried at least one transfer.
    [[nodiscard]] std::size_t pairs() const { return bytes_.size(); }

private:
    static uint64_t key(uint32_t src, uint32_t dst) { return (uint64_t{src} << 32) | dst; }
    uint32_t hosts_ = 0;
    std::unordered_map<uint64_t, uint64_t> bytes_;
};

}  // namespace ndr::tb
