// Credit-based link-level flow control arithmetic (IB Vol.1 ch.7.9), SystemC-free.
// One credit = one 64-byte block (docs/domain.md §2.1-2.2). Counters are 12 bits, modulo 4096,
// and at most 2048 blocks may be outstanding per VL.
#pragma once
#include <cstdint>

namespace ndr::golden {

inline constexpr uint32_t CREDIT_BLOCK_BYTES = 64;    ///< bytes per credit block
inline constexpr uint32_t FC_COUNTER_MOD = 4096;      ///< FCTBS/FCCL/ABR are 12-bit
inline constexpr uint32_t FC_MAX_OUTSTANDING = 2048;  ///< max blocks ahead per VL

/// Blocks a packet of `wire_bytes` occupies: ceil(bytes / block_bytes); 0 bytes -> 0 blocks.
/// E.g. 4122 B (4096 B payload + LRH+BTH+ICRC+VCRC) -> 65 blocks, 64 -> 1, 65 -> 2.
/// Throws std::invalid_argument if block_bytes == 0.
uint32_t blocks_for_bytes(uint32_t wire_bytes, uint32_t block_bytes = CREDIT_BLOCK_BYTES);

/// (a - b) mod 4096, result in 0..4095. Inputs may be any value (only their low 12 bits count).
/// Inline: called per packet on the simulators' hot paths.
inline uint32_t fc_sub(uint32_t a, uint32_t b) {
    return (a - b) & (FC_COUNTER_MOD - 1);
}
/// (a + b) mod 4096, result in 0..4095.
inline uint32_t fc_add(uint32_t a, uint32_t b) {
    return (a + b) & (FC_COUNTER_MOD - 1);
}

/// Sender side of one VL: FCTBS (total blocks sent, mod 4096) and the last FCCL received.
/// A packet of n blocks may go iff (FCCL - (FCTBS + n)) mod 4096 <= 2048.
/// Invariant kept by every member: available() = (FCCL - FCTBS) mod 4096 <= 2048.
class credit_sender {
public:
    /// Initial state: FCTBS = 0, FCCL = initial credit limit (as advertised at link init).
    /// Throws std::invalid_argument if initial_fccl > 2048 (more than 2048 blocks ahead of 0).
    explicit credit_sender(uint32_t initial_fccl = 0);
    /// The IB rule (FCCL - (FCTBS + n)) mod 4096 <= 2048, evaluated as n <= available(). The two
    /// agree for every n < available() + 2048; beyond that the bare modular compare aliases
    /// (e.g. n = 4096 would look like n = 0) and can_send returns false, as it must.
    /// Hot path: O(1), no allocation.
    /// available() <= 2048 by the class invariant, so this is the modular IB rule without
    /// its aliasing for blocks >= available() + 2048.
    bool can_send(uint32_t blocks) const { return blocks <= available(); }
    /// Records a sent packet (FCTBS += n mod 4096); throws std::logic_error if !can_send(blocks):
    /// "credit underflow on send: 70 blocks requested, 64 available (FCTBS .., FCCL ..)".
    void on_send(uint32_t blocks) {
        if (!can_send(blocks)) throw_underflow(blocks);
        fctbs_ = fc_add(fctbs_, blocks);
    }
    /// Records an FC packet's FCCL (absolute, mod 4096). Throws std::logic_error if fccl is not
    /// a 12-bit value or if (fccl - FCTBS) mod 4096 > 2048, i.e. the new limit would be more
    /// than 2048 blocks ahead of FCTBS or behind it (a corrupt or out-of-range update).
    /// An update equal to the current FCCL is accepted (FC packets are absolute and repeat).
    void on_fccl(uint32_t fccl);
    uint32_t fctbs() const { return fctbs_; }
    uint32_t fccl() const { return fccl_; }
    /// Credits available now: (FCCL - FCTBS) mod 4096, valid when <= 2048.
    uint32_t available() const { return fc_sub(fccl_, fctbs_); }

private:
    [[noreturn]] void throw_underflow(uint32_t blocks) const;
    uint32_t fctbs_;
    uint32_t fccl_;
};

/// Receiver side of one VL: ABR (adjusted blocks received, mod 4096) and the buffer's free
/// blocks. FCCL = ABR + free, clamped to at most 2048 ahead of ABR.
class credit_receiver {
public:
    /// Empty buffer of capacity_blocks 64-byte blocks, ABR = 0. Any capacity is accepted
    /// (0 = a VL that never grants credit; > 2048 is legal, the advertisement is clamped).
    explicit credit_receiver(uint32_t capacity_blocks);
    /// A data packet of n blocks was accepted into the buffer. Throws std::logic_error if
    /// n exceeds the free blocks (buffer over capacity: the sender broke the credit rule).
    void on_receive(uint32_t blocks) {
        if (blocks > free_blocks()) throw_overflow(blocks);
        occupied_ += blocks;
        abr_ = fc_add(abr_, blocks);
    }
    /// n blocks left the buffer. Throws std::logic_error if more than occupied.
    void on_free(uint32_t blocks) {
        if (blocks > occupied_) throw_underflow(blocks);
        occupied_ -= blocks;
    }
    /// An FC packet from the sender carried FCTBS: ABR := FCTBS. Returns true if ABR already
    /// equalled FCTBS (no blocks lost on the link), false if it had to be repaired (the lost
    /// blocks' credits come back to the sender through the next FCCL). Throws std::logic_error
    /// if fctbs is not a 12-bit value.
    bool on_fctbs(uint32_t fctbs);
    /// The credit limit to advertise now: (ABR + min(free_blocks, 2048)) mod 4096.
    uint32_t fccl() const;
    /// A shared buffer (vl_buffer_pool.h) moves blocks between VLs: the capacity becomes
    /// `capacity_blocks`. Throws std::logic_error if that is below the occupied blocks.
    void set_capacity(uint32_t capacity_blocks) {
        if (capacity_blocks < occupied_) throw_capacity(capacity_blocks);
        capacity_ = capacity_blocks;
    }
    uint32_t abr() const { return abr_; }
    uint32_t capacity() const { return capacity_; }
    uint32_t occupied() const { return occupied_; }
    uint32_t free_blocks() const { return capacity_ - occupied_; }

private:
    [[noreturn]] void throw_overflow(uint32_t blocks) const;
    [[noreturn]] void throw_underflow(uint32_t blocks) const;
    [[noreturn]] void throw_capacity(uint32_t capacity_blocks) const;
    uint32_t capacity_;
    uint32_t occupied_ = 0;
    uint32_t abr_ = 0;
};

}  // namespace ndr::golden
