#include "delivery_record.h"

#include <fmt/format.h>

#include "cycle/invariant_error.h"

namespace ndr::tb {

void record_delivery(endpoint_stats& stats, std::vector<uint32_t>& recv_seq, uint32_t ports,
                     bool check, cycle_t win_start, cycle_t win_end, cycle_t t, uint16_t e,
                     const delivered& p) {
    if (check) {
        if (p.dst != e) {
            throw cycle::invariant_error(fmt::format(
                "cycle {}: packet {} for endpoint {} delivered to endpoint {} (misrouted)", t,
                p.id, p.dst, e));
        }
        uint32_t& expect = recv_seq[(std::size_t{e} * ports + p.src) * 16 + p.sl];
        if (p.flow_seq != expect) {
            throw cycle::invariant_error(fmt::format(
                "cycle {}: endpoint {} got packet #{} of flow {}->{} SL {}, expected #{}: {}", t,
                e, p.flow_seq, p.src, e, p.sl, expect,
                p.flow_seq > expect ? "a packet was dropped or reordered" : "duplicated"));
        }
        ++expect;
    }
    ++stats.delivered;
    if (t >= win_start && t < win_end) {
        ++stats.window_delivered;
        stats.port_delivered_beats[e] += p.beats;
        stats.vl_delivered_beats[p.vl] += p.beats;
        stats.vl_delivered_bytes[p.vl] += p.wire_bytes;
    }
    if (p.tagged) {
        ++stats.tagged_delivered;
        const uint64_t lat = t - p.created;
        const auto count = [lat](std::vector<uint64_t>& h) {
            if (lat >= h.size()) h.resize(lat + lat / 2 + 1, 0);
            ++h[lat];
        };
        count(stats.latency_hist);
        count(stats.vl_latency_hist[p.vl]);
    }
}

}  // namespace ndr::tb
