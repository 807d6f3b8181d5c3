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

    /// The output of a packet to host `dst` (DLID - 1) of `need_blocks` whose LFT port is
    /// `lft_port`; `credits(p)` gives the free credits of output p on the packet's output VL.
    /// Counts the packet as queued there.
    template <class Credits>
    uint8_t route(uint8_t lft_port, uint32_t dst, uint32_t need_blocks, Credits&& credits) {
        uint8_t out = lft_port;
        uint64_t group = lft_port < groups_.size() ? groups_[lft_port] : 0;
        bool lft_dead = false;  // FLFR: the LFT port is down, pick among the group's live ports
        if (faulty_) [[unlikely]] {
            if (dst < by_dest_.size() && by_dest_[dst] != 0) group = by_dest_[dst];
            lft_dead =
                lft_port < 64 && (group >> lft_port & 1U) != 0 && (dead_ >> lft_port & 1U) != 0;
            group &= ~dead_;
        }
        if (lft_dead || (group & (group - 1)) != 0) {  // two ports or more, or FLFR: a choice
            std::array<golden::ar_candidate, 64> c{};
            std::size_t n = 0;
            for_each_bit(group, [&](uint32_t p) {
                c[n++] = golden::ar_candidate{static_cast<uint8_t>(p), queued_[p], credits(p)};
            });
            const uint64_t tie = golden::ar_tie_draw(seed_, sw_, decisions_++);
            out = lft_dead ? golden::ar_choose_alternative(lft_port, c.data(), n, need_blocks, tie)
                           : golden::ar_choose(lft_port, c.data(), n, need_blocks, threshold_, tie);
            if (out != lft_port) ++moved_;
        }
        queued_[out] += need_blocks;
        return out;
    }
    /// fault.link_down: `port` is down from now on (not Active), so no group offers it; a packet
    /// whose LFT port it is takes another port of its group (SHIELD's fast link fault recovery,
    /// docs/routing.md 'Link faults').
    void port_down(uint8_t port) {
        faulty_ = true;
        dead_ |= uint64_t{1} << (port & 63U);
    }
    /// The subnet manager's reroute: per destination host (index DLID - 1) the ports that still
    /// lead to it (golden::reroute_ar_groups; 0 = keep the per-port group).
    void set_dest_groups(std::vector<uint64_t> by_dest) {
        faulty_ = true;
        by_dest_ = std::move(by_dest);
    }
    /// The AR group of LFT port `lft_port` (bit q = port q; 0: none).
    uint64_t group(uint8_t lft_port) const {
        return lft_port < groups_.size() ? groups_[lft_port] : 0;
    }
    /// Ports of that group (0 or 1: no choice).
    uint32_t group_size(uint8_t lft_port) const {
        return static_cast<uint32_t>(__builtin_popcountll(group(lft_port)));
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
    bool faulty_ = false;            ///< a port went down or a reroute came (fault.link_down)
    uint64_t dead_ = 0;              ///< ports down
    std::vector<uint64_t> by_dest_;  ///< AR group per destination after a reroute
};

}  // namespace ndr::common
