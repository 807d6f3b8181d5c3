// The line-level rules of the NCCL log import (nccl_import.cpp, nccl_excerpt.cpp): splitting a
// line around "NCCL INFO", recognising COLL and INIT lines, parsing a COLL line's fields and
// turning them into an op record, and the final line-numbered validation. Lines are parsed by
// keyword, never by column (docs/domain.md §12.1: the text changes between NCCL versions).
// Internal to models/trace.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collective/coll_types.h"
#include "trace/trace.h"

namespace ndr::trace::nccl_detail {

/// Throws trace_error("PATH:LINE: FIELD: REASON").
[[noreturn]] void fail(const std::string& path, uint32_t line, std::string_view field,
                       const std::string& reason);

/// Digits only (hex: an optional 0x), overflow-checked; nullopt otherwise.
std::optional<uint64_t> to_u64(const std::string& s, int base);

/// A line split around "NCCL INFO": who printed it and what follows.
struct nccl_line {
    std::string process;  ///< "host:pid" (thread id dropped); empty if the prefix is trimmed
    uint32_t dev = 0;     ///< cudaDev from "[N]"
    std::vector<std::string> words;  ///< after "NCCL INFO"
};

std::optional<nccl_line> split_info(const std::string& raw);

/// Value following `key` in words, if any.
std::optional<std::string> after(const std::vector<std::string>& w, std::string_view key);

/// The line carries an `NCCL INFO/WARN/...` marker (else it is application output).
bool looks_like_nccl(const std::string& raw);
/// Host name of a "host:pid" process.
std::string host_of(const std::string& process);

bool is_coll(const nccl_line& l);
bool is_init(const nccl_line& l);

/// The fields of one COLL line, parsed but not yet tied to a communicator.
struct coll_fields {
    coll::op_kind op = coll::op_kind::allreduce;
    std::string ptr;                 ///< `comm 0x...`
    std::optional<uint64_t> nranks;  ///< `[nranks=N]` if printed; 0 if not a count 1..max_ranks
    std::string nranks_text;         ///< its text, for messages
    uint64_t seq = 0;                ///< opCount (hex)
    uint64_t count = 0;              ///< as printed (alltoall: per peer)
    coll::dtype dt = coll::dtype::fp32;
    coll::redop rop = coll::redop::sum;
    uint64_t root = 0;  ///< root or peer, when the op has one
};

/// The names of the COLL fields a line lacks (a torn line), empty if it has them all.
std::vector<std::string> missing_coll_fields(const nccl_line& l);

/// Parses COLL line `no` (is_coll(l)); fails naming the field on a bad or missing value.
coll_fields parse_coll(const nccl_line& l, const std::string& path, uint32_t no);

/// The op record of COLL line `no` on `rank` of communicator `comm` of `nranks` ranks; fails on
/// a count the trace cannot hold or a root/peer out of range.
op_record to_record(const coll_fields& f, uint32_t rank, uint32_t comm, uint32_t nranks,
                    const std::string& path, uint32_t no);

/// Gives every record its default id (its index on the rank) and validates `t` as a trace whose
/// records carry the log's line numbers, so that every message names the log and its line
/// (`header_line` for the header, comm_lines[i] for communicator i).
trace finish_trace(trace& t, uint32_t header_line, const std::vector<uint32_t>& comm_lines,
                   const std::string& path);

}  // namespace ndr::trace::nccl_detail
