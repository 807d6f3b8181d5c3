// Names, parsers, element sizes, NCCL enum mapping and nccl-tests busbw factors
// (docs/domain.md §9, §12.1).
#include "collective/coll_types.h"

#include <array>
#include <cstddef>
#include <iterator>
#include <string>

namespace ndr::coll {

namespace {

/// ALGORITHMS is indexed by algo_kind.
constexpr bool algorithms_in_enum_order() {
    for (size_t i = 0; i < std::size(ALGORITHMS); ++i) {
        if (static_cast<size_t>(ALGORITHMS[i].kind) != i) return false;
    }
    return true;
}
static_assert(algorithms_in_enum_order(), "ALGORITHMS rows must follow algo_kind order");
static_assert(std::size(ALGORITHMS) == static_cast<size_t>(algo_kind::p2p) + 1,
              "one ALGORITHMS row per algo_kind");

constexpr std::array<std::string_view, 11> OP_NAMES = {
    "allreduce", "reduce_scatter", "allgather", "alltoall",   "broadcast", "reduce",
    "barrier",   "send",           "recv",      "rdma_write", "rdma_read"};
constexpr std::array<std::string_view, 14> DTYPE_NAMES = {
    "int8", "uint8", "int32", "uint32",  "int64",   "uint64", "fp16",
    "fp32", "fp64",  "bf16",  "fp8e4m3", "fp8e5m2", "int16",  "uint16"};
constexpr std::array<uint32_t, 14> DTYPE_SIZES = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1, 2, 2};
constexpr std::array<std::string_view, 5> REDOP_NAMES = {"sum", "prod", "max", "min", "avg"};

template <size_t N>
std::string_view name_at(const std::array<std::string_view, N>& names, size_t i) {
    return i < N ? names[i] : std::string_view("?");
}

template <typename E, size_t N>
std::optional<E> parse_in(const std::array<std::string_view, N>& names, std::string_view s) {
    for (size_t i = 0; i < N; ++i) {
        if (names[i] == s) return static_cast<E>(i);
    }
    return std::nullopt;
}

}  // namespace

std::string_view name(op_kind k) {
    return name_at(OP_NAMES, static_cast<size_t>(k));
}
std::string_view name(algo_kind k) {
    const algo_info* a = find_algo(k);
    return a != nullptr ? a->name : std::string_view("?");
}
std::string_view name(dtype t) {
    return name_at(DTYPE_NAMES, static_cast<size_t>(t));
}
std::string_view name(redop r) {
    return name_at(REDOP_NAMES, static_cast<size_t>(r));
}

std::optional<op_kind> parse_op(std::string_view s) {
    return parse_in<op_kind>(OP_NAMES, s);
}
std::optional<algo_kind> parse_algo(std::string_view s) {
    for (const algo_info& a : ALGORITHMS) {
        if (a.name == s) return a.kind;
    }
    return std::nullopt;
}

const algo_info* find_algo(algo_kind k) {
    const auto i = static_cast<size_t>(k);
    return i < std::size(ALGORITHMS) ? &ALGORITHMS[i] : nullptr;
}

bool algo_runs(algo_kind algo, op_kind op) {
    const algo_info* a = find_algo(algo);
    return a != nullptr && (a->ops & op_bit(op)) != 0;
}

const std::string& algo_names() {
    static const std::string names = [] {
        std::string out;
        for (const algo_info& a : ALGORITHMS) {
            if (!out.empty()) out += ", ";
            out += a.name;
        }
        return out;
    }();
    return names;
}
std::optional<dtype> parse_dtype(std::string_view s) {
    return parse_in<dtype>(DTYPE_NAMES, s);
}
std::optional<redop> parse_redop(std::string_view s) {
    return parse_in<redop>(REDOP_NAMES, s);
}

uint32_t dtype_bytes(dtype t) {
    const auto i = static_cast<size_t>(t);
    return i < DTYPE_SIZES.size() ? DTYPE_SIZES[i] : 0;
}

// ncclDataType_t 0..11 coincide with the first twelve dtype enumerators (docs/domain.md §12.1);
// int16/uint16 have no NCCL number.
std::optional<dtype> dtype_from_nccl(int v) {
    if (v < 0 || v > static_cast<int>(dtype::fp8e5m2)) return std::nullopt;
    return static_cast<dtype>(v);
}

std::optional<int> dtype_to_nccl(dtype t) {
    const int v = static_cast<int>(t);
    if (v > static_cast<int>(dtype::fp8e5m2)) return std::nullopt;
    return v;
}

// ncclRedOp_t 0 sum, 1 prod, 2 max, 3 min, 4 avg (docs/domain.md §12.1).
std::optional<redop> redop_from_nccl(int v) {
    if (v < 0 || v > static_cast<int>(redop::avg)) return std::nullopt;
    return static_cast<redop>(v);
}

int redop_to_nccl(redop r) {
    return static_cast<int>(r);
}

double busbw_factor(op_kind op, algo_kind algo, uint32_t nranks) {
    const double n = static_cast<double>(nranks);
    if (nranks == 0) return 0.0;
    switch (op) {
        case op_kind::allreduce:
            return algo == algo_kind::sharp ? (n - 1.0) / (n + 1.0) : 2.0 * (n - 1.0) / n;
        case op_kind::reduce_scatter:
        case op_kind::allgather:
        case op_kind::alltoall:
            return (n - 1.0) / n;
        case op_kind::broadcast:
        case op_kind::reduce:
        case op_kind::barrier:
        case op_kind::send:
        case op_kind::recv:
        case op_kind::rdma_write:
        case op_kind::rdma_read:
            return 1.0;
    }
    return 1.0;
}

}  // namespace ndr::coll
