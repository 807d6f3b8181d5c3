// What an HCA tells the software above it (the host-side collective engine): completions and
// timers. Called from inside the HCA engine's cycle, so a host may post new work right away.
#pragma once
#include <cstdint>

#include "common/cycles.h"

namespace ndr::common {

class hca_host {
public:
    virtual ~hca_host() = default;
    /// All data of message `msg` (posted by post_*) is placed at its destination host `dst`
    /// and the completion is visible there (RDMA WRITE with immediate / SEND: receive CQE;
    /// RDMA READ: the read data is at the requester, which is `dst` here).
    virtual void on_delivered(cycle_t t, uint32_t dst, uint64_t msg_tag) = 0;
    /// The sender of message `msg` has its send completion (every packet acknowledged).
    virtual void on_send_complete(cycle_t t, uint32_t src, uint64_t msg_tag) = 0;
    /// A timer set with hca_array::set_timer fired.
    virtual void on_timer(cycle_t t, uint64_t token) = 0;
    /// A SHARP result chunk reached host `h` (after hca.rx_latency). `data` is a payload slot
    /// (data-carrying mode) owned by the receiver from now on, or 0xFFFFFFFF.
    virtual void on_sharp_result(cycle_t t, uint32_t h, uint32_t tree, uint32_t chunk,
                                 uint32_t data) {
        (void)t, (void)h, (void)tree, (void)chunk, (void)data;
    }
    /// TLM SHARP bursts (sim.tlm_sharp_burst): the first chunk of result burst `chunk` reached
    /// host `h` (its first packet's tail after hca.rx_latency), ahead of on_sharp_result at the
    /// burst's tail; the rest of the burst follows packet by packet.
    virtual void on_sharp_first(cycle_t t, uint32_t h, uint32_t tree, uint32_t chunk) {
        (void)t, (void)h, (void)tree, (void)chunk;
    }
};

}  // namespace ndr::common
