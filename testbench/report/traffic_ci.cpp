#include "traffic_ci.h"

#include <algorithm>

#include "common/batch_means.h"

namespace ndr::tb {

using nlohmann::json;

namespace {

json half_width_or_null(const std::vector<double>& x) {
    if (x.size() < 2) return nullptr;
    return common::mean_ci95(x).half_width;
}

}  // namespace

traffic_ci traffic_intervals(const endpoint_stats& ep, uint64_t warmup_cycles,
                             uint64_t window_cycles, uint32_t ports, double cycle_ns) {
    traffic_ci r;
    const batch_record& b = ep.batch;
    constexpr uint32_t nb = batch_record::batches;
    constexpr uint32_t ns = batch_record::sub;
    r.vl_share_ci95.assign(ep.vl_delivered_beats.size(), json(nullptr));
    r.latency_mean_ci95 = nullptr;
    r.accepted_load_ci95 = nullptr;
    if (b.len == 0) {  // nothing was delivered
        r.warmup_check = {{"verdict", "undetermined"}, {"reason", "no packet delivered"}};
        return r;
    }
    r.batch_cycles = b.len * ns;
    // Window batches: latency by creation, throughput and VL shares by delivery.
    std::vector<double> lat;
    std::vector<double> acc;
    std::vector<std::vector<double>> share(ep.vl_delivered_beats.size());
    for (uint32_t k = 0; k < nb; ++k) {
        uint64_t sum = 0;
        uint64_t n = 0;
        uint64_t beats = 0;
        std::vector<uint64_t> vl(share.size(), 0);
        for (uint32_t s = k * ns; s < (k + 1) * ns; ++s) {
            sum += b.lat_sum[b.pre + s];
            n += b.lat_n[b.pre + s];
            beats += b.beats[s];
            for (std::size_t v = 0; v < vl.size(); ++v) vl[v] += b.vl_beats[v][s];
        }
        const uint64_t cycles =
            k + 1 < nb ? r.batch_cycles : window_cycles - (nb - 1) * r.batch_cycles;
        if (n > 0) lat.push_back(static_cast<double>(sum) / static_cast<double>(n) * cycle_ns);
        acc.push_back(static_cast<double>(beats) /
                      (static_cast<double>(ports) * static_cast<double>(cycles)));
        for (std::size_t v = 0; v < vl.size() && beats > 0; ++v) {
            share[v].push_back(static_cast<double>(vl[v]) / static_cast<double>(beats));
        }
    }
    r.latency_batches = static_cast<unsigned>(lat.size());
    r.latency_mean_ci95 = half_width_or_null(lat);
    r.accepted_load_ci95 = half_width_or_null(acc);
    for (std::size_t v = 0; v < share.size(); ++v)
        r.vl_share_ci95[v] = half_width_or_null(share[v]);

    // Warm-up check: MSER-5 over the latency series from the first whole batch of the warm-up
    // to the end of the window, batches of 5 sub-batches (empty batches skipped).
    std::vector<double> series;
    std::vector<uint64_t> start;  // first cycle of each series entry
    for (uint32_t k = 0; k < b.pre / ns + nb; ++k) {
        uint64_t sum = 0;
        uint64_t n = 0;
        for (uint32_t s = k * ns; s < (k + 1) * ns; ++s) {
            sum += b.lat_sum[s];
            n += b.lat_n[s];
        }
        if (n == 0) continue;
        series.push_back(static_cast<double>(sum) / static_cast<double>(n));
        start.push_back(b.origin + uint64_t{k} * r.batch_cycles);
    }
    if (series.size() < 2 * ns) {
        r.warmup_check = {{"verdict", "undetermined"},
                          {"reason", "fewer than 10 batches with latency samples"},
                          {"series_batches", series.size()}};
        return r;
    }
    const std::size_t d = common::mser_truncation(series);
    const uint64_t cut = start[d];
    const bool at_limit = d == series.size() / 2 && d > 0;
    const bool short_warmup = cut > warmup_cycles;
    r.warmup_check = {
        {"method", "MSER-5"},
        {"verdict", short_warmup ? "too_short" : "ok"},
        {"series_start_cycle", b.origin},
        {"series_batches", series.size()},
        {"truncation_batches", d},
        {"truncation_cycle", cut},
        {"at_search_limit", at_limit},
        {"suggested_warmup_cycles", short_warmup ? json(cut) : json(nullptr)},
    };
    return r;
}

}  // namespace ndr::tb
