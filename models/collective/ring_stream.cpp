#include "collective/ring_stream.h"

#include <fmt/format.h>

#include <algorithm>

#include "collective/schedule_detail.h"

namespace ndr::coll {

bool ring_stream::applies(const coll_params& p) {
    if (p.op != op_kind::allreduce && p.op != op_kind::reduce_scatter &&
        p.op != op_kind::allgather) {
        return false;
    }
    const algo_kind a = p.algo == algo_kind::auto_
                            ? choose_algo(p.op, p.bytes, p.nranks, p.rule, p.dtype_bytes)
                            : p.algo;
    return a == algo_kind::ring;
}

void ring_stream::check(const coll_params& p) {
    const uint64_t count = transfer_count(p);  // throws std::invalid_argument as build_schedule
    if (count > MAX_STREAMED_XFERS) {
        throw schedule_too_large(fmt::format(
            "decomposes into {} transfers, more than the {} a replay can index: use a larger "
            "collective.chunk or a smaller count",
            count == UINT64_MAX ? std::string("over 2^64") : std::to_string(count),
            MAX_STREAMED_XFERS));
    }
}

ring_stream::ring_stream(const coll_params& p)
    : p_(p),
      chunk_(detail::effective_chunk(p)),
      steps_(p.op == op_kind::allreduce ? 2 * (p.nranks - 1) : p.nranks - 1),
      channels_(ring_channels(p)) {
    p_.algo = algo_kind::ring;
    orders_.resize(channels_);
    base_.resize(channels_);
    size_.resize(channels_);
    uint64_t next = 0;
    pos_block_.resize(channels_);
    cum_.resize(channels_);
    sparse_.resize(channels_);
    const uint32_t n = p.nranks;
    for (uint32_t c = 0; c < channels_; ++c) {
        orders_[c] = ring_order(p.node_groups, c);
        base_[c] = next;
        // Per ring position: the block of the rank there, and the running count of chunks.
        pos_block_[c].resize(n);
        cum_[c].assign(n + 1, 0);
        for (uint32_t q = 0; q < n; ++q) {
            pos_block_[c][q] = block(c, rank(c, q));
            cum_[c][q + 1] = cum_[c][q] + detail::chunk_count(pos_block_[c][q].bytes, chunk_);
        }
        // Every step of a channel sends each block's part once (the block is a bijection of
        // the position), so every level of the chain has the same size.
        size_[c] = cum_[c][n];
        // Positions whose block has transfers, if few (small messages: most blocks are empty).
        std::vector<uint32_t> busy;
        for (uint32_t q = 0; q < n && busy.size() <= n / 4; ++q) {
            if (cum_[c][q + 1] != cum_[c][q]) busy.push_back(q);
        }
        if (busy.size() <= n / 4) sparse_[c] = std::move(busy);
        next += uint64_t{steps_} * size_[c];
    }
    total_ = next;
}

bool ring_stream::reduces(uint32_t k) const {
    return p_.op == op_kind::reduce_scatter || (p_.op == op_kind::allreduce && k + 1 < p_.nranks);
}

uint32_t ring_stream::shift(uint32_t k) const {
    const uint32_t n = p_.nranks;
    // The ring (ring.cpp file comment): reduce-scatter step k sends block (q - k - 1) mod n,
    // allgather step k block (q - k) mod n; an allreduce's allgather steps follow its n - 1
    // reduce-scatter steps. Position q sends the block of the rank at position (q + shift) mod n.
    if (reduces(k)) return (2 * n - k - 1) % n;
    return (n - (p_.op == op_kind::allreduce ? k - (n - 1) : k)) % n;
}

uint64_t ring_stream::first_of(uint32_t c, uint32_t s, uint32_t q) const {
    // Chunks sent by positions 0 .. q-1 at a level of shift s: the blocks of positions s .. s+q-1
    // (mod n).
    const uint32_t n = p_.nranks;
    const std::vector<uint64_t>& cum = cum_[c];
    return s + q <= n ? cum[s + q] - cum[s] : cum[n] - cum[s] + cum[s + q - n];
}

byte_range ring_stream::block(uint32_t c, uint32_t owner) const {
    const byte_range b = block_range(p_.bytes, p_.dtype_bytes, p_.nranks, owner);
    if (channels_ == 1) return b;
    const byte_range part = block_range(b.bytes, p_.dtype_bytes, channels_, c);
    return byte_range{b.offset + part.offset, part.bytes};
}

void ring_stream::level(uint32_t c, uint32_t k, std::vector<xfer>& out) const {
    const uint32_t n = p_.nranks;
    // The transfers overwrite out's own, keeping their deps' storage (a replay hands back the
    // vector of a level it dropped).
    out.reserve(size_[c]);
    std::size_t used = 0;
    const uint32_t s = shift(k);
    const uint32_t before = k > 0 ? shift(k - 1) : 0;  // the level before
    const uint64_t prev_first = k > 0 ? level_first(c, k - 1) : 0;
    const bool red = reduces(k);
    // With few busy blocks only their senders: q = (busy position - s) mod n, in index order.
    std::vector<uint32_t> senders;
    if (!sparse_[c].empty() || size_[c] == 0) {
        senders.reserve(sparse_[c].size());
        for (const uint32_t p : sparse_[c]) senders.push_back((p + n - s) % n);
        std::sort(senders.begin(), senders.end());
    }
    const bool all = senders.empty() && size_[c] != 0;
    const std::size_t m = all ? n : senders.size();
    for (std::size_t j = 0; j < m; ++j) {
        const uint32_t q = all ? static_cast<uint32_t>(j) : senders[j];
        const byte_range b = pos_block_[c][(q + s) % n];
        const uint32_t src = rank(c, q);
        const uint32_t dst = rank(c, (q + 1) % n);
        const uint64_t nc = detail::chunk_count(b.bytes, chunk_);
        // Chunk i of the same block, sent into q by q - 1 one step before.
        const uint64_t dep0 = k > 0 ? prev_first + first_of(c, before, (q + n - 1) % n) : 0;
        for (uint64_t i = 0; i < nc; ++i) {
            const byte_range piece = detail::chunk_of(b, chunk_, i);
            if (used == out.size()) out.emplace_back();
            xfer& x = out[used++];
            x.src = src;
            x.dst = dst;
            x.bytes = piece.bytes;
            x.src_offset = piece.offset;
            x.dst_offset = piece.offset;
            x.reduce = red;
            x.deps.clear();
            if (k > 0) x.deps.push_back(static_cast<uint32_t>(dep0 + i));
        }
    }
    out.resize(used);
}

ring_stream::place ring_stream::locate(uint64_t x) const {
    // The last chain starting at or before x (a chain of no transfers shares its start with
    // the next).
    const auto it = std::upper_bound(base_.begin(), base_.end(), x);
    const auto c = static_cast<uint32_t>(it - base_.begin() - 1);
    const uint64_t rel = x - base_[c];
    return place{c, static_cast<uint32_t>(rel / size_[c]), rel % size_[c]};
}

std::vector<uint64_t> ring_stream::events_per_rank() const {
    const uint32_t n = p_.nranks;
    std::vector<uint64_t> ev(n, 0);
    const bool rs = p_.op != op_kind::allgather;
    const bool ag = p_.op != op_kind::reduce_scatter;
    for (uint32_t c = 0; c < channels_; ++c) {
        // Over n - 1 reduce-scatter steps position q sends every block but its own (rank(q)'s)
        // to q + 1; over n - 1 allgather steps every block but rank(q + 1)'s.
        for (uint32_t q = 0; q < n; ++q) {
            const uint32_t me = rank(c, q);
            const uint32_t next = rank(c, (q + 1) % n);
            uint64_t sent = 0;
            if (rs) sent += size_[c] - detail::chunk_count(block(c, me).bytes, chunk_);
            if (ag) sent += size_[c] - detail::chunk_count(block(c, next).bytes, chunk_);
            ev[me] += sent;    // its ACKs
            ev[next] += sent;  // their arrivals
        }
    }
    return ev;
}

}  // namespace ndr::coll
