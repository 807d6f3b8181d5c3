// build_schedule: validation, algorithm choice, dispatch to the builders, plus the two small
// patterns (point-to-point ops and the dissemination barrier).
#include "collective/schedule.h"

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "collective/schedule_detail.h"

namespace ndr::coll {

namespace {

bool is_p2p(op_kind op) {
    return op == op_kind::send || op == op_kind::recv || op == op_kind::rdma_write ||
           op == op_kind::rdma_read;
}

}  // namespace

std::string supported_list(op_kind op) {
    std::string out;
    for (const algo_info& a : ALGORITHMS) {
        if (a.where == algo_class::host && algo_runs(a.kind, op)) {
            if (!out.empty()) out += ", ";
            out += a.name;
        }
    }
    return out;
}

namespace {

/// send/rdma_write: rank 0 -> rank 1; recv/rdma_read: rank 1 -> rank 0 (schedule.h).
void build_direct(const coll_params& p, schedule& s) {
    s.buffer_bytes = p.bytes;
    const bool inbound = p.op == op_kind::recv || p.op == op_kind::rdma_read;
    detail::add_xfer(s, inbound ? 1 : 0, inbound ? 0 : 1, byte_range{0, p.bytes}, 0, false, {});
}

}  // namespace

byte_range block_range(uint64_t total_bytes, uint32_t elem_bytes, uint32_t n, uint32_t i) {
    const uint64_t elems = total_bytes / elem_bytes;
    const uint64_t base = elems / n;
    const uint64_t extra = elems % n;
    const uint64_t first = i * base + (i < extra ? i : extra);
    const uint64_t count = base + (i < extra ? 1 : 0);
    return byte_range{first * elem_bytes, count * elem_bytes};
}

bool algo_supported(op_kind op, algo_kind algo) {
    const algo_info* a = find_algo(algo);
    if (a == nullptr) return false;
    return a->where == algo_class::automatic ||
           (a->where == algo_class::host && algo_runs(algo, op));
}

algo_kind choose_algo(op_kind op, uint64_t bytes, uint32_t nranks, auto_rule rule,
                      uint32_t dtype_bytes) {
    switch (op) {
        case op_kind::allreduce:
            if (rule == auto_rule::mpich) {
                uint64_t pof2 = 1;
                while (pof2 * 2 <= nranks) pof2 *= 2;
                const uint64_t count = bytes / (dtype_bytes == 0 ? 1 : dtype_bytes);
                return bytes <= AUTO_RD_MAX_BYTES || count < pof2 ? algo_kind::rd : algo_kind::rhd;
            }
            return bytes >= AUTO_TREE_MAX_BYTES || nranks <= AUTO_RING_MAX_RANKS ? algo_kind::ring
                                                                                 : algo_kind::tree;
        case op_kind::reduce_scatter:
        case op_kind::allgather:
        case op_kind::broadcast:
        case op_kind::reduce:
            return algo_kind::ring;
        case op_kind::alltoall:
            return rule == auto_rule::nccl ? algo_kind::p2p : algo_kind::pairwise;
        case op_kind::barrier:
            return algo_kind::rhd;
        case op_kind::send:
        case op_kind::recv:
        case op_kind::rdma_write:
        case op_kind::rdma_read:
            return algo_kind::direct;
    }
    return algo_kind::ring;
}

namespace {

/// The parameter checks of build_schedule (schedule.h); throws std::invalid_argument.
void check_params(const coll_params& p) {
    if (p.nranks < 1) {
        throw std::invalid_argument(
            fmt::format("collective {}: nranks must be >= 1, got {}", name(p.op), p.nranks));
    }
    if (p.dtype_bytes < 1) {
        throw std::invalid_argument(
            fmt::format("collective {}: dtype_bytes must be >= 1", name(p.op)));
    }
    const bool p2p = is_p2p(p.op);
    if (!p2p && p.root >= p.nranks) {
        throw std::invalid_argument(fmt::format("collective {}: root {} out of range (nranks {})",
                                                name(p.op), p.root, p.nranks));
    }
    if (p.algo == algo_kind::sharp || p.algo == algo_kind::nvls) {
        throw std::invalid_argument(
            fmt::format("collective {}: algo {} (in-network reduction) is not a host schedule",
                        name(p.op), name(p.algo)));
    }
    if (find_algo(p.algo) != nullptr && find_algo(p.algo)->where == algo_class::hierarchical) {
        throw std::invalid_argument(fmt::format(
            "collective {}: algo {} (hierarchical: phases inside and across the nodes) is not "
            "one host schedule (collective/hier.h)",
            name(p.op), name(p.algo)));
    }
    if (!algo_supported(p.op, p.algo)) {
        throw std::invalid_argument(fmt::format("collective {}: algo {} does not fit (use {})",
                                                name(p.op), name(p.algo), supported_list(p.op)));
    }
    if (p2p && p.nranks != 2) {
        throw std::invalid_argument(fmt::format(
            "{}: point-to-point schedules take nranks 2 (rank 0 local, rank 1 peer), got {}",
            name(p.op), p.nranks));
    }
    if (!p2p && p.op != op_kind::barrier && p.bytes % p.dtype_bytes != 0) {
        throw std::invalid_argument(
            fmt::format("collective {}: bytes {} is not a multiple of dtype_bytes {}", name(p.op),
                        p.bytes, p.dtype_bytes));
    }
    if (p.p2p_channels < 1) {
        throw std::invalid_argument(
            fmt::format("collective {}: p2p_channels must be >= 1", name(p.op)));
    }
    if (p.channels < 1) {
        throw std::invalid_argument(
            fmt::format("collective {}: channels must be >= 1", name(p.op)));
    }
    if (!p.node_groups.empty()) {
        std::vector<bool> seen(p.nranks, false);
        size_t total = 0;
        for (const std::vector<uint32_t>& g : p.node_groups) {
            for (const uint32_t r : g) {
                if (r >= p.nranks || seen[r] || g.empty()) {
                    throw std::invalid_argument(
                        fmt::format("collective {}: node groups do not partition the {} ranks",
                                    name(p.op), p.nranks));
                }
                seen[r] = true;
                ++total;
            }
        }
        if (total != p.nranks) {
            throw std::invalid_argument(fmt::format(
                "collective {}: node groups do not partition the {} ranks", name(p.op), p.nranks));
        }
    }
    if (p.op == op_kind::alltoall && p.bytes % (uint64_t{p.nranks} * p.dtype_bytes) != 0) {
        throw std::invalid_argument(fmt::format(
            "alltoall: bytes {} must be a multiple of nranks {} * dtype_bytes {} (equal blocks)",
            p.bytes, p.nranks, p.dtype_bytes));
    }
}

algo_kind resolved_algo(const coll_params& p) {
    return p.algo == algo_kind::auto_ ? choose_algo(p.op, p.bytes, p.nranks, p.rule, p.dtype_bytes)
                                      : p.algo;
}

/// The transfers the builder of `algo` makes for checked parameters.
uint64_t count_of(const coll_params& p, algo_kind algo) {
    switch (algo) {
        case algo_kind::ring:
            return detail::ring_xfer_count(p);
        case algo_kind::tree:
            return detail::tree_xfer_count(p);
        case algo_kind::rhd:
            return p.op == op_kind::barrier ? detail::dissemination_xfer_count(p)
                                            : detail::rhd_xfer_count(p);
        case algo_kind::rd:
            return detail::rd_xfer_count(p);
        case algo_kind::pat:
            return detail::pat_xfer_count(p);
        case algo_kind::pairwise:
            return detail::pairwise_xfer_count(p);
        case algo_kind::p2p:
            return detail::p2p_xfer_count(p);
        case algo_kind::direct:
            return 1;
        case algo_kind::auto_:
        case algo_kind::sharp:
        case algo_kind::nvls:
        case algo_kind::collnet_direct:
        case algo_kind::collnet_chain:
        case algo_kind::nvls_tree:
            break;  // excluded by check_params / resolved_algo
    }
    return 0;
}

}  // namespace

uint64_t transfer_count(const coll_params& p) {
    check_params(p);
    return count_of(p, resolved_algo(p));
}

void check_schedule(const coll_params& p) {
    // Counted before anything is built: a 2^40-element allreduce used to grow to ~3 GB first.
    const uint64_t count = transfer_count(p);
    if (count > MAX_XFERS) {
        throw schedule_too_large(fmt::format(
            "decomposes into {} transfers, more than the {} a replay holds in memory (about "
            "300 B each): use a larger collective.chunk or a smaller count",
            count == UINT64_MAX ? std::string("over 2^64") : std::to_string(count), MAX_XFERS));
    }
}

schedule build_schedule(const coll_params& p) {
    check_schedule(p);
    schedule s;
    s.params = p;
    s.algo = resolved_algo(p);
    s.xfers.reserve(count_of(p, s.algo));
    switch (s.algo) {
        case algo_kind::ring:
            detail::build_ring(p, s);
            break;
        case algo_kind::tree:
            detail::build_tree(p, s);
            break;
        case algo_kind::rhd:
            if (p.op == op_kind::barrier) {
                detail::build_dissemination(p, s);
            } else {
                detail::build_rhd(p, s);
            }
            break;
        case algo_kind::rd:
            detail::build_rd(p, s);
            break;
        case algo_kind::pat:
            detail::build_pat(p, s);
            break;
        case algo_kind::pairwise:
            detail::build_pairwise(p, s);
            break;
        case algo_kind::p2p:
            detail::build_p2p(p, s);
            break;
        case algo_kind::direct:
            build_direct(p, s);
            break;
        case algo_kind::auto_:
        case algo_kind::sharp:
        case algo_kind::nvls:
        case algo_kind::collnet_direct:
        case algo_kind::collnet_chain:
        case algo_kind::nvls_tree:
            break;  // excluded above
    }
    return s;
}

namespace detail {

uint64_t effective_chunk(const coll_params& p) {
    if (p.chunk_bytes == 0) return std::numeric_limits<uint64_t>::max();
    const uint64_t c = p.chunk_bytes - p.chunk_bytes % p.dtype_bytes;
    return c == 0 ? p.dtype_bytes : c;
}

uint32_t add_xfer(schedule& s, uint32_t src, uint32_t dst, byte_range src_r, uint64_t dst_off,
                  bool reduce, std::vector<uint32_t> deps) {
    xfer x;
    x.src = src;
    x.dst = dst;
    x.bytes = src_r.bytes;
    x.src_offset = src_r.offset;
    x.dst_offset = dst_off;
    x.reduce = reduce;
    x.deps = std::move(deps);
    s.xfers.push_back(std::move(x));  // at most MAX_XFERS: counted up front (build_schedule)
    return static_cast<uint32_t>(s.xfers.size() - 1);
}

/// Dissemination barrier (Hensgen, Finkel, Manber 1988): ceil(log2 n) rounds; in round j rank i
/// sends a 0-byte token to (i + 2^j) mod n. Round j's send waits for the round j-1 token to
/// arrive at i (from i - 2^(j-1)) and for i's own round j-1 send, so the send of round j
/// transitively follows every token rank i received before; once its last-round token has
/// arrived, rank i has (transitively) heard from every other rank.
void build_dissemination(const coll_params& p, schedule& s) {
    const uint32_t n = p.nranks;
    s.buffer_bytes = 0;
    std::vector<uint32_t> prev(n), cur(n);  // round j-1 / j transfer sent by rank i
    bool first = true;
    for (uint64_t dist = 1; dist < n; dist <<= 1) {
        for (uint32_t i = 0; i < n; ++i) {
            std::vector<uint32_t> deps;
            if (!first) {
                const uint64_t from = (i + n - dist / 2) % n;  // sent to i last round
                deps = {prev[from], prev[i]};
            }
            cur[i] = add_xfer(s, i, static_cast<uint32_t>((i + dist) % n), byte_range{0, 0}, 0,
                              false, std::move(deps));
        }
        std::swap(prev, cur);
        first = false;
    }
}

uint64_t dissemination_xfer_count(const coll_params& p) {
    uint64_t rounds = 0;
    for (uint64_t dist = 1; dist < p.nranks; dist <<= 1) ++rounds;
    return rounds * p.nranks;
}

}  // namespace detail

}  // namespace ndr::coll
