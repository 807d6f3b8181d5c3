// Synthetic trace generators behind `ndrsim gen` (docs/trace_format.md, "Generators"):
// nccl-tests-like size sweeps of one collective, and data-parallel (DDP) training steps.
// Errors throw std::invalid_argument naming the parameter.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "trace/trace.h"

namespace ndr::trace {

/// nccl-tests -b/-e/-f: min, min*factor, min*factor^2, ... while <= max (factor >= 2, or
/// factor 1 only when min == max). min must be >= 1 and <= max.
std::vector<uint64_t> geometric_sizes(uint64_t min_bytes, uint64_t max_bytes, uint64_t factor);
/// nccl-tests -b/-e/-i: min, min+step, min+2*step, ... while <= max (step >= 1, or step 0 only
/// when min == max). min must be >= 1 and <= max.
std::vector<uint64_t> linear_sizes(uint64_t min_bytes, uint64_t max_bytes, uint64_t step);
/// How many sizes linear_sizes(min, max, step) holds, without building them (a sweep of 10^9
/// sizes is refused on its count); throws as linear_sizes does.
uint64_t linear_size_count(uint64_t min_bytes, uint64_t max_bytes, uint64_t step);

/// The API `count` for a size S (nccl-tests semantics, docs/domain.md §9), rounded down as
/// nccl-tests does: allreduce/broadcast/reduce: S/size; reduce_scatter/allgather: S/(size*n) per
/// rank; alltoall: total elements each rank sends, a multiple of n: (S/size/n)*n; barrier: 0.
uint64_t count_for_bytes(coll::op_kind op, uint64_t bytes, coll::dtype dt, uint32_t nranks);

/// The most records a generator makes (about 120 bytes each in memory before the replay's own
/// state): a sweep or training run asking for more is refused up front, naming the product,
/// rather than filling the machine's memory.
inline constexpr uint64_t max_generated_records = 50'000'000;

/// `ndrsim gen collective`: every rank runs, one after another (default deps), for each algo,
/// for each size, `iters` times, one collective on communicator 0 = all ranks.
struct collective_sweep {
    coll::op_kind op = coll::op_kind::allreduce;  ///< any collective (not send/recv/rdma_*)
    uint32_t nranks = 8;                          ///< 2..max_ranks
    std::vector<uint64_t> sizes;                  ///< S in bytes (nccl-tests), rounded down
    std::vector<coll::algo_kind> algos{coll::algo_kind::auto_};
    coll::dtype dt = coll::dtype::fp32;
    coll::redop rop = coll::redop::sum;  ///< reducing ops only
    uint32_t root = 0;                   ///< broadcast/reduce
    uint32_t iters = 1;                  ///< repetitions of each (algo, size), 1..10^6
    std::string name;                    ///< header name
};
trace gen_collective(const collective_sweep& p);
/// nccl-tests sendrecv_perf: as gen_collective, but each (algo, size, iteration) is one seq on
/// communicator 0 in which every rank r sends `count` = S / size elements to rank (r+1) % n and
/// receives as many from rank (r-1+n) % n, both issued together (one NCCL group). p.op must be
/// send; redop and root are unused.
trace gen_sendrecv_ring(const collective_sweep& p);

/// `ndrsim gen permutation`: every rank r issues, at time 0, one RDMA WRITE of `bytes` bytes to
/// rank dest[r] (seq 0, communicator 0). dest must be a permutation of 0..n-1 without fixed
/// points (the caller draws it: tb::random_derangement); bytes >= 1.
trace gen_permutation(const std::vector<uint32_t>& dest, uint64_t bytes, const std::string& name);

/// `ndrsim gen background`: open-loop aggressor traffic. Rank r issues message k (an RDMA WRITE
/// of `bytes` bytes to rank dests[r][k], seq k on communicator 0) at issue_ns
/// floor(k * interval_ps / 1000), whatever the previous ones are doing; a rank with no
/// destinations is idle. Every destination must be another rank; bytes >= 1.
trace gen_background(const std::vector<std::vector<uint32_t>>& dests, uint64_t bytes,
                     uint64_t interval_ps, const std::string& name);

/// A model for `ndrsim gen ddp`. Compute times are choices (see docs/trace_format.md).
struct ddp_model {
    std::string name;
    uint64_t params = 0;  ///< parameter count = gradient elements (docs/domain.md §11)
    uint64_t fwd_ns = 0;  ///< forward pass per step
    uint64_t bwd_ns = 0;  ///< backward pass per step (split over the buckets)
    uint64_t opt_ns = 0;  ///< optimizer step
};
/// "resnet50" or "bert-large"; nullopt otherwise.
std::optional<ddp_model> find_ddp_model(std::string_view name);
/// Names find_ddp_model knows, comma-separated.
std::string ddp_model_names();

/// PyTorch DDP defaults: bucket_cap_mb = 25 means 25 MiB (`int(bucket_cap_mb * 1024 * 1024)`
/// in torch/nn/parallel/distributed.py) and the first bucket is capped at 1 MiB
/// (dist._DEFAULT_FIRST_BUCKET_BYTES).
inline constexpr uint64_t ddp_default_bucket_bytes = 25ull << 20;
inline constexpr uint64_t ddp_default_first_bucket_bytes = 1ull << 20;

/// Bucket sizes in bytes, in the order backward fills them, for `grad_bytes` of gradients
/// modelled as a continuous stream (no tensor boundaries): first bucket min(first, grad),
/// then buckets of `cap`, the last holding the rest. first = 0: no special first bucket.
std::vector<uint64_t> ddp_buckets(uint64_t grad_bytes, uint64_t first_bucket_bytes,
                                  uint64_t cap_bytes);

struct ddp_params {
    ddp_model model;
    uint32_t nranks = 8;                                           ///< 2..max_ranks
    uint64_t bucket_cap_bytes = ddp_default_bucket_bytes;          ///< multiple of dtype size
    uint64_t first_bucket_bytes = ddp_default_first_bucket_bytes;  ///< 0 = none
    uint32_t steps = 1;                                            ///< 1..10^5
    coll::dtype dt = coll::dtype::fp32;                            ///< gradient dtype
    coll::algo_kind algo = coll::algo_kind::auto_;
};
/// Per step and rank: forward compute; backward compute in one slice per bucket (duration
/// proportional to the bucket's bytes); each bucket's allreduce (sum) issued when its slice and
/// the previous bucket's allreduce are done (one NCCL stream), overlapping the rest of the
/// backward; the optimizer step after the last allreduce; the next step's forward after it.
trace gen_ddp(const ddp_params& p);

}  // namespace ndr::trace
