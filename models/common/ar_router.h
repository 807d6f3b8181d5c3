// The adaptive-routing state of one InfiniBand switch, as both switch models keep it
// (models/cycle/ib_switch, tlm/ib_switch_tlm): the AR group of every LFT port (routing.ar_group
// = tree: the up-ports toward the spine/core, or parallel down links), the blocks queued per output
// (routed there, not yet through the crossbar), and the decision counter of the seeded tie-break.
// The choice itself is golden::ar_choose. SystemC-free.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/bits.h"
#include "golden/ar_select.h"

namespace ndr::common {

class ar_router {
public:
    /// `groups[p]`: the AR group (bit q = port q) of a packet whose LFT port is p (one bit or
    /// none: a single path); `threshold_blocks`: routing.ar_threshold in 64 B blocks; seed and
    /// switch id for the tie-break draw.
    ar_router(std::vector<uint64_t> groups, uint32_t threshold_blocks, uint64_t seed, uint32_t sw)
        : groups_(std::move(groups)),
          threshold_(threshold_blocks),
          seed_(seed),
          sw_(sw),
          queued_(64, 0) {}  // every port of a 64-port switch

    /// The output of a packet of `need_blocks` whose LFT port is `lft_port`; `credits(p)` gives
    /// the free credits of output p on the packet's output VL. Counts the packet as queued there.
    template <class Credits>
    uint8_t route(uint8_t lft_port, uint32_t need_blocks, Credits&& credits) {
        uint8_t out = lft_port;
        const uint64_t group = lft_port < groups_.size() ? groups_[lft_port] : 0;
        if ((group & (group - 1)) != 0) {  // two ports or more: a choice
            std::array<golden::ar_candidate, 64> c{};
            std::size_t n = 0;
            for_each_bit(group, [&](uint32_t p) {
                c[n++] = golden::ar_candidate{static_cast<uint8_t>(p), queued_[p], credits(p)};
            });
            out = golden::ar_choose(lft_port, c.data(), n, need_blocks, threshold_,
                                    golden::ar_tie_draw(seed_, sw_, decisions_++));
            if (out != lft_port) ++moved_;
        }
        queued_[out] += need_blocks;
        return out;
    }
    /// The packet routed to `out` crossed the crossbar (or left the switch otherwise).
    void dequeued(uint8_t out, uint32_t blocks) { queued_[out] -= blocks; }
    /// Packets sent to a group port other than their LFT port.
    uint64_t moved() const { return moved_; }

private:
    std::vector<uint64_t> groups_;
    uint32_t threshold_;
    uint64_t seed_;
    uint32_t sw_;
    uint64_t decisions_ = 0;
    uint64_t moved_ = 0;
    std::vector<uint32_t> queued_;
};

}  // namespace ndr::common
