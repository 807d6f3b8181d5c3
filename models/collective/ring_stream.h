// A ring reduce_scatter, allgather or allreduce unfolded level by level (issue #19 item 2): the
// replay holds the ring steps in flight, not the whole schedule, so its memory follows the
// ranks times the transfers in flight, not the collective's size.
//
// Level k of chain c is ring step k of channel c (allreduce: the n-1 reduce-scatter steps, then
// the n-1 allgather steps). This is the one statement of the ring's step rule: build_schedule's
// ring (ring.cpp) is these levels in order, so a replay of the levels is a replay of the whole
// schedule (tests/collective/ring_stream_test.cpp checks both against a reference ring written
// from the definition). Every transfer of level k > 0 depends on one of level k-1 of its
// chain (chunk i of the block that arrived at its sender one step before), and the transfers
// with no dependency are the level-0 ones: a replay that unfolds level k+1 of a chain before
// it handles the first completion of level k misses no transfer that became ready.
#pragma once
#include <cstdint>
#include <vector>

#include "collective/schedule.h"

namespace ndr::coll {

/// The most transfers an unfolded collective may have: transfer indices are 32 bits.
inline constexpr uint64_t MAX_STREAMED_XFERS = 0xFFFFFFFFULL;

class ring_stream {
public:
    /// True if `p` unfolds: a ring reduce_scatter, allgather or allreduce (algo ring, or auto_
    /// resolving to ring as build_schedule resolves it).
    static bool applies(const coll_params& p);
    /// Throws what build_schedule(p) throws for bad parameters (std::invalid_argument), and
    /// schedule_too_large if the collective has more than MAX_STREAMED_XFERS transfers.
    static void check(const coll_params& p);

    /// `p` must pass check() and applies().
    explicit ring_stream(const coll_params& p);

    const coll_params& params() const { return p_; }
    uint64_t total() const { return total_; }
    uint32_t chains() const { return static_cast<uint32_t>(base_.size()); }
    uint32_t levels() const { return steps_; }  ///< per chain
    /// Index of the first transfer of level k of chain c.
    uint64_t level_first(uint32_t c, uint32_t k) const { return base_[c] + uint64_t{k} * size_[c]; }
    /// Transfers per level of chain c.
    uint64_t level_size(uint32_t c) const { return size_[c]; }
    /// The transfers of level k of chain c, in index order (out is replaced).
    void level(uint32_t c, uint32_t k, std::vector<xfer>& out) const;

    struct place {
        uint32_t chain = 0;
        uint32_t level = 0;
        uint64_t offset = 0;  ///< within the level
    };
    /// Where transfer x (< total()) is.
    place locate(uint64_t x) const;
    /// Per communicator rank: the transfers it sends plus those it receives (the events that
    /// end its part, as the replay counts them).
    std::vector<uint64_t> events_per_rank() const;

private:
    /// At level k, position q sends the block of the rank at position (q + shift(k)) mod n.
    uint32_t shift(uint32_t k) const;
    bool reduces(uint32_t k) const;
    byte_range block(uint32_t c, uint32_t owner) const;
    /// Index of position q's first transfer in a level of chain c with shift s, relative to
    /// the level (O(1) from cum_).
    uint64_t first_of(uint32_t c, uint32_t s, uint32_t q) const;
    uint32_t rank(uint32_t c, uint32_t pos) const {
        return orders_[c].empty() ? pos : orders_[c][pos];
    }

    coll_params p_;
    uint64_t chunk_ = 0;
    uint32_t steps_ = 0;
    uint32_t channels_ = 1;
    std::vector<std::vector<uint32_t>> orders_;  ///< per chain: position -> rank (empty: identity)
    std::vector<uint64_t> base_;                 ///< per chain: index of its first transfer
    std::vector<uint64_t> size_;                 ///< per chain: transfers per level
    std::vector<std::vector<byte_range>> pos_block_;  ///< per chain, position: its rank's block
    std::vector<std::vector<uint64_t>> cum_;  ///< per chain: chunks of positions 0 .. q-1
    /// Per chain: the positions whose block has transfers, when at most a quarter do (else
    /// empty, and every position is visited).
    std::vector<std::vector<uint32_t>> sparse_;
    uint64_t total_ = 0;
};

}  // namespace ndr::coll
