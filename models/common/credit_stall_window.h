// Credit-stall accounting at the edges of the measurement window, shared by the cycle-level and
// TLM traffic endpoints: a source VL that is stalled (waiting, link idle, no credits) when the
// window opens starts counting from the opening; one still stalled when it closes adds the time
// up to the close. Endpoints: a vector of objects with a `stalled` VL bit mask.
#pragma once
#include <cstdint>
#include <vector>

namespace ndr::tb {

/// The window opens at `now`: stalls in progress count from here.
template <class Endpoints>
void credit_stall_window_open(const Endpoints& eps, uint32_t vls, uint64_t now,
                              std::vector<uint64_t>& stall_since) {
    for (uint32_t ep = 0; ep < eps.size(); ++ep) {
        for (uint32_t vl = 0; vl < vls; ++vl) {
            if (eps[ep].stalled & (1U << vl)) stall_since[ep * vls + vl] = now;
        }
    }
}

/// The window closes at `now`: stalls in progress add their time so far.
template <class Endpoints>
void credit_stall_window_close(const Endpoints& eps, uint32_t vls, uint64_t now,
                               const std::vector<uint64_t>& stall_since,
                               std::vector<uint64_t>& stall_cycles) {
    for (uint32_t ep = 0; ep < eps.size(); ++ep) {
        for (uint32_t vl = 0; vl < vls; ++vl) {
            if (eps[ep].stalled & (1U << vl)) stall_cycles[vl] += now - stall_since[ep * vls + vl];
        }
    }
}

}  // namespace ndr::tb
