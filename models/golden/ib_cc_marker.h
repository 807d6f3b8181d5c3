// The switch side of InfiniBand congestion control (IBTA Annex A10 SwitchCongestionSetting),
// as both switch models apply it at the egress of each (output port, VL): the blocks queued
// for the output VL (routed there, not yet through the crossbar) are its queue depth; a data
// packet that leaves more than the threshold queued behind it (itself excluded: a lone
// flow at line rate is not congestion) and is at least Packet_Size credits long is eligible
// if the output is a root of congestion, not a victim.
//
// Root or victim (A10: a port that is congested because it lacks credits is a victim and
// marks only if its Victim_Mask bit is set): a root is an output whose link is the
// bottleneck, sending at full capacity; a victim's link idles while it waits for credits
// from a congested switch downstream. Here an output is a root when its link is still busy
// with earlier packets as the packet is granted and has been busy at least 7/8 of the recent
// time (an average over the last ~8 packets of beats / (beats + the idle gap before them));
// behind a congested switch the link idles between packets (at a 1/3 share of the
// downstream root, 2/3 of the time), so only the root marks, not the ports that feed it
// through full buffers. A queue whose Victim_Mask bit is set (cc.victim_mask) marks whether
// its link is busy or not.
// Of the eligible packets one is marked FECN, then Marking_Rate are left unmarked, and so on
// (the mean spacing A10 names, made deterministic).
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
    /// input buffer; `marking_rate`, `min_blocks`: cc.marking_rate, cc.packet_size;
    cc_marker(std::size_t queues, uint32_t threshold, uint32_t buffer_blocks, uint32_t marking_rate,
              uint32_t min_blocks)
        : depth_(queues, 0),
          skip_(queues, 0),
          busy_(queues, UTIL_ONE),
          mask_(queues, 0),
          on_(threshold != 0),
          threshold_(cc_threshold_blocks(threshold, buffer_blocks)),
          rate_(marking_rate),
          min_blocks_(min_blocks) {}

    /// Sets the Victim_Mask bit of output VL `q`: it marks even while waiting for credits.
    void set_victim_mask(std::size_t q) { mask_[q] = 1; }
    /// A packet of `blocks` was routed to output VL `q`.
    void enqueued(std::size_t q, uint32_t blocks) { depth_[q] += blocks; }
    /// Recent busy fraction of output VL `q`'s link, in 1/UTIL_ONE.
    uint32_t busy(std::size_t q) const { return busy_[q]; }
    /// The packet leaves output VL `q`'s queue (crossbar transfer): `blocks` credits, `beats`
    /// on the link, which had been idle for `gap` beats before it (0: still busy with earlier
    /// packets); `data`: a data packet (only those are marked). Returns whether it is marked
    /// FECN.
    bool dequeued(std::size_t q, uint32_t blocks, bool data, uint64_t beats, uint64_t gap) {
        depth_[q] -= blocks;
        const uint64_t depth = depth_[q];
        const uint64_t sample = UTIL_ONE * beats / (beats + gap == 0 ? 1 : beats + gap);
        busy_[q] = static_cast<uint32_t>((busy_[q] * (UTIL_AVG - 1) + sample) / UTIL_AVG);
        const bool root = mask_[q] != 0 || (gap == 0 && busy_[q] >= UTIL_ROOT);
        if (!on_ || !data || !root || depth <= threshold_ || blocks < min_blocks_) {
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
    static constexpr uint32_t UTIL_ONE = 256;   ///< busy fraction 1
    static constexpr uint32_t UTIL_AVG = 8;     ///< packets in the running average
    static constexpr uint32_t UTIL_ROOT = 224;  ///< 7/8: a root's link is this busy
    std::vector<uint32_t> busy_;                ///< per queue: recent busy fraction of the link
    std::vector<uint8_t> mask_;                 ///< per queue: Victim_Mask bit
    bool on_ = false;
    uint32_t threshold_ = 0;
    uint32_t rate_ = 0;
    uint32_t min_blocks_ = 0;
    uint64_t marked_ = 0;
};

}  // namespace ndr::golden
