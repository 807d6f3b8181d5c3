// RC acknowledgement rules (IBA Vol. 1 §9.7.5, §9.7.6): when a requester sets AckReq, when a
// responder sends a (coalesced) ACK, and when the requester's transport timer (the local ACK
// timeout) expires. SystemC-free; used by the cycle-level HCA (models/cycle/hca_*.cpp) and the
// TLM HCA (tlm/hca_tlm_*.cpp) so the two levels acknowledge the same packets.
#pragma once
#include <cstdint>

namespace ndr::golden {

/// Requester: the AckReq bit of a data packet. Set on the last packet of a message (its
/// completion waits for that ACK) and on the packet that fills the send window
/// (`outstanding_after`, the unacknowledged packets once it is sent, reaches `max_outstanding`):
/// the requester can send nothing more until an ACK arrives, so it asks for one instead of
/// relying on the responder's every-N coalescing. A retransmitted packet keeps its bit.
[[nodiscard]] bool rc_ack_req(bool last_of_message, uint64_t outstanding_after,
                              uint64_t max_outstanding);

/// Responder: ACK coalescing of one queue pair. An ACK for the packet just accepted in order
/// goes out if the packet has AckReq set or `coalesce` packets have been accepted since the
/// last ACK; an ACK covers every PSN up to its own, so it never holds back one a requester waits
/// for (those carry AckReq).
class rc_ack_coalescer {
public:
    /// One packet accepted in PSN order; true: acknowledge it now (and restart the count).
    bool on_accept(bool ack_req, uint32_t coalesce);
    /// What `count` on_accept calls in a row do (a TLM burst; only the last may carry AckReq):
    /// how many of its packets are acknowledged and the index of the last one (valid if acks >
    /// 0), in O(1).
    struct run_acks {
        uint32_t acks = 0;
        uint32_t last = 0;
    };
    run_acks on_accept_run(uint32_t count, bool last_ack_req, uint32_t coalesce);
    /// Packets accepted since the last ACK.
    uint32_t pending() const { return pending_; }

private:
    uint32_t pending_ = 0;
};

/// Requester: the cycle the transport timer of a queue pair expires, measured as IBA's local
/// ACK timeout is: it runs from the (re)transmission of the oldest unacknowledged packet and is
/// restarted by every ACK that makes forward progress. `oldest_sent` is the cycle the oldest
/// unacknowledged packet was last transmitted, `last_progress` the cycle of the last ACK or NAK
/// that retired packets (0: none yet).
[[nodiscard]] uint64_t rc_ack_deadline(uint64_t oldest_sent, uint64_t last_progress,
                                       uint64_t timeout);

}  // namespace ndr::golden
