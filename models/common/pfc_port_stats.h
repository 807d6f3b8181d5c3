// Priority flow control statistics of one (port, priority) of a device (fabric.technology =
// roce, docs/roce.md): kept by the cycle-level PFC state (models/cycle/pfc.h) and reported in
// common::switch_stats and by the HCAs. SystemC-free.
#pragma once
#include <cstdint>

namespace ndr::common {

struct pfc_port_stats {
    uint64_t pause_sent = 0;      ///< XOFF frames sent to the link partner
    uint64_t resume_sent = 0;     ///< XON frames sent
    uint64_t pause_received = 0;  ///< XOFF frames received (this port's egress paused)
    uint64_t resume_received = 0;
    uint64_t paused_cycles = 0;  ///< cycles this port's egress priority was paused
};

}  // namespace ndr::common
