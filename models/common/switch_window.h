// Closing a switch's measurement window, for the cycle-level switch (ib_switch) and the TLM
// switch (tlm/ib_switch_tlm) alike, into their common::switch_stats. SystemC-free.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/credit_stalls.h"
#include "common/cycles.h"
#include "common/occupancy_stat.h"
#include "common/switch_stats.h"

namespace ndr::common {

/// At cycle t, closes the window opened at win_start: the credit stalls still running are
/// counted up to t and restart there (credit_stalls::close_window); every input
/// buffer's occupancy statistic (occ(port, vl)) is closed, and per VL the maximum over ports
/// and the mean over ports and time go to stats.buffer[vl].
template <class Occ>
void close_switch_window(cycle_t t, cycle_t win_start, uint32_t ports, uint32_t vls,
                         credit_stalls& stalls, Occ&& occ, switch_stats& stats) {
    stalls.close_window(
        t, [&](uint32_t, uint32_t vl, cycle_t c) { stats.credit_stall_cycles[vl] += c; });
    for (uint32_t vl = 0; vl < vls; ++vl) {
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
