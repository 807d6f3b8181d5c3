// Names shared by traces, collective schedules and reports: operations, algorithms, data types
// and reduction operators (NCCL enums, docs/domain.md §12.1). SystemC-free.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ndr::coll {

enum class op_kind : uint8_t {
    allreduce,
    reduce_scatter,
    allgather,
    alltoall,
    broadcast,
    reduce,
    barrier,
    send,
    recv,
    rdma_write,
    rdma_read,
};

enum class algo_kind : uint8_t {
    auto_,     ///< chosen by size and rank count (see choose_algo)
    ring,      ///< NCCL-style ring (pipelined by chunks)
    tree,      ///< double binary tree (two complementary trees, half the data each)
    rhd,       ///< recursive halving/doubling (Rabenseifner for allreduce)
    pairwise,  ///< pairwise exchange (all-to-all)
    direct,    ///< one transfer (send/recv, rdma_write/read)
    sharp,     ///< in-network reduction (SHARP); not yet implemented
};

enum class dtype : uint8_t {
    int8,
    uint8,
    int32,
    uint32,
    int64,
    uint64,
    fp16,
    fp32,
    fp64,
    bf16,
    fp8e4m3,
    fp8e5m2,
    int16,
    uint16
};
enum class redop : uint8_t { sum, prod, max, min, avg };

/// Lowercase enumerator names ("allreduce", "reduce_scatter", ...; algo_kind::auto_ is
/// "auto"); "?" for a value outside the enum. parse_* accept exactly these names.
std::string_view name(op_kind k);
std::string_view name(algo_kind k);
std::string_view name(dtype t);
std::string_view name(redop r);
std::optional<op_kind> parse_op(std::string_view s);
std::optional<algo_kind> parse_algo(std::string_view s);  ///< "auto" -> auto_
std::optional<dtype> parse_dtype(std::string_view s);
std::optional<redop> parse_redop(std::string_view s);
uint32_t dtype_bytes(dtype t);  ///< element size in bytes (fp8: 1, fp16/bf16: 2, ...)
/// NCCL's numeric enums (ncclDataType_t 0..11, ncclRedOp_t 0..4), docs/domain.md §12.1.
std::optional<dtype> dtype_from_nccl(int v);
std::optional<redop> redop_from_nccl(int v);
/// Inverse of dtype_from_nccl; nullopt for int16/uint16 (no NCCL number).
std::optional<int> dtype_to_nccl(dtype t);
/// Inverse of redop_from_nccl (every redop has an NCCL number).
int redop_to_nccl(redop r);

/// nccl-tests busbw factor (docs/domain.md §9): busbw = algbw * factor. allreduce 2(n-1)/n, with
/// in-network reduction (algo sharp) (n-1)/(n+1); reduce_scatter, allgather, alltoall
/// (n-1)/n; broadcast, reduce 1; barrier, send, recv, rdma_write, rdma_read 1 (no nccl-tests
/// definition: algbw is reported as is). nranks 0 gives 0.
double busbw_factor(op_kind op, algo_kind algo, uint32_t nranks);

}  // namespace ndr::coll
