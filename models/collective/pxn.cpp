// PXN rewrite of a schedule (pxn.h).
#include "collective/pxn.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace ndr::coll {

namespace {

constexpr uint32_t NONE = UINT32_MAX;

/// The relay of a transfer src -> dst, or NONE when it needs none or has none.
uint32_t relay_of(const std::vector<pxn_rank>& ranks, uint32_t src, uint32_t dst) {
    const pxn_rank& a = ranks[src];
    const pxn_rank& b = ranks[dst];
    if (a.node == b.node || a.rail == b.rail) return NONE;
    for (uint32_t r = 0; r < ranks.size(); ++r) {
        if (ranks[r].node == a.node && ranks[r].rail == b.rail) return r;
    }
    return NONE;
}

}  // namespace

uint64_t apply_pxn(schedule& s, const std::vector<pxn_rank>& ranks) {
    const uint32_t n = s.params.nranks + s.relay_ranks;
    if (ranks.size() < n) {
        throw std::invalid_argument(
            fmt::format("pxn: {} rank positions for a schedule of {} ranks", ranks.size(), n));
    }
    std::vector<uint32_t> relay(s.xfers.size(), NONE);
    uint64_t relayed = 0;
    uint32_t highest = 0;
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        const xfer& x = s.xfers[i];
        if (x.src == x.dst) continue;
        relay[i] = relay_of(ranks, x.src, x.dst);
        if (relay[i] == NONE) continue;
        ++relayed;
        highest = std::max(highest, relay[i]);
    }
    if (relayed == 0) return 0;
    // New indices: a relayed transfer i becomes (hop, send); deps on i point at the send.
    std::vector<xfer> out;
    out.reserve(s.xfers.size() + relayed);
    std::vector<uint32_t> now(s.xfers.size(), 0);
    std::vector<uint64_t> staged(ranks.size(), 0);  // per rank: staging bytes handed out
    const uint64_t base = s.buffer_bytes;
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        xfer x = std::move(s.xfers[i]);
        for (uint32_t& d : x.deps) d = now[d];
        const uint32_t r = relay[i];
        if (r == NONE) {
            now[i] = static_cast<uint32_t>(out.size());
            out.push_back(std::move(x));
            continue;
        }
        const uint64_t stage = base + staged[r];
        staged[r] += x.bytes;
        xfer hop;  // over NVLink into the relay's staging range
        hop.src = x.src;
        hop.dst = r;
        hop.bytes = x.bytes;
        hop.src_offset = x.src_offset;
        hop.dst_offset = stage;
        hop.deps = std::move(x.deps);
        const auto hop_idx = static_cast<uint32_t>(out.size());
        out.push_back(std::move(hop));
        x.src = r;
        x.src_offset = stage;
        x.deps = {hop_idx};
        now[i] = static_cast<uint32_t>(out.size());
        out.push_back(std::move(x));
    }
    s.xfers = std::move(out);
    s.buffer_bytes = base + *std::max_element(staged.begin(), staged.end());
    if (highest >= s.params.nranks) {
        s.relay_ranks =
            std::max(s.relay_ranks, static_cast<uint32_t>(ranks.size()) - s.params.nranks);
    }
    return relayed;
}

}  // namespace ndr::coll
