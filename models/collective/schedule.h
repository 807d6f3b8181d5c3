// A collective decomposed into point-to-point transfers (one RDMA WRITE message each) with
// dependencies: what the host-side collective engine of every HCA executes, and what the
// reference executor (schedule_exec.h) runs on real data to prove the decomposition right.
//
// Buffer layout (per rank, `schedule::buffer_bytes`), S = coll_params::bytes. Data are cut into
// n blocks on element boundaries: block i holds E/n elements, the first E%n blocks one more
// (E = S / dtype_bytes), as NCCL splits; block_range() gives block i.
//   allreduce       [0,S) input; on return every rank holds the elementwise reduction.
//   reduce_scatter  [0,S) input (n blocks); on return rank i's block i holds the reduced
//                   block i (other blocks are scratch).
//   allgather       [0,S); rank i's input is its block i; on return all blocks, rank order.
//   alltoall        2S: [0,S) send blocks (block j for rank j), [S,2S) receive blocks (block
//                   i from rank i). Requires S % (n * dtype_bytes) == 0 (equal blocks). The
//                   own block is a local_copy (no network transfer).
//   broadcast       [0,S); the root's input ends up in every rank.
//   reduce          [0,S); the root ends with the reduction (others' buffers are scratch).
//   barrier         0 bytes; every transfer is a 0-byte token.
//   send, recv, rdma_write, rdma_read: nranks must be 2; rank 0 is the local side (the
//                   caller / initiator), rank 1 the peer (coll_params::root is ignored and
//                   not range-checked: it may hold the peer's rank in a wider communicator).
//                   send and rdma_write move [0,S) from rank 0 to rank 1; recv and rdma_read
//                   move it from rank 1 to rank 0 (for rdma_read the initiator is the xfer's
//                   dst). One transfer, never chunked.
//
// Reduce transfers: a transfer with `reduce` applies dst = dst (op) incoming atomically when it
// has fully arrived. Two reduce transfers into the same range of a rank may be unordered (the
// op is commutative; tree nodes receive from both children at once); any other pair of
// accesses to overlapping bytes of one rank with at least one write is ordered by `deps`
// (checked exhaustively by find_races, schedule_exec.h).
//
// Chunking: coll_params::chunk_bytes is rounded down to whole elements (at least one); each
// step's range is cut into ceil(len / chunk) transfers of `chunk` bytes, the last shorter.
//
// Algorithms (documented in detail where they are built, ring.cpp, tree.cpp, rhd.cpp,
// alltoall.cpp, pat.cpp, schedule.cpp):
//   ring      allreduce (n-1 reduce-scatter + n-1 allgather steps), reduce_scatter and
//             allgather (n-1 steps), broadcast (pipelined chain root, root+1, ...), reduce
//             (chain root+1, root+2, ..., root). Chunk c of step k on rank r depends on chunk c
//             of step k-1 arriving at r. With channels (coll_params::channels) every
//             block is split into ring_channels(p) parts, part c travelling ring c, whose
//             order is ring_order(node_groups, c) (NCCL's channels: one ring per channel).
//   tree      allreduce: NCCL double binary tree (dtree_node); broadcast/reduce: binomial tree
//             rooted at `root` (tree.cpp), pipelined by chunks.
//   rhd       allreduce (Rabenseifner), reduce_scatter (recursive halving), allgather
//             (recursive doubling); non-powers of two fold the first 2*(n-pof2) ranks in pairs
//             first and unfold at the end (MPICH).
//   pairwise  alltoall: n-1 steps, step k sends rank i's block (i+k)%n; step k waits for the
//             rank's step k-1 send (MPICH's long-message alltoall).
//   p2p       alltoall as NCCL runs it (grouped send/recv, p2p.cpp): every peer in flight,
//             in NCCL's p2p schedule order, batches of 8 peers per p2p channel; a channel's
//             batches run one after the other (coll_params::p2p_channels).
//   rd        allreduce: recursive doubling (MPICH short messages), log2 pof2 whole-buffer
//             exchanges; per step a local copy (src == dst) into a send buffer, the send into
//             the partner's receive buffer and a local reduction into [0,S) (rd.cpp); non-
//             powers of two fold and unfold as rhd. buffer_bytes = S * (2 log2 pof2 + 1).
//   rhd       barrier: dissemination (ceil(log2 n) rounds of 0-byte tokens, round j to
//             (i + 2^j) % n). There is no dedicated algo_kind: dissemination is the recursive
//             doubling pattern generalised to any n.
//   direct    send, recv, rdma_write, rdma_read.
//   pat       allgather and reduce_scatter as NCCL's PAT (pat.cpp): one binomial tree per
//             block over the offsets t = 0..n-1 from its owner, t's parent t minus its lowest
//             set bit; allgather sends block O from rank O - t' to O - t (rank - 2^d, the
//             farthest hop first), reduce_scatter reduces block B from rank B - t into
//             B - t + lowbit(t) (rank + 2^d, the nearest hop first). Each block crosses n-1
//             hops in floor(log2 n) steps; small blocks share messages (NCCL's aggregation,
//             staged by local steps). NCCL runs it only with one GPU per node.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "collective/coll_types.h"

namespace ndr::coll {

/// What the caller asks for. `bytes` is S as nccl-tests defines it (docs/domain.md §9):
/// allreduce/broadcast/reduce: count * dtype size; reduce_scatter: recvcount * size * n;
/// allgather: sendcount * size * n; alltoall: bytes each rank sends in total (n blocks).
struct coll_params {
    op_kind op = op_kind::allreduce;
    algo_kind algo = algo_kind::auto_;
    uint32_t nranks = 2;
    uint64_t bytes = 0;
    uint32_t dtype_bytes = 4;           ///< element size; transfers split on element boundaries
    uint32_t root = 0;                  ///< broadcast/reduce root (< nranks); p2p ops ignore it
    uint64_t chunk_bytes = 1 << 20;     ///< pipelining unit (NCCL-like); 0 = no chunking
    auto_rule rule = auto_rule::plain;  ///< how algo auto_ is resolved (choose_algo)
    /// Ring channels (NCCL channels) of ring allreduce, reduce_scatter and allgather: the data
    /// of every block is split over this many independent rings (ring.cpp); >= 1. Fewer run
    /// when a block has fewer elements (ring_channels).
    uint32_t channels = 1;
    /// NCCL's p2p channels (p2pnChannels) of the p2p alltoall: how many batches of peers a
    /// rank runs at once (p2p.cpp); >= 1.
    uint32_t p2p_channels = 32;
    /// Least bytes of a block's part per channel: fewer channels run when the smallest block
    /// would be cut finer (ring_channels); 0 = no floor.
    uint64_t channel_min_bytes = 0;
    /// The ranks of every node (each node's ranks by local GPU), nodes in ring and tree order.
    /// Ring channels then run the rail-spread orders of ring_order(node_groups, c); tree
    /// allreduce runs NCCL's node-aware trees (tree.cpp). Empty = one node or one rank per node:
    /// rings in the order 0, 1, ..., n-1 and the flat double binary tree. Must partition
    /// 0..n-1.
    std::vector<std::vector<uint32_t>> node_groups;
};

/// The ring of channel c over nodes `groups` (position -> rank): every node's members in turn,
/// even-numbered nodes entered at their member c (mod their size) and left at member c-1,
/// odd-numbered nodes run backwards (entered at c-1, left at c), so every inter-node hop of
/// ring c joins two ranks of the same local index (one rail) and channels 0..G-1 give every
/// rail one ring each way. With an odd number of nodes the hop back to the first node changes
/// rail. Empty `groups`: 0, 1, ..., n-1 is the caller's order (returns empty).
std::vector<uint32_t> ring_order(const std::vector<std::vector<uint32_t>>& groups, uint32_t c);

/// The ring channels a ring reduce_scatter, allgather or allreduce of `p` runs: channels, but
/// at most the elements of its smallest block, and at most that block's bytes /
/// channel_min_bytes (at least 1), so no channel is empty or finer than the floor.
uint32_t ring_channels(const coll_params& p);

/// One point-to-point transfer. Ranks are communicator-relative (0..nranks-1). src == dst is a
/// local step inside one rank (rd's reduction of a received buffer): no network traffic, the
/// two ranges must not overlap, and it completes (arrives and is acknowledged) when posted.
struct xfer {
    uint32_t src = 0;
    uint32_t dst = 0;
    uint64_t bytes = 0;       ///< payload bytes (0 allowed: a barrier token)
    uint64_t src_offset = 0;  ///< byte offset in src's working buffer
    uint64_t dst_offset = 0;  ///< byte offset in dst's working buffer
    bool reduce = false;      ///< dst[dst_offset..] = dst (op) incoming, else copy
    /// Transfers that must be complete before this one may start. A dependency whose dst is
    /// this transfer's src is complete when its data has arrived there; a dependency sent by
    /// this transfer's src is complete when the sender knows it was delivered (its ACK).
    std::vector<uint32_t> deps;
};

/// A copy inside one rank's buffer, done by the host before any transfer (no network
/// traffic): alltoall's own block.
struct local_copy {
    uint32_t rank = 0;
    uint64_t bytes = 0;
    uint64_t src_offset = 0;
    uint64_t dst_offset = 0;
};

/// The most transfers one collective built whole may decompose into (2^25; a ring
/// reduce_scatter, allgather or allreduce unfolds instead, ring_stream.h, up to 2^32 - 1). More
/// would exhaust memory long before the run (docs/performance.md).
inline constexpr std::size_t MAX_XFERS = std::size_t{1} << 25;

/// build_schedule: the collective would need more than MAX_XFERS transfers (counted by
/// transfer_count before anything is built).
struct schedule_too_large : std::length_error {
    using std::length_error::length_error;
};

struct schedule {
    coll_params params;
    algo_kind algo = algo_kind::ring;  ///< resolved (never auto_)
    uint64_t buffer_bytes = 0;         ///< per-rank working buffer
    /// Ranks params.nranks .. params.nranks + relay_ranks - 1 are PXN relays outside the
    /// communicator (pxn.h): they hold no input and no result, only staged data.
    uint32_t relay_ranks = 0;
    std::vector<xfer> xfers;               ///< in a valid topological order of deps
    std::vector<local_copy> local_copies;  ///< before every transfer, in any order
};

/// Byte range of block i of n over `total_bytes` cut on `elem_bytes` boundaries: E/n elements
/// each, the first E%n blocks one more (E = total_bytes / elem_bytes, as NCCL splits).
struct byte_range {
    uint64_t offset = 0;
    uint64_t bytes = 0;
};
byte_range block_range(uint64_t total_bytes, uint32_t elem_bytes, uint32_t n, uint32_t i);

/// Resolves algo auto_ by op, size and rank count (a *choice*, modelled on NCCL's tuning):
///   allreduce: ring if bytes >= AUTO_TREE_MAX_BYTES (1 MiB) or nranks <= 4, else tree. NCCL
///              picks its double binary tree for small and medium messages at scale (latency
///              2 log2 n steps instead of 2(n-1)) and the ring for large ones (bandwidth);
///              rhd is never chosen automatically.
///              With rule mpich (host.stack mpi) allreduce is chosen as MPICH does
///              (MPIR_Allreduce_intra_auto): rd if bytes <= AUTO_RD_MAX_BYTES (2 KiB,
///              MPIR_CVAR_ALLREDUCE_SHORT_MSG_SIZE) or count < pof2 (count = bytes /
///              dtype_bytes, pof2 the largest power of two <= nranks), else rhd (Rabenseifner).
///   reduce_scatter, allgather, broadcast, reduce: ring; alltoall: p2p with rule nccl
///   (host.stack nccl: NCCL has no alltoall algorithm, an alltoall is every send and recv in
///   one group, scheduled on its p2p channels), pairwise (MPICH's long-message alltoall, one
///   peer in flight) otherwise; barrier: rhd (dissemination); send, recv, rdma_write,
///   rdma_read: direct (every rule).
/// Never returns auto_; `bytes` and `nranks` only matter for allreduce.
inline constexpr uint64_t AUTO_TREE_MAX_BYTES = uint64_t{1} << 20;
inline constexpr uint32_t AUTO_RING_MAX_RANKS = 4;
inline constexpr uint64_t AUTO_RD_MAX_BYTES = 2048;
algo_kind choose_algo(op_kind op, uint64_t bytes, uint32_t nranks,
                      auto_rule rule = auto_rule::plain, uint32_t dtype_bytes = 4);

/// True if `algo` can build `op`: auto_ always, a host algorithm if its ALGORITHMS row lists
/// `op` (coll_types.h), sharp never (it runs in the switches, not as a schedule).
bool algo_supported(op_kind op, algo_kind algo);
/// The host algorithms that build `op`, in table order ("ring, tree, rhd"), for messages.
std::string supported_list(op_kind op);

/// One rank's place in a tree over ranks 0..n-1; -1 = none.
struct tree_node {
    int32_t parent = -1;
    int32_t child0 = -1;
    int32_t child1 = -1;
};
/// NCCL's binary tree (ncclGetBtree): rooted at 0, whose only child is the largest power of
/// two below n; a rank with lowest set bit b has children rank -/+ b/2 (the second child
/// shrunk into range), odd ranks are leaves.
tree_node btree_node(uint32_t n, uint32_t rank);
/// NCCL's double binary tree (ncclGetDtree, Sanders/Speck/Träff 2009): tree 0 = btree; tree
/// 1 = the mirror image r -> n-1-r of tree 0 for even n (root n-1), tree 0 shifted by one rank
/// for odd n (root 1). For even n every rank is a leaf in one of the two trees.
tree_node dtree_node(uint32_t n, uint32_t rank, int tree);

/// Builds the transfer list. Throws std::invalid_argument naming the problem (e.g. algo not
/// valid for op, nranks < 1, root >= nranks, bytes not a multiple of dtype_bytes), and
/// schedule_too_large, before allocating, if transfer_count(p) > MAX_XFERS.
schedule build_schedule(const coll_params& p);

/// Throws what build_schedule(p) would throw (std::invalid_argument, schedule_too_large)
/// without building anything: the up-front check of a whole trace.
void check_schedule(const coll_params& p);

/// The number of transfers build_schedule(p) makes (= its xfers.size()), computed from the
/// algorithm (auto_ resolved as build_schedule does), the ranks, the bytes and the chunking,
/// range by range, without building them: O(1) for ring, tree and pairwise, O(n log n) for
/// rhd. Saturates at UINT64_MAX. Throws std::invalid_argument like build_schedule.
uint64_t transfer_count(const coll_params& p);

}  // namespace ndr::coll
