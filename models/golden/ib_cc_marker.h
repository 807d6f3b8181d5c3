// The switch side of InfiniBand congestion control (IBTA Annex A10 SwitchCongestionSetting),
// as both switch models apply it at the egress of each (output port, VL): the blocks queued
// for the output VL (routed there, not yet through the crossbar) are its queue depth; a data
// packet that leaves more than the threshold queued behind it (itself excluded: a lone
// flow at line rate is not congestion) and is at least Packet_Size
// credits long is eligible if the output is a root of congestion, not a victim: A10 marks at
// victim ports only when the switch's Victim_Mask says so (OpenSM's default mask is empty).
// Here an output is a root when its link is still busy with earlier packets as the packet is
// granted (the link is the bottleneck), a victim when the link has gone idle (the queue waits
// for credits from a congested switch downstream). Of the eligible packets one is marked
// FECN, then Marking_Rate
// are left unmarked, and so on (the mean spacing A10 names, made deterministic).
// Threshold T (1..15) maps to a depth of ceil((16 - T) x buffer / 16) blocks, `buffer` the
// per-VL input buffer of a switch port (switch.buffer_per_vl); T = 0 marks nothing.
// SystemC-free.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ndr::golden {

/// Depth in 64 B blocks above which an output VL counts as congested (0: never, T = 0).
constexpr uint32_t cc_threshold_blocks(uint32_t threshold, uint32_t buffer_blocks) {
    return threshold == 0 ? 0 : ((16 - threshold) * buffer_blocks + 15) / 16;
}

class cc_marker {
public:
    cc_marker() = default;
    /// `queues` output VLs (ports x VLs); `threshold`: cc.threshold; `buffer_blocks`: the per-VL
    /// input buffer; `marking_rate`, `min_blocks`: cc.marking_rate, cc.packet_size.
    cc_marker(std::size_t queues, uint32_t threshold, uint32_t buffer_blocks, uint32_t marking_rate,
              uint32_t min_blocks)
        : depth_(queues, 0),
          skip_(queues, 0),
          on_(threshold != 0),
          threshold_(cc_threshold_blocks(threshold, buffer_blocks)),
          rate_(marking_rate),
          min_blocks_(min_blocks) {}

    /// A packet of `blocks` was routed to output VL `q`.
    void enqueued(std::size_t q, uint32_t blocks) { depth_[q] += blocks; }
    /// The packet leaves output VL `q`'s queue (crossbar transfer); `data`: a data packet (only
    /// those are marked); `link_busy`: the output's link is still sending earlier packets (a
    /// root, not a victim). Returns whether it is marked FECN.
    bool dequeued(std::size_t q, uint32_t blocks, bool data, bool link_busy) {
        depth_[q] -= blocks;
        const uint64_t depth = depth_[q];
        if (!on_ || !data || !link_busy || depth <= threshold_ || blocks < min_blocks_) {
            return false;
        }
        if (skip_[q] != 0) {
            --skip_[q];
            return false;
        }
        skip_[q] = rate_;
        ++marked_;
        return true;
    }
    uint64_t depth(std::size_t q) const { return depth_[q]; }
    uint32_t threshold_blocks() const { return threshold_; }
    /// Packets marked since the start.
    uint64_t marked() const { return marked_; }

private:
    std::vector<uint64_t> depth_;
    std::vector<uint32_t> skip_;
    bool on_ = false;
    uint32_t threshold_ = 0;
    uint32_t rate_ = 0;
    uint32_t min_blocks_ = 0;
    uint64_t marked_ = 0;
};

}  // namespace ndr::golden
