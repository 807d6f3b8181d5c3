// A switch input buffer of one (port, VL): its credits (golden::credit_receiver) and its
// occupancy statistic in one cache line, since both change on every packet arrival and every
// crossbar transfer. The receive state of both switches' common::ib_ports (ib_port.h).
#pragma once
#include <cstdint>

#include "common/occupancy_stat.h"
#include "golden/credit_fc.h"

namespace ndr::common {

struct alignas(64) rx_buffer : golden::credit_receiver {
    explicit rx_buffer(uint32_t capacity_blocks) : golden::credit_receiver(capacity_blocks) {}
    occupancy_stat occ;
};

}  // namespace ndr::common
