// C++ reference of rtl/switch_alloc/ibs_switch_alloc.sv (switch_alloc_check.cpp): the allocation
// rules of the cycle model, models/cycle/ib_switch_alloc.cpp, ib_switch::allocate(), transcribed
// without the VLs, the per-packet eligibility filters (output_grant: staging buffer, credits) and
// the event scheduling, which the RTL block does not have. models/cycle is not linked (the
// checks are SystemC-free).
//   rr_pick            models/common/bits.h lines 20-24
//   iSLIP              ib_switch_alloc.cpp lines 90-117 (grant: output_grant's round-robin visit
//                      from grant_ptr_, lines 31-39; accept: rr_pick from accept_ptr_, line 105;
//                      pointers on first-iteration accepts only, lines 110-113; stop when no
//                      output granted (line 100) or no grant was lost (line 115))
//   input-first RR     ib_switch_alloc.cpp lines 118-139
#pragma once
#include <cstdint>
#include <vector>

namespace ndr::verify {

class switch_alloc_ref {
public:
    switch_alloc_ref(unsigned ports, unsigned iterations)
        : n_(ports), iterations_(iterations), gptr_(ports, 0), aptr_(ports, 0) {}

    /// First set bit of m at or after `from`, wrapping (m != 0).
    static unsigned rr_pick(uint32_t m, unsigned from) {
        const uint32_t hi = from < 32 ? (m & (~uint32_t{0} << from)) : 0;
        return static_cast<unsigned>(__builtin_ctz(hi != 0 ? hi : m));
    }

    /// One allocation. req[i] = outputs requested by input i (bit o). Returns, per input, the
    /// matched output as a one-bit mask (0 = unmatched) and updates the pointers.
    /// `late_matches` counts matches made after the first iteration.
    std::vector<uint32_t> allocate(const std::vector<uint32_t>& req, bool islip,
                                   uint64_t* late_matches = nullptr) {
        std::vector<uint32_t> match(n_, 0);
        uint32_t matched_in = 0;
        uint32_t matched_out = 0;
        if (islip) {
            for (unsigned it = 0; it < iterations_; ++it) {
                std::vector<uint32_t> in_grants(n_, 0);
                uint32_t granted_in = 0;
                for (unsigned o = 0; o < n_; ++o) {
                    if (matched_out & (1U << o)) continue;
                    uint32_t col = 0;
                    for (unsigned i = 0; i < n_; ++i) {
                        if ((req[i] >> o & 1U) && !(matched_in >> i & 1U)) col |= 1U << i;
                    }
                    if (col == 0) continue;
                    const unsigned i = rr_pick(col, gptr_[o]);
                    in_grants[i] |= 1U << o;
                    granted_in |= 1U << i;
                }
                if (granted_in == 0) break;
                bool lost = false;
                for (unsigned i = 0; i < n_; ++i) {
                    const uint32_t m = in_grants[i];
                    if (m == 0) continue;
                    const unsigned o = rr_pick(m, aptr_[i]);
                    lost = lost || (m & ~(1U << o)) != 0;
                    matched_in |= 1U << i;
                    matched_out |= 1U << o;
                    match[i] = 1U << o;
                    if (it == 0) {
                        gptr_[o] = (i + 1) % n_;
                        aptr_[i] = (o + 1) % n_;
                    } else if (late_matches != nullptr) {
                        ++*late_matches;
                    }
                }
                if (!lost) break;
            }
        } else {
            std::vector<uint32_t> picks(n_, 0);
            for (unsigned i = 0; i < n_; ++i) {
                if (req[i] == 0) continue;
                picks[rr_pick(req[i], aptr_[i])] |= 1U << i;
            }
            for (unsigned o = 0; o < n_; ++o) {
                if (picks[o] == 0) continue;
                const unsigned i = rr_pick(picks[o], gptr_[o]);
                match[i] = 1U << o;
                gptr_[o] = (i + 1) % n_;
                aptr_[i] = (o + 1) % n_;
            }
        }
        return match;
    }

    unsigned grant_ptr(unsigned o) const { return gptr_[o]; }
    unsigned accept_ptr(unsigned i) const { return aptr_[i]; }

private:
    unsigned n_;
    unsigned iterations_;
    std::vector<unsigned> gptr_;
    std::vector<unsigned> aptr_;
};

}  // namespace ndr::verify
