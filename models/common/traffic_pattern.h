// Synthetic traffic: who sends, to whom, how big and on which SL.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/rng.h"
#include "config/sim_config.h"

namespace ndr::tb {

/// A weighted choice parsed from "v" or "v@w,v@w,...".
struct weighted_choice {
    std::vector<uint32_t> values;
    std::vector<double> cumulative;  ///< normalised, last = 1
    static weighted_choice parse(const std::string& text, const std::string& key);
    std::size_t pick_index(rng& r) const;
    uint32_t pick(rng& r) const { return values[pick_index(r)]; }
    double mean(const std::vector<double>& mapped) const;
};

/// A random derangement of 0..n-1 (no element maps to itself; n >= 2), fixed by `seed`:
/// Fisher-Yates shuffles of the identity until none is a fixed point. traffic.pattern =
/// permutation and `ndrsim gen permutation` (docs/routing.md) both draw it.
std::vector<uint32_t> random_derangement(uint32_t n, uint64_t seed);

class traffic_pattern {
public:
    traffic_pattern(const cfg::config& c, uint32_t ports);
    bool is_source(uint32_t src) const { return source_[src] != 0; }
    uint32_t dest(uint32_t src, rng& r) const {
        if (kind_ != kind::uniform) return dest_other(src, r);
        return uniform_other(src, r);
    }
    const std::string& name() const { return name_; }

private:
    /// Uniform over the ports other than src (one random number).
    uint32_t uniform_other(uint32_t src, rng& r) const {
        const uint32_t d = static_cast<uint32_t>(r.below(ports_ - 1));
        return d >= src ? d + 1 : d;
    }
    uint32_t dest_other(uint32_t src, rng& r) const;
    enum class kind { uniform, permutation, hotspot, incast, bitcomp };
    std::string name_;
    kind kind_;
    uint32_t ports_;
    uint32_t hot_;
    double hot_fraction_;
    std::vector<uint32_t> perm_;
    std::vector<uint8_t> source_;
};

}  // namespace ndr::tb
