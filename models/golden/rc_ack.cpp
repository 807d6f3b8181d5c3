#include "golden/rc_ack.h"

#include <algorithm>

namespace ndr::golden {

bool rc_ack_req(bool last_of_message, uint64_t outstanding_after, uint64_t max_outstanding) {
    return last_of_message || outstanding_after >= max_outstanding;
}

bool rc_ack_coalescer::on_accept(bool ack_req, uint32_t coalesce) {
    if (++pending_ < coalesce && !ack_req) return false;
    pending_ = 0;
    return true;
}

rc_ack_coalescer::run_acks rc_ack_coalescer::on_accept_run(uint32_t count, bool last_ack_req,
                                                           uint32_t coalesce) {
    run_acks r;
    if (count == 0) return r;
    // Packet j (0-based) is acknowledged by coalescing when the count since the last ACK reaches
    // `coalesce`: first at j0, then every `coalesce` packets (every packet if coalesce <= 1).
    const uint32_t c = std::max<uint32_t>(coalesce, 1);
    const uint32_t j0 = pending_ + 1 >= c ? 0 : c - pending_ - 1;
    if (j0 < count) {
        r.acks = 1 + (count - 1 - j0) / c;
        r.last = j0 + (r.acks - 1) * c;
        pending_ = count - 1 - r.last;
    } else {
        pending_ += count;
    }
    if (last_ack_req && (r.acks == 0 || r.last != count - 1)) {  // AckReq: the last one too
        ++r.acks;
        r.last = count - 1;
        pending_ = 0;
    }
    return r;
}

uint64_t rc_ack_deadline(uint64_t oldest_sent, uint64_t last_progress, uint64_t timeout) {
    return std::max(oldest_sent, last_progress) + timeout;
}

}  // namespace ndr::golden
