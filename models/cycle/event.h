// One scheduled occurrence inside a cycle engine. 12 bytes and trivially copyable: the event
// queues hold hundreds of thousands of them at full load, so size is speed.
#pragma once
#include <cstdint>

#include "common/cycles.h"

namespace ndr::cycle {

using cycle_t = common::cycle_t;  ///< the cycle engines count in the common time unit

struct event {
    uint8_t kind = 0;   ///< engine-defined meaning
    uint8_t vl = 0;     ///< virtual lane, where it applies
    uint16_t port = 0;  ///< port index inside the engine
    uint32_t pkt = 0;   ///< packet pool index, or an engine-defined value
    uint16_t a = 0;     ///< engine-defined payload (e.g. FCCL, 12 bits)
    uint16_t b = 0;     ///< engine-defined payload (e.g. a block count)

    constexpr event() = default;
    /// a and b must fit 16 bits (FCCL/FCTBS are 12-bit, block counts <= 2048, ports < 256).
    constexpr event(uint8_t kind_, uint8_t vl_, uint16_t port_, uint32_t pkt_, uint32_t a_,
                    uint32_t b_)
        : kind(kind_),
          vl(vl_),
          port(port_),
          pkt(pkt_),
          a(static_cast<uint16_t>(a_)),
          b(static_cast<uint16_t>(b_)) {}
};
static_assert(sizeof(event) == 12, "event must stay 12 bytes");

}  // namespace ndr::cycle
