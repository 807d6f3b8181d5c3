// A collective decomposed into point-to-point transfers (one RDMA WRITE message each) with
// dependencies: what the host-side collective engine of every HCA executes, and what the
// reference executor (schedule_exec.h) runs on real data to prove the decomposition right.
#pragma once
#include <cstdint>
#include <vector>

#include "collective/coll_types.h"

namespace ndr::coll {

/// What the caller asks for. `bytes` is S as nccl-tests defines it (DOMAIN.md §9):
/// allreduce/broadcast/reduce: count * dtype size; reduce_scatter: recvcount * size * n;
/// allgather: sendcount * size * n; alltoall: bytes each rank sends in total (n blocks).
struct coll_params {
    op_kind op = op_kind::allreduce;
    algo_kind algo = algo_kind::auto_;
    uint32_t nranks = 2;
    uint64_t bytes = 0;
    uint32_t dtype_bytes = 4;      ///< element size; transfers split on element boundaries
    uint32_t root = 0;             ///< broadcast/reduce root; peer rank for send/recv
    uint64_t chunk_bytes = 1 << 20;///< pipelining unit (NCCL-like); 0 = no chunking
};

/// One point-to-point transfer. Ranks are communicator-relative (0..nranks-1).
struct xfer {
    uint32_t src = 0;
    uint32_t dst = 0;
    uint64_t bytes = 0;             ///< payload bytes (0 allowed: a barrier token)
    uint64_t src_offset = 0;        ///< byte offset in src's working buffer
    uint64_t dst_offset = 0;        ///< byte offset in dst's working buffer
    bool reduce = false;            ///< dst[dst_offset..] = dst (op) incoming, else copy
    /// Transfers that must be complete before this one may start. A dependency whose dst is
    /// this transfer's src is complete when its data has arrived there; a dependency sent by
    /// this transfer's src is complete when the sender knows it was delivered (its ACK).
    std::vector<uint32_t> deps;
};

struct schedule {
    coll_params params;
    algo_kind algo = algo_kind::ring;  ///< resolved (never auto_)
    uint64_t buffer_bytes = 0;         ///< per-rank working buffer
    std::vector<xfer> xfers;           ///< in a valid topological order of deps
};

/// Resolves algo auto_ by op, size and rank count (documented in schedule.cpp).
algo_kind choose_algo(op_kind op, uint64_t bytes, uint32_t nranks);

/// Builds the transfer list. Throws std::invalid_argument naming the problem (e.g. algo not
/// valid for op, nranks < 1, root >= nranks, bytes not a multiple of dtype_bytes).
schedule build_schedule(const coll_params& p);

}  // namespace ndr::coll
