// Tree algorithms.
//
// allreduce  NCCL's double binary tree (btree_node / dtree_node below; Sanders, Speck, Träff
//            2009; docs/domain.md §9). The buffer is cut in two halves on element boundaries
//            (block_range(S, e, 2, t)); tree t carries half t. Each half is cut into chunks.
//            Up: a non-root node sends chunk c to its parent (reduce) once chunk c has arrived
//            from all its children. Down: the root sends chunk c (copy) to its children once
//            it has reduced chunk c from its children; any other node forwards chunk c to its
//            children once it has arrived from its parent. Chunk c of tree 0 and of tree 1
//            are listed together, so both trees advance side by side. Every tree edge carries
//            its half once up and once down; for even n each rank is interior in one tree only,
//            so a rank sends at most S/2 up per tree plus S/2 to each of two children in one
//            tree: 2S in all, like the ring's 2(n-1)/n * S, in about 2 log2 n steps.
//            With node_groups (multi-GPU nodes) the trees are NCCL's: a double binary tree over
//            the nodes and a chain inside each node (node_tree_shape), on ring_channels(p)
//            channels whose chains start at different GPUs, so the trees' inter-node hops
//            spread over the rails.
// broadcast  binomial tree over virtual ranks v = (r - root) mod n (MPICH): the parent of v is
// reduce     v with its lowest set bit cleared; v's children are v + 2^k for every 2^k below
//            v's lowest set bit (any k for the root) with v + 2^k < n, largest subtree first.
//            ceil(log2 n) levels; pipelined by chunks: a node forwards chunk c down once it
//            has arrived (broadcast), or sends it up once all its children's chunk c has
//            arrived (reduce, reduce at every node). The root sends each chunk up to
//            ceil(log2 n) times: latency-optimal, not bandwidth-optimal (use ring for large S).
#include <vector>

#include "collective/schedule_detail.h"

namespace ndr::coll {

tree_node btree_node(uint32_t n, uint32_t rank) {
    tree_node t;
    if (n <= 1 || rank >= n) return t;
    uint64_t bit = 1;
    while (bit < n && (bit & rank) == 0) bit <<= 1;
    if (rank == 0) {
        t.child0 = static_cast<int32_t>(bit >> 1);  // the root's only child
        return t;
    }
    uint64_t up = (rank ^ bit) | (bit << 1);
    if (up >= n) up = rank ^ bit;
    t.parent = static_cast<int32_t>(up);
    const uint64_t lowbit = bit >> 1;
    if (lowbit != 0) {
        t.child0 = static_cast<int32_t>(rank - lowbit);
        uint64_t l = lowbit;
        while (l != 0 && rank + l >= n) l >>= 1;
        if (l != 0) t.child1 = static_cast<int32_t>(rank + l);
    }
    return t;
}

tree_node dtree_node(uint32_t n, uint32_t rank, int tree) {
    if (tree == 0 || n <= 1 || rank >= n) return btree_node(n, rank);
    const bool shift = n % 2 == 1;
    const uint32_t virt = shift ? (rank + n - 1) % n : n - 1 - rank;
    tree_node t = btree_node(n, virt);
    auto map = [&](int32_t x) -> int32_t {
        if (x < 0) return -1;
        const auto u = static_cast<uint32_t>(x);
        return static_cast<int32_t>(shift ? (u + 1) % n : n - 1 - u);
    };
    return tree_node{map(t.parent), map(t.child0), map(t.child1)};
}

namespace detail {

namespace {

/// A rooted tree over ranks 0..n-1 with a top-down (BFS) order.
struct tree_shape {
    uint32_t root = 0;
    std::vector<int32_t> parent;
    std::vector<std::vector<uint32_t>> children;  ///< in sending order
    std::vector<uint32_t> bfs;                    ///< root first, parents before children

    explicit tree_shape(uint32_t n) : parent(n, -1), children(n) {}

    void finish() {
        bfs.clear();
        bfs.push_back(root);
        for (size_t i = 0; i < bfs.size(); ++i) {
            for (uint32_t c : children[bfs[i]]) bfs.push_back(c);
        }
    }
};

tree_shape dtree_shape(uint32_t n, int t) {
    tree_shape sh(n);
    for (uint32_t r = 0; r < n; ++r) {
        const tree_node nd = dtree_node(n, r, t);
        sh.parent[r] = nd.parent;
        if (nd.parent < 0) sh.root = r;
        for (int32_t c : {nd.child0, nd.child1}) {
            if (c >= 0) sh.children[r].push_back(static_cast<uint32_t>(c));
        }
    }
    sh.finish();
    return sh;
}

tree_shape binomial_shape(uint32_t n, uint32_t root) {
    tree_shape sh(n);
    sh.root = root;
    for (uint32_t v = 0; v < n; ++v) {
        const uint32_t real = (v + root) % n;
        uint64_t low = 1;  // lowest set bit of v (the tree's size bound for the root)
        while (low < n && (v & low) == 0) low <<= 1;
        if (v != 0) sh.parent[real] = static_cast<int32_t>(((v - low) + root) % n);
        for (uint64_t m = low >> 1; m != 0; m >>= 1) {
            if (v + m < n) sh.children[real].push_back(static_cast<uint32_t>((v + m + root) % n));
        }
    }
    sh.finish();
    return sh;
}

/// NCCL's tree on multi-GPU nodes: an inter-node double binary tree over the nodes
/// (dtree_node over node indices) and a chain inside every node. On channel c of `channels`,
/// tree 0 runs each node's members rotated by c (head = member c, then c+1, ...), tree 1 the
/// reverse (head = member c-1, then c-2, ...); a head's parent is the head of its parent node,
/// its children the heads of its child nodes, then the next member of its chain.
tree_shape node_tree_shape(uint32_t n, const std::vector<std::vector<uint32_t>>& groups, int t,
                           uint32_t c) {
    tree_shape sh(n);
    const auto nodes = static_cast<uint32_t>(groups.size());
    std::vector<std::vector<uint32_t>> chain(nodes);
    for (uint32_t k = 0; k < nodes; ++k) append_rotated(chain[k], groups[k], c, t == 1);
    for (uint32_t k = 0; k < nodes; ++k) {
        const tree_node nd = dtree_node(nodes, k, t);
        const uint32_t head = chain[k][0];
        if (nd.parent < 0) {
            sh.root = head;
        } else {
            sh.parent[head] = static_cast<int32_t>(chain[static_cast<uint32_t>(nd.parent)][0]);
        }
        for (int32_t ch : {nd.child0, nd.child1}) {
            if (ch >= 0) sh.children[head].push_back(chain[static_cast<uint32_t>(ch)][0]);
        }
        for (size_t j = 1; j < chain[k].size(); ++j) {
            sh.parent[chain[k][j]] = static_cast<int32_t>(chain[k][j - 1]);
            sh.children[chain[k][j - 1]].push_back(chain[k][j]);
        }
    }
    sh.finish();
    return sh;
}

/// Part c of `parts` of the range r, cut on element boundaries.
byte_range part_of(byte_range r, uint32_t e, uint32_t parts, uint32_t c) {
    const byte_range q = block_range(r.bytes, e, parts, c);
    return byte_range{r.offset + q.offset, q.bytes};
}

/// Channels of a node-aware tree allreduce (1 for the flat double binary tree).
uint32_t tree_channels(const coll_params& p) {
    return p.node_groups.empty() ? 1 : ring_channels(p);
}

/// Up pass of one chunk: every non-root node sends `ch` to its parent (reduce) after its
/// children's chunk arrived. up[v] = the transfer v sent.
void up_pass(schedule& s, const tree_shape& sh, byte_range ch, std::vector<uint32_t>& up) {
    for (size_t i = sh.bfs.size(); i-- > 1;) {
        const uint32_t v = sh.bfs[i];
        std::vector<uint32_t> deps;
        deps.reserve(sh.children[v].size());
        for (uint32_t c : sh.children[v]) deps.push_back(up[c]);
        up[v] = add_xfer(s, v, static_cast<uint32_t>(sh.parent[v]), ch, ch.offset, true,
                         std::move(deps));
    }
}

/// Down pass of one chunk: the root sends `ch` to its children after `root_deps`, every other
/// node forwards it after its arrival. down[v] = the transfer into v.
void down_pass(schedule& s, const tree_shape& sh, byte_range ch,
               const std::vector<uint32_t>& root_deps, std::vector<uint32_t>& down) {
    for (uint32_t v : sh.bfs) {
        for (uint32_t c : sh.children[v]) {
            std::vector<uint32_t> deps = v == sh.root ? root_deps : std::vector<uint32_t>{down[v]};
            down[c] = add_xfer(s, v, c, ch, ch.offset, false, std::move(deps));
        }
    }
}

}  // namespace

void build_tree(const coll_params& p, schedule& s) {
    const uint32_t n = p.nranks;
    s.buffer_bytes = p.bytes;
    if (n <= 1) return;
    const uint64_t chunk = effective_chunk(p);
    std::vector<uint32_t> up(n), down(n), root_deps;

    if (p.op == op_kind::allreduce) {
        const uint32_t channels = tree_channels(p);
        for (uint32_t cc = 0; cc < channels; ++cc) {
            const tree_shape trees[2] = {
                p.node_groups.empty() ? dtree_shape(n, 0)
                                      : node_tree_shape(n, p.node_groups, 0, cc),
                p.node_groups.empty() ? dtree_shape(n, 1)
                                      : node_tree_shape(n, p.node_groups, 1, cc)};
            const byte_range half[2] = {
                part_of(block_range(p.bytes, p.dtype_bytes, 2, 0), p.dtype_bytes, channels, cc),
                part_of(block_range(p.bytes, p.dtype_bytes, 2, 1), p.dtype_bytes, channels, cc)};
            const uint64_t nc[2] = {chunk_count(half[0].bytes, chunk),
                                    chunk_count(half[1].bytes, chunk)};
            for (uint64_t c = 0; c < nc[0] || c < nc[1]; ++c) {
                for (int t = 0; t < 2; ++t) {
                    if (c >= nc[t]) continue;
                    const tree_shape& sh = trees[t];
                    const byte_range ch = chunk_of(half[t], chunk, c);
                    up_pass(s, sh, ch, up);
                    root_deps.clear();
                    for (uint32_t k : sh.children[sh.root]) root_deps.push_back(up[k]);
                    down_pass(s, sh, ch, root_deps, down);
                }
            }
        }
        return;
    }

    const tree_shape sh = binomial_shape(n, p.root);
    const byte_range all{0, p.bytes};
    const uint64_t ncs = chunk_count(p.bytes, chunk);
    for (uint64_t c = 0; c < ncs; ++c) {
        const byte_range ch = chunk_of(all, chunk, c);
        if (p.op == op_kind::broadcast) {
            down_pass(s, sh, ch, root_deps, down);
        } else {
            up_pass(s, sh, ch, up);
        }
    }
}

uint64_t tree_xfer_count(const coll_params& p) {
    const uint64_t n = p.nranks;
    if (n <= 1) return 0;
    const uint64_t chunk = effective_chunk(p);
    // Every chunk crosses each of a spanning tree's n-1 edges once per pass.
    if (p.op == op_kind::allreduce) {
        const uint32_t channels = tree_channels(p);
        uint64_t chunks = 0;
        for (int t = 0; t < 2; ++t) {
            const uint64_t elems = block_range(p.bytes, p.dtype_bytes, 2, t).bytes / p.dtype_bytes;
            const uint64_t base = elems / channels;
            const uint64_t extra = elems % channels;
            chunks =
                sat_add(chunks, sat_mul(extra, chunk_count((base + 1) * p.dtype_bytes, chunk)));
            chunks = sat_add(chunks,
                             sat_mul(channels - extra, chunk_count(base * p.dtype_bytes, chunk)));
        }
        return sat_mul(2 * (n - 1), chunks);  // up and down
    }
    return sat_mul(n - 1, chunk_count(p.bytes, chunk));
}

}  // namespace detail

}  // namespace ndr::coll
