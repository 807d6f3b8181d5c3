// NCCL's three wire protocols (docs/architecture.md "Protocols", docs/domain.md §13): how a
// transfer's data is laid out on the wire and in what steps it is pipelined. SystemC-free.
//   ll      Low Latency: NCCL's ncclLLFifoLine is 16 bytes holding 8 bytes of data and two 4-byte
//   flags, so
//           half of every wire byte is data; the receiver polls the flags in the data itself.
//   ll128   every 128-byte line holds 120 bytes of data and one 8-byte flag word.
//   simple  bulk data, no flags: the receiver learns of arrival from the completion (a CQE the
//           proxy polls) and a memory fence, so it pays the per-step completion cost.
// The step sizes are NCCL's default buffers over NCCL_STEPS (8) steps (src/init.cc
// DEFAULT_LL_BUFFSIZE, DEFAULT_LL128_BUFFSIZE, DEFAULT_BUFFSIZE).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ndr::coll {

enum class proto_kind : uint8_t { auto_, ll, ll128, simple };

/// One protocol.
struct proto_info {
    proto_kind kind;
    std::string_view name;  ///< as traces, nccl.proto and reports spell it
    uint32_t line_data;     ///< data bytes of one wire line
    uint32_t line_bytes;    ///< bytes of that line on the wire
    uint64_t
        step_data;  ///< data bytes of one NCCL step (the pipelining unit); 0 = collective.chunk
    bool completion_wait;  ///< the receiver waits for the completion (CQE poll) of every step
    std::string_view summary;
};

/// THE list of protocols, in proto_kind order (docs/trace_format.md `proto`, docs/configuration
/// `nccl.proto` list the same names).
inline constexpr proto_info PROTOCOLS[] = {
    {proto_kind::auto_, "auto", 1, 1, 0, true,
     "chosen per collective by the NCCL tuner (host.stack nccl), else simple"},
    {proto_kind::ll, "ll", 8, 16, 32768, false,
     "Low Latency: 8 B of data and 8 B of flags per 16 B line, 32 KiB steps"},
    {proto_kind::ll128, "ll128", 120, 128, 576000, false,
     "LL128: 120 B of data per 128 B line, 576,000 B steps"},
    {proto_kind::simple, "simple", 1, 1, 0, true,
     "bulk data, completion per step; collective.chunk steps"},
};

const proto_info& info(proto_kind p);
std::string_view name(proto_kind p);
std::optional<proto_kind> parse_proto(std::string_view s);  ///< "auto" -> auto_
/// Every protocol name, in table order, joined by ", ": `auto, ll, ll128, simple`.
const std::string& proto_names();
/// Bytes `data` bytes take on the wire under `p`: whole lines of line_bytes (auto and simple:
/// `data`). 0 stays 0.
uint64_t wire_bytes(proto_kind p, uint64_t data);

}  // namespace ndr::coll
