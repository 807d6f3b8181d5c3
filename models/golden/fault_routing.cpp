// Reroute around dead cables. Rules in fault_routing.h.
#include "golden/fault_routing.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

#include <fmt/format.h>

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

std::vector<lft> reroute_lfts(const topology& t, const std::vector<lft>& lfts,
                              const std::vector<topo_port_ref>& dead) {
    if (lfts.size() != t.switches.size()) {
        throw std::invalid_argument(
            fmt::format("reroute_lfts: {} LFTs for {} switches", lfts.size(), t.switches.size()));
    }
    const topology live = without_cables(t, dead);
    const std::size_t n_sw = live.switches.size();
    uint32_t max_level = 0;
    for (const topo_switch& s : live.switches) max_level = std::max(max_level, s.level);
    // Switches by level, low to high.
    std::vector<std::vector<uint32_t>> by_level(max_level + 1);
    for (uint32_t s = 0; s < n_sw; ++s) by_level[live.switches[s].level].push_back(s);
    const auto is_up = [&](uint32_t s, uint32_t p) {
        const topo_peer& pe = live.switches[s].peers[p];
        return pe.kind == topo_peer_kind::sw &&
               live.switches[pe.node].level == live.switches[s].level + 1;
    };
    const auto is_down = [&](uint32_t s, uint32_t p) {
        const topo_peer& pe = live.switches[s].peers[p];
        return pe.kind == topo_peer_kind::sw &&
               live.switches[pe.node].level + 1 == live.switches[s].level;
    };

    std::vector<lft> out = lfts;
    std::vector<char> down_ok(n_sw);
    std::vector<char> reach(n_sw);
    std::vector<uint8_t> cand;
    for (uint32_t d = 0; d < live.hosts; ++d) {
        const uint16_t dlid = static_cast<uint16_t>(d + 1);
        const topo_port_ref home = live.host_attach[d];
        std::fill(down_ok.begin(), down_ok.end(), 0);
        down_ok[home.node] = 1;
        for (uint32_t lv = 1; lv <= max_level; ++lv) {
            for (const uint32_t s : by_level[lv]) {
                for (uint32_t p = 0; p < live.switches[s].radix && !down_ok[s]; ++p) {
                    down_ok[s] = is_down(s, p) && down_ok[live.switches[s].peers[p].node];
                }
            }
        }
        for (uint32_t lv = max_level + 1; lv-- > 0;) {
            for (const uint32_t s : by_level[lv]) {
                reach[s] = down_ok[s];
                for (uint32_t p = 0; p < live.switches[s].radix && !reach[s]; ++p) {
                    reach[s] = is_up(s, p) && reach[live.switches[s].peers[p].node];
                }
            }
        }
        for (uint32_t s = 0; s < n_sw; ++s) {
            if (s == home.node || !reach[s]) continue;  // host port; or unreachable: keep
            const bool down = down_ok[s] != 0;
            const auto good = [&](uint32_t p) {
                if (p >= live.switches[s].radix) return false;
                const uint32_t peer = live.switches[s].peers[p].node;
                return down ? is_down(s, p) && down_ok[peer] : is_up(s, p) && reach[peer];
            };
            if (good(out[s].port(dlid))) continue;
            cand.clear();
            for (uint32_t p = 0; p < live.switches[s].radix; ++p) {
                if (good(p)) cand.push_back(static_cast<uint8_t>(p));
            }
            out[s].set(dlid, cand[d % cand.size()]);  // reach(s): at least one
        }
    }
    return out;
}

}  // namespace ndr::golden
