// Observation hook on one link: a cycle model calls on_packet() when a packet's first beat
// starts on a tapped output link (switch output port, HCA transmit). Used by `ndrsim run --pcap`
// (testbench/link_capture.h). Zero cost when unused: the models hold a per-port table of tap
// pointers that stays empty unless set_tap() is called, so the hot path pays one compare.
#pragma once

#include "cycle/event.h"

namespace ndr::cycle {

struct packet;

class link_tap {
public:
    virtual ~link_tap() = default;
    /// `p` starts on the link at cycle `start` (its first beat), with the fields it carries on
    /// that link (p.vl is the link's VL). `p` is only valid during the call: copy what you need.
    /// Must not call back into the model.
    virtual void on_packet(cycle_t start, const packet& p) = 0;
};

}  // namespace ndr::cycle
