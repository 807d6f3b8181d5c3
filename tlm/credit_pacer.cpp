#include "credit_pacer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ndr::tlmm {

namespace {
constexpr uint32_t CHUNK = 16;  ///< blocks a switch frees at once as the crossbar reads

/// line_rate is a pure function of the loop and the packet size, and every port of a fabric
/// has one of a few loops: the answer is worked out once per process, not once per port (on
/// a 64-host fabric that replay was a quarter of a small run's instructions).
using loop_key = std::tuple<uint32_t, uint32_t, uint32_t, bool, uint32_t, bool, double, uint32_t,
                            uint32_t, uint32_t, uint32_t>;
std::map<loop_key, bool>& line_rate_memo() {
    static std::map<loop_key, bool> memo;
    return memo;
}
}  // namespace

void credit_pacer::push_returns(uint64_t s, uint32_t blocks, uint32_t beats) {
    const uint64_t hdr = s + loop_.link_cycles;
    const uint64_t fc = loop_.fc_proc + loop_.link_cycles;
    if (!loop_.to_switch) {
        back_.push_back({hdr + beats + loop_.rx_proc + fc, blocks});
        return;
    }
    // As ib_switch_tlm::commit at zero load: granted when eligible, 1 KiB chunks freed as read.
    const uint64_t elig = hdr + loop_.elig_cycles + (loop_.cut_through ? 0 : beats - 1U);
    uint32_t freed = 0;
    for (uint32_t end = CHUNK; end < blocks; end += CHUNK) {
        const uint32_t eb =
            std::min<uint32_t>(beats, (end * 64 + loop_.block_bytes - 1) / loop_.block_bytes);
        back_.push_back({std::max(elig + xbar(eb), hdr + eb) + fc, CHUNK});
        freed += CHUNK;
    }
    back_.push_back({std::max(elig + xbar(beats), hdr + beats) + fc, blocks - freed});
}

uint64_t credit_pacer::send(uint64_t at, uint32_t blocks, uint32_t beats) {
    uint64_t s = at;
    while (!back_.empty() && (back_.front().first <= s || avail_ < blocks)) {
        s = std::max(s, back_.front().first);
        avail_ += back_.front().second;
        back_.pop_front();
    }
    avail_ -= blocks;
    push_returns(s, blocks, beats);
    return s;
}

void credit_pacer::record(uint64_t at, uint32_t blocks, uint32_t beats) {
    while (!back_.empty() && back_.front().first <= at) {
        avail_ += back_.front().second;
        back_.pop_front();
    }
    avail_ -= blocks;
    push_returns(at, blocks, beats);
}

bool credit_pacer::line_rate_of(uint32_t blocks, uint32_t beats) const {
    const loop_key lk{loop_.capacity,
                      loop_.link_cycles,
                      loop_.fc_proc,
                      loop_.to_switch,
                      loop_.elig_cycles,
                      loop_.cut_through,
                      loop_.speedup,
                      loop_.block_bytes,
                      loop_.rx_proc,
                      blocks,
                      beats};
    const auto known = line_rate_memo().find(lk);
    if (known != line_rate_memo().end()) return known->second;
    // Back-to-back packets on an empty loop for a few round trips: the returns then repeat with
    // the same offsets, so no wait here means none ever.
    const uint64_t loop = 2ULL * loop_.link_cycles + loop_.fc_proc + loop_.elig_cycles +
                          2ULL * beats + loop_.rx_proc + 16;
    const uint64_t n = 4 * (loop / beats + 2);
    credit_pacer p(loop_);
    bool ok = true;
    for (uint64_t j = 0; j < n && ok; ++j) ok = p.send(j * beats, blocks, beats) == j * beats;
    line_rate_memo().emplace(lk, ok);
    return ok;
}

}  // namespace ndr::tlmm
