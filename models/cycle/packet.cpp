#include "cycle/packet.h"

#include <fmt/format.h>

#include <stdexcept>

#include "common/invariant_error.h"

namespace ndr::cycle {

using common::invariant_error;

uint32_t packet_pool::alloc_slow() {
    if (live_ >= limit_) {
        throw invariant_error(fmt::format(
            "{} packets alive at once (source queues growing without bound): the offered load is "
            "far above what the fabric accepts; shorten the run or lower the load",
            live_));
    }
    uint32_t idx;
    if (!free_.empty()) {
        idx = free_.back();
        free_.pop_back();
    } else {
        idx = static_cast<uint32_t>(pkts_.size());
        pkts_.emplace_back();
        links_.emplace_back();
    }
    packet& p = pkts_[idx];
    p = packet{};
    p.live = 1;
    ++live_;
    return idx;
}

void throw_packet_too_big(uint64_t bytes) {
    throw std::length_error(fmt::format(
        "packet of {} bytes: the cycle models hold packet sizes up to 65535 bytes", bytes));
}

void packet_pool::throw_double_free(uint32_t idx) const {
    throw invariant_error(
        fmt::format("packet {} freed twice (duplicated delivery)", pkts_[idx].id));
}

}  // namespace ndr::cycle
