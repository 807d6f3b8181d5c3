// Credit-loop pacing of bursts (sim.tlm_burst): a burst holds the credits of one packet, so the
// IB credit loop no longer limits its rate by itself. A credit_pacer per (sender port, VL)
// replays, packet by packet, what the credits would allow: packet j may leave once the peer's
// buffer (capacity blocks) has room for it, given when the blocks of the packets before it come
// back (freed by the receiver as the TLM models free them, plus the FC packet's way back).
// On links whose loop never limits line rate for a packet size (the common case: checked once
// per size) nothing is tracked. SystemC-free.
#pragma once
#include <cstdint>
#include <utility>

#include "common/lazy_fifo.h"
#include "common/xbar_clock.h"

namespace ndr::tlmm {

struct credit_loop {
    uint32_t capacity = 0;     ///< peer buffer, blocks (the initial credit limit)
    uint32_t link_cycles = 1;  ///< one way, this link
    uint32_t fc_proc = 0;      ///< FC packet processing (timing::fc_cycles - link_cycles)
    bool to_switch = true;     ///< receiver: a switch (crossbar read-out) or an HCA (tail)
    uint32_t elig_cycles = 0;  ///< switch: header in -> eligible (switch_cycles - 1)
    bool cut_through = true;
    double speedup = 1.0;
    uint32_t block_bytes = 64;  ///< beat bytes
    uint32_t rx_proc = 0;       ///< HCA: tail -> blocks freed
};

class credit_pacer {
public:
    credit_pacer() = default;
    explicit credit_pacer(const credit_loop& loop)
        : loop_(loop), xbar_(loop.speedup, 0), avail_(loop.capacity) {}

    /// Earliest start >= `at` of a packet of `blocks`/`beats` the credit loop allows; the
    /// packet is then sent at that time (its blocks in flight until they come back).
    uint64_t send(uint64_t at, uint32_t blocks, uint32_t beats);
    /// A packet sent at `at` whatever the loop says (its real credits were checked).
    void record(uint64_t at, uint32_t blocks, uint32_t beats);
    /// True if back-to-back packets of this size never wait for credits on this loop.
    bool line_rate(uint32_t blocks, uint32_t beats) {
        const uint32_t key = blocks << 16 | beats;
        if (key != last_key_) {  // a port sees one or two packet sizes: the last answer first
            last_ok_ = line_rate_of(blocks, beats);
            last_key_ = key;
        }
        return last_ok_;
    }
    bool enabled() const { return loop_.capacity != 0; }

private:
    void push_returns(uint64_t s, uint32_t blocks, uint32_t beats);
    /// line_rate worked out once per process for each loop and packet size (the memo).
    bool line_rate_of(uint32_t blocks, uint32_t beats) const;
    uint64_t xbar(uint32_t beats) const { return xbar_.cycles(beats); }

    credit_loop loop_;
    common::xbar_clock xbar_{1.0, 0};  ///< the per-packet crossbar rule at loop_.speedup
    int64_t avail_ = 0;
    /// (cycle the credits are back, blocks); allocates nothing until used (one pacer per
    /// switch port and VL: a std::deque took 576 bytes each, unused or not).
    common::lazy_fifo<std::pair<uint64_t, uint32_t>> back_;
    uint32_t last_key_ = ~uint32_t{0};  ///< the last line_rate question
    bool last_ok_ = false;
};

}  // namespace ndr::tlmm
