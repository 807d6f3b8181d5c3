// Link utilisation samples of a trace run, shared by the cycle-level and TLM runs (run_sim.cpp,
// run_sim_tlm.cpp). Automatic (report.utilisation_interval = 0): samples start at 1 us and the
// resolution halves (pairs are merged) whenever a series would exceed sampler_cap points, so long
// runs stay small. A fixed period is kept until a series would exceed its cap, then halves the
// same way (memory stays bounded whatever the period and the fabric).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "run_outcome.h"

namespace ndr::tb {

/// Points per series before the automatic resolution halves (report.utilisation_interval 0),
/// and with a fixed period.
inline constexpr std::size_t sampler_max_samples = 2000;
inline constexpr std::size_t sampler_max_fixed_samples = 1'000'000;
/// All series together hold at most this many points: automatic, and with a fixed period.
inline constexpr std::size_t sampler_budget = 4096 * sampler_max_samples;
inline constexpr std::size_t sampler_fixed_budget = 128 * sampler_max_fixed_samples;

/// Points per series before the resolution halves on a fabric of `links` one-way links: the
/// limits above, or fewer where the links would together exceed the budget (automatic: more
/// than 4,096 links, e.g. 1,024 hosts on 2 fat-tree levels; at least 250 points).
inline std::size_t sampler_cap(std::size_t links, bool fixed) {
    const std::size_t l = links == 0 ? 1 : links;
    return fixed ? std::clamp<std::size_t>(sampler_fixed_budget / l, 2 * sampler_max_samples,
                                           sampler_max_fixed_samples)
                 : std::clamp<std::size_t>(sampler_budget / l, 250, sampler_max_samples);
}

/// The first sample interval in cycles: report.utilisation_interval `period_ps` rounded to whole
/// cycles (at least one), or 1 us when it is 0 (automatic).
inline uint64_t sampler_interval(uint64_t cycle_ps, uint64_t period_ps) {
    return std::max<uint64_t>(
        1, period_ps == 0 ? 1'000'000 / cycle_ps : (period_ps + cycle_ps / 2) / cycle_ps);
}

/// How many samples (take() calls) a run of `span_cycles` makes, starting at `interval` cycles
/// with series of at most `cap` points (the halving rule of link_sampler::take): for estimating
/// the sampler's cost before a run (testbench/sim/level_cost.cpp).
inline double sampler_takes(double span_cycles, uint64_t interval, std::size_t cap) {
    double taken = 0;
    double done = 0;
    double held = 0;
    auto iv = static_cast<double>(interval);
    while (done < span_cycles) {
        const double n =
            std::min(static_cast<double>(cap) - held, std::ceil((span_cycles - done) / iv));
        taken += n;
        done += n * iv;
        held += n;
        if (held >= static_cast<double>(cap)) {  // take() merges pairs and doubles the interval
            held = std::floor(held / 2);
            iv *= 2;
        }
    }
    return taken;
}

template <class Fabric>
class link_sampler {
public:
    /// `period_ps`: report.utilisation_interval (0 = automatic), rounded to whole cycles.
    link_sampler(const Fabric& f, std::vector<link_sample_series>& series, uint64_t cycle_ps,
                 uint64_t period_ps = 0)
        : f_(f),
          series_(series),
          interval_(sampler_interval(cycle_ps, period_ps)),
          cap_(sampler_cap(f.links().size(), period_ps != 0)),
          last_(f.links().size(), 0) {
        series_.resize(f.links().size());
        beats_.reserve(f.links().size());
        free_.reserve(f.links().size());
        for (std::size_t i = 0; i < f.links().size(); ++i) {
            series_[i].name = f.links()[i].name;
            series_[i].tier = f.links()[i].tier;
            beats_.push_back(f.link_beats_at(f.links()[i]));
            free_.push_back(f.link_free_at(f.links()[i]));
        }
    }

    /// Cycles of the current sample interval: run this many, then call take().
    [[nodiscard]] uint64_t interval() const { return interval_; }

    /// Records one sample per link at cycle `now`: beats on the wire in the last interval /
    /// interval. Devices count a packet's beats when they commit it to the link (up to
    /// switch.output_buffer ahead); those not yet sent at `now` belong to later samples, so a
    /// link never reads above 1 (a saturated one reads exactly 1). At the TLM level an express
    /// ACK rides between two packets of a burst without lengthening it (fidelity_tlm.md), so a
    /// full interval can hold a few beats more than cycles: those carry to the next sample.
    /// Samples are held one row per take (all links side by side, written in order, in blocks
    /// of BLOCK_ROWS rows) until finish() hands them to the series.
    void take(uint64_t now) {
        const std::size_t links = f_.links().size();
        if (links == 0) return;
        if (rows_ % BLOCK_ROWS == 0) {
            blocks_.emplace_back();
            blocks_.back().reserve(BLOCK_ROWS * links);
        }
        std::vector<float>& blk = blocks_.back();
        // Beats per interval are at most interval_ (< 2^63): exact through int64_t, cheaper to
        // convert than an unsigned 64-bit value, the same double.
        const auto iv = static_cast<double>(static_cast<int64_t>(interval_));
        for (std::size_t i = 0; i < links; ++i) {
            // Beats committed so far, less those whose wire time is still ahead of `now`.
            const uint64_t total = *beats_[i];
            const uint64_t free = *free_[i];
            const uint64_t unsent = std::min(total, free > now ? free - now : 0);
            const uint64_t b = std::clamp(total - unsent, last_[i], last_[i] + interval_);
            blk.push_back(
                static_cast<float>(static_cast<double>(static_cast<int64_t>(b - last_[i])) / iv));
            last_[i] = b;
        }
        if (++rows_ < cap_) return;
        // Merge pairs of rows in place (an odd last row is dropped), halving the resolution.
        const std::size_t n = rows_ / 2;
        for (std::size_t r = 0; r < n; ++r) {
            const float* a = row(2 * r);
            const float* b = row(2 * r + 1);
            float* o = row(r);
            for (std::size_t i = 0; i < links; ++i) o[i] = (a[i] + b[i]) / 2.0F;
        }
        rows_ = n;
        blocks_.resize((n + BLOCK_ROWS - 1) / BLOCK_ROWS);
        if (n % BLOCK_ROWS != 0) blocks_.back().resize((n % BLOCK_ROWS) * links);
        interval_ *= 2;
    }

    /// Moves the samples into the series (one per link, in time order), releasing each block
    /// of rows once copied. Call once, after the last take().
    void finish() {
        const std::size_t links = f_.links().size();
        for (std::size_t i = 0; i < links; ++i) series_[i].utilisation.reserve(rows_);
        for (std::vector<float>& blk : blocks_) {
            for (std::size_t r = 0; r * links < blk.size(); ++r) {
                for (std::size_t i = 0; i < links; ++i) {
                    series_[i].utilisation.push_back(blk[r * links + i]);
                }
            }
            std::vector<float>().swap(blk);
        }
        blocks_.clear();
        rows_ = 0;
    }

private:
    static constexpr std::size_t BLOCK_ROWS = 32;
    float* row(std::size_t r) {
        return &blocks_[r / BLOCK_ROWS][(r % BLOCK_ROWS) * f_.links().size()];
    }

    const Fabric& f_;
    std::vector<link_sample_series>& series_;
    uint64_t interval_;
    std::size_t cap_;
    std::vector<uint64_t> last_;
    std::vector<const uint64_t*> beats_;  ///< per link: f.link_beats_at
    std::vector<const uint64_t*> free_;   ///< per link: f.link_free_at
    std::vector<std::vector<float>> blocks_;  ///< rows of samples: row r, link i at
                                              ///< blocks_[r / BLOCK_ROWS][(r % BLOCK_ROWS) * links + i]
    std::size_t rows_ = 0;
};

}  // namespace ndr::tb
