// Deterministic per-stream random numbers: xoshiro256** seeded through splitmix64, so every
// endpoint has its own stream and results do not depend on event order across endpoints.
#pragma once
#include <cmath>
#include <cstdint>

namespace ndr::tb {

class rng {
public:
    rng(uint64_t seed, uint64_t stream) {
        uint64_t x = seed ^ (stream * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL);
        for (uint64_t& w : s_) w = splitmix(x);
    }
    uint64_t next() {
        const uint64_t r = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return r;
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform integer in [0, n).
    uint64_t below(uint64_t n) {
        __extension__ using u128 = unsigned __int128;
        return static_cast<uint64_t>((static_cast<u128>(next()) * n) >> 64);
    }
    /// Cycles until the next success of a Bernoulli(p) trial per cycle (>= 1), given
    /// inv_log_q = 1 / ln(1 - p) (precomputed; 0 when p >= 1).
    uint64_t geometric_gap(double inv_log_q) {
        if (inv_log_q == 0.0) return 1;
        const double u = 1.0 - uniform();  // (0, 1]
        return 1 + static_cast<uint64_t>(std::log(u) * inv_log_q);
    }
    static double inv_log_q(double p) { return p >= 1.0 ? 0.0 : 1.0 / std::log1p(-p); }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix(uint64_t& x) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    uint64_t s_[4];
};

}  // namespace ndr::tb
