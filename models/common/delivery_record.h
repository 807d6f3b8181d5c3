// What a synthetic-traffic sink does with each delivered packet, for the cycle-level and TLM
// endpoints alike: the lossless checks (right destination; per (source, SL) flow sequence: no
// drop, duplicate or reorder) and the statistics of endpoint_stats.
#pragma once
#include <cstdint>
#include <vector>

#include "common/cycles.h"
#include "common/endpoint_stats.h"

namespace ndr::tb {

using common::cycle_t;

/// The fields of a delivered packet that the sink looks at.
struct delivered {
    uint64_t id = 0;
    uint64_t created = 0;
    uint32_t flow_seq = 0;
    uint32_t wire_bytes = 0;
    uint16_t beats = 0;
    uint16_t src = 0;
    uint16_t dst = 0;
    uint8_t sl = 0;
    uint8_t vl = 0;
    bool tagged = false;
};

/// Out of line: the error paths and histogram growth of record_delivery.
[[noreturn]] void throw_misrouted(cycle_t t, uint16_t e, const delivered& p);
[[noreturn]] void throw_flow_seq(cycle_t t, uint16_t e, const delivered& p, uint32_t expect);
void grow_latency_hist(std::vector<uint64_t>& h, uint64_t lat);
/// At the end of a run: stats.latency_hist = the sum of the per-VL histograms (record_delivery
/// counts each packet once, in its VL's histogram).
void finish_latency_hist(endpoint_stats& stats);

/// Checks (when `check`) and records the delivery of `p` at endpoint `e` in cycle `t`.
/// recv_seq (16 * ports * ports entries) is indexed [(sl * ports + e) * ports + src]: one
/// destination's flows of one SL are contiguous, so a sink touches few cache lines. Throws
/// common::invariant_error.
/// Inline: called once per delivered packet.
inline void record_delivery(endpoint_stats& stats, std::vector<uint32_t>& recv_seq, uint32_t ports,
                            bool check, cycle_t win_start, cycle_t win_end, cycle_t t, uint16_t e,
                            const delivered& p) {
    if (check) {
        if (p.dst != e) throw_misrouted(t, e, p);
        uint32_t& expect = recv_seq[(std::size_t{p.sl} * ports + e) * ports + p.src];
        if (p.flow_seq != expect) throw_flow_seq(t, e, p, expect);
        ++expect;
    }
    ++stats.delivered;
    batch_record& b = stats.batch;
    if (b.len == 0)
        b.setup(win_start, win_end, static_cast<uint32_t>(stats.vl_delivered_beats.size()));
    if (t >= win_start && t < win_end) {
        ++stats.window_delivered;
        const uint32_t i = b.window_index(t, win_start);
        b.beats[i] += p.beats;
        b.vl_beats[p.vl][i] += p.beats;
        stats.port_delivered_beats[e] += p.beats;
        stats.vl_delivered_beats[p.vl] += p.beats;
        stats.vl_delivered_bytes[p.vl] += p.wire_bytes;
    }
    const uint64_t lat = t - p.created;
    if (p.tagged || (p.created >= b.origin && p.created < win_start)) {
        const uint32_t i = p.tagged ? b.pre + b.window_index(p.created, win_start)
                                    : static_cast<uint32_t>((p.created - b.origin) / b.len);
        b.lat_sum[i] += lat;
        ++b.lat_n[i];
    }
    if (p.tagged) {
        ++stats.tagged_delivered;
        const auto count = [lat](std::vector<uint64_t>& h) {
            if (lat >= h.size()) grow_latency_hist(h, lat);
            ++h[lat];
        };
        count(stats.vl_latency_hist[p.vl]);  // the total is their sum: finish_latency_hist
    }
}

}  // namespace ndr::tb
