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

uint64_t rc_ack_deadline(uint64_t oldest_sent, uint64_t last_progress, uint64_t timeout) {
    return std::max(oldest_sent, last_progress) + timeout;
}

}  // namespace ndr::golden
