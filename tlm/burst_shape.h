// The shape of one HCA burst transaction (sim.tlm_burst): the consecutive packets of one
// message that one tlm_generic_payload carries, in at most three kinds (the message's first,
// middle and last packets differ in payload and headers). From the kinds: the largest packet,
// the totals, the credit charge at every hop and when the packets would leave one by one.
// SystemC-free.
#pragma once
#include <cstdint>

#include "common/timing.h"
#include "credit_pacer.h"

namespace ndr::tlmm {

/// The bound of a burst's credit charge (burst_shape::charge): the credits a switch VL can
/// always get back, its whole buffer (static) or its reservation (shared; a bigger charge could
/// wait for a window that only the burst's own arrival would grow), and the endpoints' buffer.
uint32_t burst_buffer_blocks(const common::timing& tm);

class burst_shape {
public:
    /// n packets of one size: payload and wire bytes, beats and credit blocks each, and the
    /// cycles of its payload DMA.
    struct kind {
        uint32_t payload, wire, beats, blocks, dma, n;
    };
    /// Appends n > 0 packets of a kind (in sending order; at most three kinds).
    void add(const kind& k);

    uint32_t packets() const { return packets_; }
    uint32_t max_blocks() const { return blocks_; }  ///< largest packet, credit blocks
    uint32_t max_beats() const { return beats_; }    ///< largest packet, beats
    uint64_t payload_bytes() const { return payload_sum_; }
    uint64_t wire_bytes() const { return wire_sum_; }
    uint64_t beats() const { return beats_sum_; }  ///< all packets back to back
    uint32_t last_dma() const { return kinds_[nk_ - 1].dma; }

    /// Credit charge of the burst at every hop: up to half of the smallest buffer
    /// (buffer_blocks) left after one packet, so two bursts stream back to back and a burst
    /// waiting at a congested output back-pressures its upstream link, as the packets would
    /// fill the buffer. One packet: its own blocks.
    uint32_t charge(uint32_t buffer_blocks) const;

    /// When the packets leave one by one from cycle t: packet j when the wire is free and
    /// packet j-1's payload DMA is done and, with a pacer, when the credit loop allows it.
    struct timing {
        uint64_t last_start;  ///< first beat of the last packet
        uint64_t end;         ///< after the last beat
    };
    /// pacer: nullptr when the link's credit loop never limits these packets.
    timing leave(uint64_t t, credit_pacer* pacer) const;

private:
    kind kinds_[3] = {};
    uint32_t nk_ = 0;
    uint32_t packets_ = 0;
    uint32_t blocks_ = 0;
    uint32_t beats_ = 0;
    uint64_t payload_sum_ = 0;
    uint64_t wire_sum_ = 0;
    uint64_t beats_sum_ = 0;
    uint64_t blocks_sum_ = 0;
    bool dma_bound_ = false;  ///< some packet's DMA outlasts its serialisation
};

}  // namespace ndr::tlmm
