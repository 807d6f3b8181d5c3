// Time at every level: whole beats ("cycles") of the switch datapath (common::timing::cycle_ps,
// 1.28 ns at 400 Gb/s). The cycle models count in it, and the TLM models schedule in it, so both
// levels round every latency identically.
#pragma once
#include <cstdint>

namespace ndr::common {

using cycle_t = uint64_t;

}  // namespace ndr::common
