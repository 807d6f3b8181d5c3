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
    std::vector<uint64_t> pre;
    for (uint32_t c = 0; c < channels_; ++c) {
        orders_[c] = ring_order(p.node_groups, c);
        base_[c] = next;
        // Every step of a channel sends each block's part once (the block is a bijection of
        // the position), so every level of the chain has the same size.
        prefix(c, 0, pre);
        size_[c] = pre.back();
        next += uint64_t{steps_} * size_[c];
    }
    total_ = next;
}

bool ring_stream::reduces(uint32_t k) const {
    return p_.op == op_kind::reduce_scatter || (p_.op == op_kind::allreduce && k + 1 < p_.nranks);
}

uint32_t ring_stream::block_rank(uint32_t c, uint32_t k, uint32_t q) const {
    const uint32_t n = p_.nranks;
    // The ring (ring.cpp file comment): reduce-scatter step k sends block (q - k - 1) mod n,
    // allgather step k block (q - k) mod n; an allreduce's allgather steps follow its n - 1
    // reduce-scatter steps.
    const uint32_t pos = reduces(k) ? (q + 2 * n - k - 1) % n
                                    : (q + n - (p_.op == op_kind::allreduce ? k - (n - 1) : k)) % n;
    return rank(c, pos);
}

byte_range ring_stream::block(uint32_t c, uint32_t owner) const {
    const byte_range b = block_range(p_.bytes, p_.dtype_bytes, p_.nranks, owner);
    if (channels_ == 1) return b;
    const byte_range part = block_range(b.bytes, p_.dtype_bytes, channels_, c);
    return byte_range{b.offset + part.offset, part.bytes};
}

void ring_stream::prefix(uint32_t c, uint32_t k, std::vector<uint64_t>& out) const {
    const uint32_t n = p_.nranks;
    out.assign(n + 1, 0);
    for (uint32_t q = 0; q < n; ++q) {
        out[q + 1] = out[q] + detail::chunk_count(block(c, block_rank(c, k, q)).bytes, chunk_);
    }
}

void ring_stream::level(uint32_t c, uint32_t k, std::vector<xfer>& out) const {
    const uint32_t n = p_.nranks;
    out.clear();
    out.reserve(size_[c]);
    std::vector<uint64_t> before;  // the level before: where position q's transfers start
    if (k > 0) prefix(c, k - 1, before);
    const uint64_t prev_first = k > 0 ? level_first(c, k - 1) : 0;
    const bool red = reduces(k);
    for (uint32_t q = 0; q < n; ++q) {
        const byte_range b = block(c, block_rank(c, k, q));
        const uint32_t src = rank(c, q);
        const uint32_t dst = rank(c, (q + 1) % n);
        const uint64_t nc = detail::chunk_count(b.bytes, chunk_);
        for (uint64_t i = 0; i < nc; ++i) {
            const byte_range piece = detail::chunk_of(b, chunk_, i);
            xfer x;
            x.src = src;
            x.dst = dst;
            x.bytes = piece.bytes;
            x.src_offset = piece.offset;
            x.dst_offset = piece.offset;
            x.reduce = red;
            // Chunk i of the same block, sent into q by q - 1 one step before.
            if (k > 0)
                x.deps.push_back(static_cast<uint32_t>(prev_first + before[(q + n - 1) % n] + i));
            out.push_back(std::move(x));
        }
    }
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
