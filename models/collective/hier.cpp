// NCCL's hierarchical allreduce phases (hier.h).
#include "collective/hier.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "collective/schedule_detail.h"

namespace ndr::coll {

namespace {

void check_layout(const coll_params& p, const hier_layout& l) {
    if (l.nodes() < 2 || l.gpus() < 2) {
        throw std::invalid_argument(
            fmt::format("hierarchical allreduce: needs 2 or more nodes of 2 or more GPUs, got {} "
                        "nodes of {}",
                        l.nodes(), l.gpus()));
    }
    for (const auto& g : l.groups) {
        if (g.size() != l.gpus()) {
            throw std::invalid_argument("hierarchical allreduce: nodes with different GPU counts");
        }
    }
    if (p.dtype_bytes < 1 || p.bytes % p.dtype_bytes != 0) {
        throw std::invalid_argument("hierarchical allreduce: bytes not whole elements");
    }
}

schedule empty_schedule(const coll_params& p, const hier_layout& l, algo_kind algo) {
    schedule s;
    s.params = p;
    s.params.op = op_kind::allreduce;
    s.params.algo = algo;
    s.params.nranks = l.nranks();
    s.algo = algo;
    s.buffer_bytes = p.bytes;
    return s;
}

}  // namespace

uint32_t hier_layout::nranks() const {
    uint32_t n = 0;
    for (const auto& g : groups) n += static_cast<uint32_t>(g.size());
    return n;
}

schedule build_collnet_intra(algo_kind algo, bool up, const coll_params& p, const hier_layout& l) {
    if (algo != algo_kind::collnet_direct && algo != algo_kind::collnet_chain) {
        throw std::invalid_argument(
            fmt::format("build_collnet_intra: algo {} is not a CollNet one", name(algo)));
    }
    check_layout(p, l);
    schedule s = empty_schedule(p, l, algo);
    const uint32_t g = l.gpus();
    const uint64_t chunk = detail::effective_chunk(p);
    for (const auto& node : l.groups) {
        for (uint32_t r = 0; r < g; ++r) {
            const byte_range b = block_range(p.bytes, p.dtype_bytes, g, r);
            if (b.bytes == 0) continue;
            if (algo == algo_kind::collnet_direct) {
                // Scatter to (up) or gather from (down) head r: one transfer per peer and chunk,
                // all at once.
                for (uint32_t i = 0; i < g; ++i) {
                    if (i == r) continue;
                    for (uint64_t k = 0; k < detail::chunk_count(b.bytes, chunk); ++k) {
                        const byte_range c = detail::chunk_of(b, chunk, k);
                        detail::add_xfer(s, up ? node[i] : node[r], up ? node[r] : node[i], c,
                                         c.offset, up, {});
                    }
                }
                continue;
            }
            // Chain r+1 -> r+2 -> ... -> r (up, reducing) or r -> r-1 -> ... -> r+1 (down).
            std::vector<uint32_t> chain;
            for (uint32_t j = 1; j <= g; ++j) chain.push_back(node[(r + j) % g]);
            if (!up) std::reverse(chain.begin(), chain.end());
            const uint64_t chunks = detail::chunk_count(b.bytes, chunk);
            std::vector<uint32_t> prev(chunks, UINT32_MAX);
            for (uint32_t h = 0; h + 1 < chain.size(); ++h) {
                for (uint64_t k = 0; k < chunks; ++k) {
                    const byte_range c = detail::chunk_of(b, chunk, k);
                    std::vector<uint32_t> deps;
                    if (prev[k] != UINT32_MAX) deps.push_back(prev[k]);
                    prev[k] = detail::add_xfer(s, chain[h], chain[h + 1], c, c.offset, up,
                                               std::move(deps));
                }
            }
        }
    }
    return s;
}

schedule build_rail_trees(const coll_params& p, const hier_layout& l) {
    check_layout(p, l);
    schedule s = empty_schedule(p, l, algo_kind::nvls_tree);
    const uint32_t g = l.gpus();
    for (uint32_t r = 0; r < g; ++r) {
        const byte_range b = block_range(p.bytes, p.dtype_bytes, g, r);
        if (b.bytes == 0) continue;
        coll_params q = p;
        q.op = op_kind::allreduce;
        q.algo = algo_kind::tree;
        q.nranks = l.nodes();
        q.bytes = b.bytes;
        q.root = 0;
        q.channels = 1;
        q.node_groups.clear();
        const schedule t = build_schedule(q);
        const auto base = static_cast<uint32_t>(s.xfers.size());
        for (xfer x : t.xfers) {
            x.src = l.groups[x.src][r];
            x.dst = l.groups[x.dst][r];
            x.src_offset += b.offset;
            x.dst_offset += b.offset;
            for (uint32_t& d : x.deps) d += base;
            s.xfers.push_back(std::move(x));
        }
    }
    return s;
}

nvls_phase_bytes nvls_flows(bool reduce_scatter, uint64_t bytes, uint32_t dtype_bytes,
                            uint32_t gpus, uint32_t gpu) {
    const uint64_t own = block_range(bytes, dtype_bytes, gpus, gpu).bytes;
    return reduce_scatter ? nvls_phase_bytes{bytes, own} : nvls_phase_bytes{own, bytes};
}

}  // namespace ndr::coll
