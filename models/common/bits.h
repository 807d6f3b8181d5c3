// Bit tricks for 64-port masks (one bit per port): the golden ones (models/golden/port_mask.h),
// under the cycle model's namespace.
#pragma once
#include "golden/port_mask.h"

namespace ndr::common {

using golden::bit;
using golden::for_each_bit;
using golden::rr_pick;

}  // namespace ndr::common
