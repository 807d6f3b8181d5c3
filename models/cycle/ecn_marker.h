// RED-like ECN marking on egress queue depth (DCQCN's switch side, Zhu et al. SIGCOMM 2015):
// below Kmin nothing is marked, above Kmax everything, in between with a probability rising
// linearly from 0 to Pmax. Deterministic: a per-switch splitmix64 stream seeded from sim.seed.
#pragma once
#include <cstdint>

#include "config/sim_config.h"

namespace ndr::cycle {

class ecn_marker {
public:
    ecn_marker(const cfg::ecn_config& c, uint64_t seed)
        : enabled_(c.enabled),
          kmin_(c.kmin.count),
          kmax_(c.kmax.count),
          pmax_(c.pmax),
          state_(seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL) {}
    /// Marking probability at a queue depth of `bytes`.
    double probability(uint64_t bytes) const {
        if (!enabled_ || bytes < kmin_) return 0.0;
        if (bytes >= kmax_) return 1.0;
        return pmax_ * static_cast<double>(bytes - kmin_) / static_cast<double>(kmax_ - kmin_);
    }
    /// Draws whether a packet leaving a queue of `bytes` is marked CE.
    bool mark(uint64_t bytes) {
        const double p = probability(bytes);
        if (p <= 0.0) return false;
        if (p >= 1.0) return true;
        return static_cast<double>(next() >> 11) * 0x1.0p-53 < p;
    }

private:
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    bool enabled_;
    uint64_t kmin_;
    uint64_t kmax_;
    double pmax_;
    uint64_t state_;
};

}  // namespace ndr::cycle
