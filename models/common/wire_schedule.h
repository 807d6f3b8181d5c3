// One direction of a link as its sender uses it, for slotting FC packets in between data
// packets (docs/architecture.md, "Credits"). Used by the six devices of both levels (cycle and
// TLM switch, HCAs, traffic endpoints), one per port. SystemC-free.
//
// The rule. An FC packet cannot interrupt a data packet on an IB link, but it does not wait
// behind data that is queued and not yet started either (link packets go ahead of data at a
// packet boundary). So an FC packet ready at cycle r (the buffer freed + link.fc_processing)
// departs at the next packet boundary at or after r: r itself if no data packet is on the wire
// at r, else the end of the packet on the wire at r (a burst of the TLM level is a train of
// packets of pkt_beats each: its next packet boundary). It then takes its own wire time:
// golden::fc_packet::SIZE (6 B) per FC packet, accumulated in bytes; each whole beat of it
// moves the cycle the link is free by one beat, so the data booked after it starts later.
// Data packets already booked keep their start cycles (their arrivals are already scheduled);
// the FC beats are paid by the next data packet booked.
//
// The device keeps its own "link free" cycle (the switches' link_free, the HCAs' and endpoints'
// tx_free) and passes it to fc() by reference; book() records each data packet's span. A switch
// with an egress pipeline (switch.latency_split < 1) books its link `lead` cycles before the
// data reaches the wire: book() takes its cycles, fc() takes and returns wire cycles.
#pragma once
#include <cstdint>
#include <vector>

#include "common/cycles.h"
#include "golden/wire/fc_packet.h"

namespace ndr::common {

class wire_schedule {
public:
    /// beat_bytes: bytes of one beat (switch.datapath_width).
    explicit wire_schedule(uint32_t beat_bytes = 64) : beat_bytes_(beat_bytes) {}
    /// The device's link-free cycles run `lead` cycles ahead of the wire (its egress pipeline).
    void set_lead(uint32_t lead) { lead_ = lead; }

    /// At cycle `now`, a data packet (or a burst of packets of pkt_beats each; 0 = one packet)
    /// is booked on the wire for [start, start + beats).
    void book(cycle_t now, cycle_t start, uint32_t beats, uint32_t pkt_beats = 0) {
        drop_ended(now);
        if (size_ == ring_.size()) grow();
        ring_[(head_ + size_++) & (ring_.size() - 1)] =
            span{start + lead_, start + lead_ + beats, pkt_beats == 0 ? beats : pkt_beats};
    }

    /// The departure cycle of an FC packet ready at `ready` (the next packet boundary at or
    /// after it); charges its wire bytes, moving `link_free` by a beat per whole beat of them.
    cycle_t fc(cycle_t ready, cycle_t& link_free, uint32_t fc_bytes = FC_BYTES) {
        drop_ended(ready);
        cycle_t depart = ready;
        if (size_ != 0) {
            const span& s = ring_[head_];
            if (s.start < ready) {  // on the wire at `ready`: wait for its (next) packet end
                const cycle_t into = ready - s.start;
                const cycle_t boundary = s.start + (into + s.pkt - 1) / s.pkt * s.pkt;
                depart = boundary < s.end ? boundary : s.end;
            }
        }
        fc_bytes_ += fc_bytes;
        while (fc_bytes_ >= beat_bytes_) {
            fc_bytes_ -= beat_bytes_;
            const cycle_t at = depart > lead_ ? depart - lead_ : 0;  // in link_free's cycles
            link_free = (link_free > at ? link_free : at) + 1;
        }
        return depart;
    }

    /// An FC packet's bytes on the wire (docs/domain.md §2.1).
    static constexpr uint32_t FC_BYTES = static_cast<uint32_t>(golden::fc_packet::SIZE);

private:
    struct span {
        cycle_t start;
        cycle_t end;
        cycle_t pkt;  ///< beats per packet (the span's packet boundaries)
    };
    void drop_ended(cycle_t now) {
        while (size_ != 0 && ring_[head_].end <= now) {
            head_ = (head_ + 1) & (ring_.size() - 1);
            --size_;
        }
    }
    void grow() {
        std::vector<span> bigger(ring_.empty() ? 8 : ring_.size() * 2);
        for (std::size_t i = 0; i < size_; ++i) bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
        ring_.swap(bigger);
        head_ = 0;
    }

    std::vector<span> ring_;  ///< booked data spans not yet ended, in start order
    std::size_t head_ = 0;
    std::size_t size_ = 0;
    uint32_t beat_bytes_;
    uint32_t fc_bytes_ = 0;  ///< FC wire bytes not yet charged as a whole beat
    uint32_t lead_ = 0;      ///< egress pipeline: booked cycles + lead_ = wire cycles
};

}  // namespace ndr::common
