// Reroute around dead cables. Rules in fault_routing.h.
#include "golden/fault_routing.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include <fmt/format.h>

#include "golden/multipath_groups.h"

namespace ndr::golden {

topology without_cables(const topology& t, const std::vector<topo_port_ref>& ends) {
    topology out = t;
    for (const topo_port_ref& e : ends) {
        if (e.node >= out.switches.size() || e.port >= out.switches[e.node].peers.size() ||
            t.switches[e.node].peers[e.port].kind == topo_peer_kind::none) {
            throw std::invalid_argument(
                fmt::format("without_cables: switch {} port {} is not cabled", e.node, e.port));
        }
        topo_peer& p = out.switches[e.node].peers[e.port];
        if (p.kind == topo_peer_kind::none) continue;  // both ends named
        if (p.kind == topo_peer_kind::sw) out.switches[p.node].peers[p.port] = topo_peer{};
        p = topo_peer{};
    }
    out.links.erase(std::remove_if(out.links.begin(), out.links.end(),
                                   [&](const topo_link& l) {
                                       const bool a_gone =
                                           !l.a_is_host && out.switches[l.a].peers[l.a_port].kind ==
                                                               topo_peer_kind::none;
                                       return a_gone || out.switches[l.b].peers[l.b_port].kind ==
                                                            topo_peer_kind::none;
                                   }),
                    out.links.end());
    return out;
}

namespace {

/// Which switches still reach one destination over the live fabric, and by which ports
/// (down_ok, reach and the good ports of the rules in fault_routing.h).
class live_reach {
public:
    explicit live_reach(const topology& live) : t_(live) {
        uint32_t max_level = 0;
        for (const topo_switch& s : t_.switches) max_level = std::max(max_level, s.level);
        by_level_.resize(max_level + 1);
        for (uint32_t s = 0; s < t_.switches.size(); ++s) {
            by_level_[t_.switches[s].level].push_back(s);
        }
        down_ok_.resize(t_.switches.size());
        reach_.resize(t_.switches.size());
    }

    /// Computes down_ok and reach for destination host d.
    void compute(uint32_t d) {
        home_ = t_.host_attach[d].node;
        std::fill(down_ok_.begin(), down_ok_.end(), 0);
        down_ok_[home_] = 1;
        const auto max_level = static_cast<uint32_t>(by_level_.size() - 1);
        for (uint32_t lv = 1; lv <= max_level; ++lv) {
            for (const uint32_t s : by_level_[lv]) {
                for (uint32_t p = 0; p < t_.switches[s].radix && !down_ok_[s]; ++p) {
                    down_ok_[s] = is_down(s, p) && down_ok_[t_.switches[s].peers[p].node];
                }
            }
        }
        for (uint32_t lv = max_level + 1; lv-- > 0;) {
            for (const uint32_t s : by_level_[lv]) {
                reach_[s] = down_ok_[s];
                for (uint32_t p = 0; p < t_.switches[s].radix && !reach_[s]; ++p) {
                    reach_[s] = is_up(s, p) && reach_[t_.switches[s].peers[p].node];
                }
            }
        }
    }

    /// Switch s routes to the destination by its LFT/AR choice (not its leaf, not cut off).
    bool routes(uint32_t s) const { return s != home_ && reach_[s] != 0; }

    /// Port p of switch s leads to the destination on an up*/down* path (s routes()).
    bool good(uint32_t s, uint32_t p) const {
        if (p >= t_.switches[s].radix) return false;
        const uint32_t peer = t_.switches[s].peers[p].node;
        return down_ok_[s] != 0 ? is_down(s, p) && down_ok_[peer] : is_up(s, p) && reach_[peer];
    }

private:
    bool is_up(uint32_t s, uint32_t p) const {
        const topo_peer& pe = t_.switches[s].peers[p];
        return pe.kind == topo_peer_kind::sw &&
               t_.switches[pe.node].level == t_.switches[s].level + 1;
    }
    bool is_down(uint32_t s, uint32_t p) const {
        const topo_peer& pe = t_.switches[s].peers[p];
        return pe.kind == topo_peer_kind::sw &&
               t_.switches[pe.node].level + 1 == t_.switches[s].level;
    }

    const topology& t_;
    std::vector<std::vector<uint32_t>> by_level_;  ///< switches by level, low to high
    std::vector<char> down_ok_;
    std::vector<char> reach_;
    uint32_t home_ = 0;
};

}  // namespace

std::vector<lft> reroute_lfts(const topology& t, const std::vector<lft>& lfts,
                              const std::vector<topo_port_ref>& dead) {
    if (lfts.size() != t.switches.size()) {
        throw std::invalid_argument(
            fmt::format("reroute_lfts: {} LFTs for {} switches", lfts.size(), t.switches.size()));
    }
    const topology live = without_cables(t, dead);
    live_reach r(live);
    std::vector<lft> out = lfts;
    std::vector<uint8_t> cand;
    for (uint32_t d = 0; d < live.hosts; ++d) {
        const uint16_t dlid = static_cast<uint16_t>(d + 1);
        r.compute(d);
        for (uint32_t s = 0; s < live.switches.size(); ++s) {
            if (!r.routes(s)) continue;  // host port; or unreachable: keep
            if (r.good(s, out[s].port(dlid))) continue;
            cand.clear();
            for (uint32_t p = 0; p < live.switches[s].radix; ++p) {
                if (r.good(s, p)) cand.push_back(static_cast<uint8_t>(p));
            }
            out[s].set(dlid, cand[d % cand.size()]);  // reach(s): at least one
        }
    }
    return out;
}

std::vector<std::vector<uint64_t>> reroute_ar_groups(const topology& t,
                                                     const std::vector<topo_port_ref>& dead) {
    const topology live = without_cables(t, dead);
    live_reach r(live);
    std::vector<std::vector<uint64_t>> out(live.switches.size(),
                                           std::vector<uint64_t>(live.hosts, 0));
    for (uint32_t d = 0; d < live.hosts; ++d) {
        r.compute(d);
        for (uint32_t s = 0; s < live.switches.size(); ++s) {
            if (!r.routes(s)) continue;
            uint64_t m = 0;
            for (uint32_t p = 0; p < live.switches[s].radix && p < 64; ++p) {
                if (r.good(s, p)) m |= uint64_t{1} << p;
            }
            out[s][d] = m;
        }
    }
    return out;
}

std::vector<std::vector<uint64_t>> reroute_ecmp(const topology& t,
                                                const std::vector<topo_port_ref>& dead, bool down) {
    std::vector<std::vector<uint64_t>> out = reroute_ar_groups(t, dead);
    if (down) return out;  // the good ports are up ports or down ports, never both
    const topology live = without_cables(t, dead);
    for (uint32_t s = 0; s < out.size(); ++s) {
        const uint64_t up = up_port_mask(live, s);
        for (uint64_t& m : out[s]) m &= up;
    }
    return out;
}

}  // namespace ndr::golden
