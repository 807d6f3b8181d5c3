// Reference executor for collective schedules: runs the transfers on real bytes, one rank buffer
// each, in a legal but adversarial order, so tests can compare the result with the collective's
// definition. Also the static checks: validate_schedule (indices and ranges) and find_races
// (are the deps sufficient for every legal order?). SystemC-free, not fast: for tests.
//
// How a missing dependency is caught:
//  * find_races is exact: it computes the transitive closure of deps and reports every pair of
//    transfers that touch overlapping bytes of one rank, at least one of them writing, that no
//    chain of deps orders (two reduce transfers into the same bytes are exempt: the op is
//    commutative). A missing dependency that matters is such a pair, whatever the data.
//  * execute runs transfers in a randomised topological order (exec_order::random, a seed) or
//    latest-first (exec_order::latest_first: always the highest-index ready transfer, which
//    runs a transfer whose dependency was forgotten before the transfer it should wait for).
//    A transfer that reads a range before its producer ran forwards stale bytes, and one that
//    overwrites a range before its reader ran destroys them; with random 64-bit inputs either
//    shows up in the final buffers, which the tests compare with the expected collective.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collective/schedule.h"

namespace ndr::coll {

/// Reduction at a reduce transfer's destination: acc[0..bytes) = acc (op) in.
using reduce_fn = std::function<void(uint8_t* acc, const uint8_t* in, uint64_t bytes)>;

/// Wrap-around integer sum of little-endian elements of elem_bytes 1, 2, 4 or 8 (commutative
/// and associative, so every legal order gives the same bits). Throws std::invalid_argument
/// for other sizes.
reduce_fn wrapping_sum(uint32_t elem_bytes);

enum class exec_order : uint8_t {
    listed,        ///< the order of schedule::xfers
    random,        ///< a uniformly chosen ready transfer at every step (seeded)
    latest_first,  ///< the highest-index ready transfer at every step
};

struct exec_options {
    exec_order order = exec_order::random;
    uint64_t seed = 1;  ///< for exec_order::random
};

/// Throws std::invalid_argument naming the first problem: algo auto_, a rank >= nranks, a local
/// step (src == dst) whose ranges overlap, a dep index >= its own index (xfers must be listed in a topological order), a range
/// outside [0, buffer_bytes) of a transfer or local copy.
void validate_schedule(const schedule& s);

/// A topological order of s.xfers chosen by `opt` (s must pass validate_schedule).
std::vector<uint32_t> execution_order(const schedule& s, const exec_options& opt);

/// Runs s on `inputs` (one buffer per rank, at most buffer_bytes each; shorter ones are padded
/// with zeros): local copies first, then every transfer in execution_order(s, opt), copying
/// or reducing (with `reduce`) at the destination. Returns every rank's final buffer (then
/// those of the PXN relays, schedule::relay_ranks, which start zeroed).
/// Validates s first; throws std::invalid_argument on a bad schedule or input count/size.
std::vector<std::vector<uint8_t>> execute(const schedule& s,
                                          std::vector<std::vector<uint8_t>> inputs,
                                          const reduce_fn& reduce, const exec_options& opt = {});

/// Unordered conflicting pairs (see the file comment), at most max_reports, as readable
/// strings; empty = the deps are sufficient for every legal order. Needs about
/// xfers^2 / 8 bytes: throws std::invalid_argument above max_xfers transfers.
std::vector<std::string> find_races(const schedule& s, size_t max_reports = 16,
                                    size_t max_xfers = 20000);

}  // namespace ndr::coll
