// Closing a switch's measurement window, for the cycle-level switch (ib_switch) and the TLM
// switch (tlm/ib_switch_tlm) alike, into their common::switch_stats. SystemC-free.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/bits.h"
#include "common/cycles.h"
#include "common/occupancy_stat.h"
#include "common/switch_stats.h"

namespace ndr::common {

/// At cycle t, closes the window opened at win_start: the credit stalls still running
/// (stalled[vl]: bitmask of outputs) are counted up to t and restart there; every input
/// buffer's occupancy statistic (occ(port, vl)) is closed, and per VL the maximum over ports
/// and the mean over ports and time go to stats.buffer[vl].
template <class Occ>
void close_switch_window(cycle_t t, cycle_t win_start, uint32_t ports, uint32_t vls,
                         const std::vector<uint64_t>& stalled, std::vector<uint64_t>& stall_since,
                         Occ&& occ, switch_stats& stats) {
    for (uint32_t vl = 0; vl < vls; ++vl) {
        for_each_bit(stalled[vl], [&](uint32_t o) {
            stats.credit_stall_cycles[vl] += t - stall_since[o * vls + vl];
            stall_since[o * vls + vl] = t;
        });
        uint32_t mx = 0;
        double sum = 0.0;
        for (uint32_t p = 0; p < ports; ++p) {
            occupancy_stat& o = occ(p, vl);
            o.close(t, win_start);
            mx = std::max(mx, o.max());
            sum += o.mean();
        }
        stats.buffer[vl].max_blocks = mx;
        stats.buffer[vl].mean_blocks = sum / ports;
    }
}

}  // namespace ndr::common
