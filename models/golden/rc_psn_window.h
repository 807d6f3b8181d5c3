// RC responder PSN tracking (IBA Vol. 1 §9.7.5) with out-of-order placement for adaptive
// routing: ConnectX-5 and later place an RC packet that arrives ahead of the expected PSN
// directly in memory instead of NAKing it (docs/domain.md §4 "Adaptive routing (AR)"). One
// window per receiving queue pair; SystemC-free, used by the cycle HCA (models/cycle/hca_rx)
// and the TLM HCA (tlm/hca_tlm_rx), so both levels accept, drop and acknowledge the same packets.
//
// PSNs live modulo mask + 1 (0xFFFFFF on the wire; the TLM model counts them unwrapped).
// A packet (or a TLM burst of `count` consecutive PSNs starting at `psn`) is
//  * in_order: it starts at the expected PSN; the expected PSN moves past it and past every
//    PSN already placed out of order right after it (`advanced` counts them all);
//  * ahead: it starts after the expected PSN. With out-of-order placement on (routing.mode =
//    adaptive) and the packet not seen before, it is placed and remembered (`placed` true);
//    otherwise it is not accepted (without OOO: a gap, the responder NAKs; with OOO: a
//    duplicate of a placed packet, dropped);
//  * behind: a duplicate of something already accepted (the responder ACKs again).
#pragma once
#include <cstdint>
#include <vector>

namespace ndr::golden {

class rc_psn_window {
public:
    enum class verdict : uint8_t { in_order, ahead, behind };
    struct result {
        verdict v = verdict::in_order;
        bool placed = false;    ///< the packet's data are accepted (in order or out of order)
        uint32_t advanced = 0;  ///< PSNs the expected PSN moved by
    };

    explicit rc_psn_window(uint32_t mask = 0xFFFFFFU) : mask_(mask) {}

    /// One packet (count = 1) or a burst of consecutive PSNs arrives.
    result on_packet(uint32_t psn, uint32_t count, bool out_of_order);
    uint32_t expected() const { return expected_; }
    /// PSNs placed out of order beyond the expected PSN (0 when the window is in order).
    uint32_t placed_ahead() const { return ahead_count_; }

private:
    bool seen(uint32_t dist) const { return dist < ahead_.size() && ahead_[dist] != 0; }
    uint32_t mask_;
    uint32_t expected_ = 0;
    uint32_t ahead_count_ = 0;
    /// [d]: PSN expected_ + d was placed out of order (d >= 1; index 0 unused).
    std::vector<uint8_t> ahead_;
};

}  // namespace ndr::golden
