// PXN rewrite of a schedule (pxn.h).
#include "collective/pxn.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "collective/schedule_detail.h"

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
    // A relayed transfer i becomes pieces of at most one chunk, each an NVLink hop into the
    // relay's staging range (one after the other: hop k waits for hop k-1's arrival) and the
    // relay's send from there, so the two legs pipeline as NCCL's proxy steps do. Deps on i
    // point at every piece's send (at first[i] + 2k).
    const uint64_t chunk = detail::effective_chunk(s.params);
    std::vector<xfer> out;
    out.reserve(s.xfers.size() + relayed);
    std::vector<uint32_t> first(s.xfers.size(), 0);
    std::vector<uint32_t> pieces(s.xfers.size(), 1);
    std::vector<uint64_t> staged(ranks.size(), 0);  // per rank: staging bytes handed out
    const uint64_t base = s.buffer_bytes;
    uint64_t sends = 0;
    for (size_t i = 0; i < s.xfers.size(); ++i) {
        xfer x = std::move(s.xfers[i]);
        std::vector<uint32_t> deps;
        deps.reserve(x.deps.size());
        for (const uint32_t d : x.deps) {
            const uint32_t step = relay[d] == NONE ? 1 : 2;
            for (uint32_t k = 0; k < pieces[d]; ++k) deps.push_back(first[d] + k * step);
        }
        const uint32_t r = relay[i];
        if (r == NONE) {
            x.deps = std::move(deps);
            first[i] = static_cast<uint32_t>(out.size());
            out.push_back(std::move(x));
            continue;
        }
        const uint64_t np = std::max<uint64_t>(1, detail::chunk_count(x.bytes, chunk));
        pieces[i] = static_cast<uint32_t>(np);
        first[i] = static_cast<uint32_t>(out.size() + 1);
        for (uint64_t k = 0; k < np; ++k) {
            const byte_range piece = x.bytes == 0
                                         ? byte_range{x.src_offset, 0}
                                         : detail::chunk_of({x.src_offset, x.bytes}, chunk, k);
            const uint64_t within = piece.offset - x.src_offset;
            const uint64_t stage = base + staged[r];
            staged[r] += piece.bytes;
            xfer hop;  // over NVLink into the relay's staging range
            hop.src = x.src;
            hop.dst = r;
            hop.bytes = piece.bytes;
            hop.src_offset = piece.offset;
            hop.dst_offset = stage;
            hop.deps = deps;
            if (k != 0) hop.deps.push_back(static_cast<uint32_t>(out.size() - 2));  // in order
            const auto hop_idx = static_cast<uint32_t>(out.size());
            out.push_back(std::move(hop));
            xfer send;  // the relay's HCA to the destination
            send.src = r;
            send.dst = x.dst;
            send.bytes = piece.bytes;
            send.src_offset = stage;
            send.dst_offset = x.dst_offset + within;
            send.reduce = x.reduce;
            send.deps = {hop_idx};
            out.push_back(std::move(send));
            ++sends;
        }
    }
    s.xfers = std::move(out);
    s.buffer_bytes = base + *std::max_element(staged.begin(), staged.end());
    if (highest >= s.params.nranks) {
        s.relay_ranks =
            std::max(s.relay_ranks, static_cast<uint32_t>(ranks.size()) - s.params.nranks);
    }
    return sends;
}

}  // namespace ndr::coll
