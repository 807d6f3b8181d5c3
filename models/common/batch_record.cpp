#include "common/batch_record.h"

#include <algorithm>

namespace ndr::tb {

void batch_record::setup(uint64_t win_start, uint64_t win_end, uint32_t vls) {
    const uint64_t n = uint64_t{batches} * sub;
    len = std::max<uint64_t>(1, (win_end - win_start) / n);
    const uint64_t whole = win_start / (len * sub);  // whole batches that fit in the warm-up
    pre = static_cast<uint32_t>(whole * sub);
    origin = win_start - uint64_t{pre} * len;
    lat_sum.assign(pre + n, 0);
    lat_n.assign(pre + n, 0);
    beats.assign(n, 0);
    vl_beats.assign(vls, std::vector<uint64_t>(n, 0));
}

}  // namespace ndr::tb
