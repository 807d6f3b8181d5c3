#include "common/traffic_pattern.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "config/config_error.h"
#include "config/weighted_list.h"

namespace ndr::tb {

weighted_choice weighted_choice::parse(const std::string& text, const std::string& key) {
    std::vector<cfg::weighted_value> items;
    try {
        items = cfg::parse_weighted_list(text, 0, 0xFFFFFFFFULL);
    } catch (const cfg::config_error& e) {
        throw cfg::config_error(cfg::config_source{}, key, e.reason);
    }
    weighted_choice w;
    double sum = 0.0;
    for (const auto& it : items) sum += it.weight;
    double acc = 0.0;
    for (const auto& it : items) {
        w.values.push_back(static_cast<uint32_t>(it.value));
        acc += it.weight / sum;
        w.cumulative.push_back(acc);
    }
    w.cumulative.back() = 1.0;
    return w;
}

std::size_t weighted_choice::pick_index(rng& r) const {
    if (values.size() == 1) return 0;
    const double u = r.uniform();
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
    return std::min<std::size_t>(static_cast<std::size_t>(it - cumulative.begin()),
                                 values.size() - 1);
}

double weighted_choice::mean(const std::vector<double>& mapped) const {
    double m = 0.0;
    double prev = 0.0;
    for (std::size_t i = 0; i < mapped.size(); ++i) {
        m += mapped[i] * (cumulative[i] - prev);
        prev = cumulative[i];
    }
    return m;
}

std::vector<uint32_t> random_derangement(uint32_t n, uint64_t seed) {
    rng r(seed, 0xFFFF'0001ULL);
    std::vector<uint32_t> perm(n);
    for (uint32_t i = 0; i < n; ++i) perm[i] = i;
    bool ok = n < 2;
    while (!ok) {  // shuffle until no element stays in place
        for (uint32_t i = n - 1; i > 0; --i) std::swap(perm[i], perm[r.below(i + 1)]);
        ok = true;
        for (uint32_t i = 0; i < n; ++i) ok = ok && perm[i] != i;
    }
    return perm;
}

traffic_pattern::traffic_pattern(const cfg::config& c, uint32_t ports)
    : name_(c.traffic.pattern),
      ports_(ports),
      hot_(c.traffic.hot_port),
      hot_fraction_(c.traffic.hotspot_fraction),
      source_(ports, 1) {
    kind_ = name_ == "permutation" ? kind::permutation
            : name_ == "hotspot"   ? kind::hotspot
            : name_ == "incast"    ? kind::incast
            : name_ == "bitcomp"   ? kind::bitcomp
                                   : kind::uniform;
    if (hot_ >= ports) {
        throw cfg::config_error(fmt::format(
            "traffic.hot_port: port {} does not exist on a {}-port switch", hot_, ports));
    }
    if (name_ == "permutation") {
        perm_ = random_derangement(ports, c.sim.seed);
    } else if (name_ == "bitcomp") {
        if ((ports & (ports - 1)) != 0) {
            throw cfg::config_error(fmt::format(
                "traffic.pattern: bitcomp needs a power-of-two port count, got {}", ports));
        }
    } else if (name_ == "incast") {
        const uint32_t n = c.traffic.incast_sources == 0 ? ports - 1 : c.traffic.incast_sources;
        if (n > ports - 1) {
            throw cfg::config_error(
                fmt::format("traffic.incast_sources: {} sources need {} ports, the switch has {}",
                            n, n + 1, ports));
        }
        std::fill(source_.begin(), source_.end(), 0);
        uint32_t k = 0;
        for (uint32_t p = 0; p < ports && k < n; ++p) {
            if (p == hot_) continue;
            source_[p] = 1;
            ++k;
        }
    }
}

uint32_t traffic_pattern::dest_other(uint32_t src, rng& r) const {
    switch (kind_) {
        case kind::permutation:
            return perm_[src];
        case kind::bitcomp:
            return ~src & (ports_ - 1);
        case kind::incast:
            return hot_;
        case kind::hotspot:
            if (src != hot_ && r.uniform() < hot_fraction_) return hot_;
            break;
        case kind::uniform:
            break;
    }
    return uniform_other(src, r);
}

}  // namespace ndr::tb
