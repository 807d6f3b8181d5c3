#include "golden/ar_select.h"

namespace ndr::golden {

namespace {

/// Rule 3 among c[0..n) (n > 0); `lft` (may be null) wins a tie it is part of.
uint8_t least_loaded(const ar_candidate* lft, const ar_candidate* c, std::size_t n,
                     uint32_t need_blocks, uint64_t tie) {
    bool any_fits = false;
    for (std::size_t i = 0; i < n; ++i) any_fits = any_fits || c[i].free_credits >= need_blocks;
    // 3. least queued, then most credits, among the ports that fit (all if none does).
    const auto eligible = [&](const ar_candidate& a) {
        return !any_fits || a.free_credits >= need_blocks;
    };
    // Load = blocks queued here + blocks held downstream (credits in use): with equal credit
    // limits across the group, least (queued - free credits) is least load.
    const auto load = [](const ar_candidate& a) {
        return int64_t{a.queued_blocks} - int64_t{a.free_credits};
    };
    const auto better = [&](const ar_candidate& a, const ar_candidate& b) {
        return load(a) < load(b);
    };
    const ar_candidate* best = nullptr;
    for (std::size_t i = 0; i < n; ++i) {
        if (eligible(c[i]) && (best == nullptr || better(c[i], *best))) best = &c[i];
    }
    const auto tied = [&](const ar_candidate& a) {
        return eligible(a) && !better(a, *best) && !better(*best, a);
    };
    if (lft != nullptr && tied(*lft)) return lft->port;
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i) count += tied(c[i]) ? 1 : 0;
    std::size_t k = static_cast<std::size_t>(tie % count);
    for (std::size_t i = 0; i < n; ++i) {
        if (!tied(c[i])) continue;
        if (k == 0) return c[i].port;
        --k;
    }
    return best->port;  // not reached: k < count
}

}  // namespace

uint8_t ar_choose(uint8_t lft_port, const ar_candidate* c, std::size_t n, uint32_t need_blocks,
                  uint32_t threshold_blocks, uint64_t tie) {
    const ar_candidate* lft = nullptr;
    for (std::size_t i = 0; i < n; ++i) {
        if (c[i].port == lft_port) lft = &c[i];
    }
    if (lft == nullptr) return lft_port;  // 1. a down route (single path)
    if (lft->queued_blocks <= threshold_blocks && lft->free_credits >= need_blocks) {
        return lft_port;  // 2. a quiet LFT port
    }
    return least_loaded(lft, c, n, need_blocks, tie);  // 3.
}

uint8_t ar_choose_alternative(uint8_t lft_port, const ar_candidate* c, std::size_t n,
                              uint32_t need_blocks, uint64_t tie) {
    if (n == 0) return lft_port;
    return least_loaded(nullptr, c, n, need_blocks, tie);
}

uint64_t ar_tie_draw(uint64_t seed, uint32_t sw, uint64_t decision) {
    // SplitMix64 (Steele, Lea & Flood 2014): one step from state x; x spreads the seed so that
    // nearby seeds do not give shifted copies of one sequence.
    const uint64_t x = seed * 0xBF58476D1CE4E5B9ULL + (uint64_t{sw} << 40) + decision;
    uint64_t z = x + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

}  // namespace ndr::golden
