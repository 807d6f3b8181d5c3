#include "common/delivery_record.h"

#include <fmt/format.h>

#include "common/invariant_error.h"

namespace ndr::tb {

void throw_misrouted(cycle_t t, uint16_t e, const delivered& p) {
    throw common::invariant_error(
        fmt::format("cycle {}: packet {} for endpoint {} delivered to endpoint {} (misrouted)", t,
                    p.id, p.dst, e));
}

void throw_flow_seq(cycle_t t, uint16_t e, const delivered& p, uint32_t expect) {
    throw common::invariant_error(
        fmt::format("cycle {}: endpoint {} got packet #{} of flow {}->{} SL {}, expected #{}: {}",
                    t, e, p.flow_seq, p.src, e, p.sl, expect,
                    p.flow_seq > expect ? "a packet was dropped or reordered" : "duplicated"));
}

void grow_latency_hist(std::vector<uint64_t>& h, uint64_t lat) {
    h.resize(lat + lat / 2 + 1, 0);
}

void finish_latency_hist(endpoint_stats& stats) {
    std::vector<uint64_t>& total = stats.latency_hist;
    total.clear();
    for (const std::vector<uint64_t>& h : stats.vl_latency_hist) {
        if (h.size() > total.size()) total.resize(h.size(), 0);
        for (std::size_t i = 0; i < h.size(); ++i) total[i] += h[i];
    }
}

}  // namespace ndr::tb
