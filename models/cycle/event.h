// One scheduled occurrence inside a cycle engine. Small and trivially copyable: the event wheel
// stores millions of them per simulated millisecond.
#pragma once
#include <cstdint>

namespace ndr::cycle {

using cycle_t = uint64_t;

struct event {
    uint8_t kind = 0;   ///< engine-defined meaning
    uint8_t vl = 0;     ///< virtual lane, where it applies
    uint16_t port = 0;  ///< port index inside the engine
    uint32_t pkt = 0;   ///< packet pool index, or an engine-defined value
    uint32_t a = 0;     ///< engine-defined payload (e.g. FCCL)
    uint32_t b = 0;     ///< engine-defined payload (e.g. FCTBS)
};

}  // namespace ndr::cycle
