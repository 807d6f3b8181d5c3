#include "common/xbar_clock.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ndr::common {

xbar_clock::xbar_clock(double speedup, uint32_t ports)
    : in_free_u_(ports, 0), out_free_u_(ports, 0) {
    const uint64_t den = 1000;
    const auto num = static_cast<uint64_t>(std::llround(std::max(speedup, 0.001) * 1000.0));
    const uint64_t g = std::gcd(num, den);
    p_ = num / g;
    q_ = den / g;
}

xbar_clock::transfer xbar_clock::grant(uint64_t t, uint32_t in, uint32_t out, uint32_t beats,
                                       uint64_t hdr_in) {
    transfer x;
    x.t = t;
    x.hdr_in = hdr_in;
    const uint64_t now_u = t * p_;
    const uint64_t free_u = std::max(in_free_u_[in], out_free_u_[out]);
    // A port freed inside the cycle that ends at t carries its fraction; otherwise start at t.
    // (A port still busy after t would start later; the allocators never grant one.)
    x.start_u = free_u + p_ > now_u ? free_u : now_u;
    const uint64_t end_u = x.start_u + uint64_t{beats} * q_;
    const uint64_t exact = ceil_cycles(end_u);
    x.done = std::max({exact, t + 1, hdr_in + beats});
    const uint64_t busy_u = x.done == exact ? end_u : x.done * p_;
    in_free_u_[in] = busy_u;
    out_free_u_[out] = busy_u;
    return x;
}

xbar_clock::transfer xbar_clock::interleave(uint64_t t, uint32_t in, uint32_t out, uint32_t beats,
                                            uint64_t hdr_in) {
    transfer x;
    x.t = t;
    x.hdr_in = hdr_in;
    x.start_u = t * p_;
    const uint64_t cost_u = uint64_t{beats} * q_;
    x.done = std::max({ceil_cycles(x.start_u + cost_u), t + 1, hdr_in + beats});
    in_free_u_[in] = std::max(in_free_u_[in], x.start_u) + cost_u;
    out_free_u_[out] = std::max(out_free_u_[out], x.start_u) + cost_u;
    return x;
}

uint64_t xbar_clock::read_by(const transfer& x, uint32_t beats) const {
    return std::max({ceil_cycles(x.start_u + uint64_t{beats} * q_), x.t + 1, x.hdr_in + beats});
}

uint32_t xbar_clock::cycles(uint32_t beats) const {
    return static_cast<uint32_t>(std::max<uint64_t>(1, ceil_cycles(uint64_t{beats} * q_)));
}

}  // namespace ndr::common
