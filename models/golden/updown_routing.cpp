// Up/down d-mod-k routing, route tracing and the channel-dependency deadlock check.
// Rules in updown_routing.h.
#include "golden/updown_routing.h"

#include <algorithm>
#include <cstddef>
#include <deque>
#include <stdexcept>

#include <fmt/format.h>

namespace ndr::golden {

namespace {

constexpr int32_t NOT_ON_CHAIN = -1;

uint16_t dlid_of(uint32_t host) {
    return static_cast<uint16_t>(host + 1);
}

/// Checks the level structure up/down routing needs.
void check_levels(const topology& t) {
    for (const topo_link& l : t.links) {
        const uint32_t lb = t.switches[l.b].level;
        if (l.a_is_host) {
            if (lb != 0) {
                throw std::invalid_argument(fmt::format(
                    "compute_updown_lfts: host {} is attached to switch {} at level {} (not a "
                    "leaf)",
                    l.a, l.b, lb));
            }
        } else if (lb != t.switches[l.a].level + 1) {
            throw std::invalid_argument(fmt::format(
                "compute_updown_lfts: cable {}/{} - {}/{} joins levels {} and {} (must be "
                "adjacent)",
                l.a, l.a_port, l.b, l.b_port, t.switches[l.a].level, lb));
        }
    }
}

void check_lfts(const topology& t, const std::vector<lft>& lfts, const char* what) {
    if (lfts.size() != t.switches.size()) {
        throw std::invalid_argument(
            fmt::format("{}: {} LFTs for {} switches", what, lfts.size(), t.switches.size()));
    }
}

}  // namespace

std::vector<lft> compute_updown_lfts(const topology& t) {
    t.validate();
    check_levels(t);
    const std::size_t n_sw = t.switches.size();
    const uint64_t h = std::max<uint64_t>(1, t.radix / 2);

    // Up ports in port order; divisor h^level of the up rule (capped: DLIDs are < 2^16).
    std::vector<std::vector<uint16_t>> up(n_sw);
    uint32_t max_level = 0;
    for (std::size_t s = 0; s < n_sw; ++s) {
        const topo_switch& sw = t.switches[s];
        max_level = std::max(max_level, sw.level);
        for (uint32_t p = 0; p < sw.radix; ++p) {
            const topo_peer& pe = sw.peers[p];
            if (pe.kind == topo_peer_kind::sw && t.switches[pe.node].level == sw.level + 1) {
                up[s].push_back(static_cast<uint16_t>(p));
            }
        }
    }
    std::vector<uint64_t> divisor(max_level + 1, 1);
    for (uint32_t lv = 1; lv <= max_level; ++lv) {
        divisor[lv] = std::min<uint64_t>(divisor[lv - 1] * h, uint64_t{1} << 32);
    }
    auto up_port = [&](std::size_t s, uint32_t d) -> uint16_t {
        const std::vector<uint16_t>& u = up[s];
        return u[(d / divisor[t.switches[s].level]) % u.size()];
    };

    // Hosts grouped by leaf.
    std::vector<std::vector<uint32_t>> hosts_on(n_sw);
    for (uint32_t d = 0; d < t.hosts; ++d) hosts_on[t.host_attach[d].node].push_back(d);

    std::vector<lft> lfts(n_sw, lft(static_cast<uint16_t>(t.hosts)));
    std::vector<std::vector<uint16_t>> down(n_sw);  // down ports towards the current leaf
    std::vector<char> below(n_sw, 0);               // current leaf is below this switch
    std::vector<int32_t> chain_port(n_sw, NOT_ON_CHAIN);
    std::vector<std::size_t> touched;
    std::vector<std::size_t> frontier;
    std::vector<std::size_t> next;
    for (std::size_t leaf = 0; leaf < n_sw; ++leaf) {
        if (hosts_on[leaf].empty()) continue;
        // Ancestors of this leaf, with every down port that leads back towards it.
        touched.assign(1, leaf);
        below[leaf] = 1;
        frontier.assign(1, leaf);
        while (!frontier.empty()) {
            next.clear();
            for (const std::size_t x : frontier) {
                for (const uint16_t p : up[x]) {
                    const topo_peer& pe = t.switches[x].peers[p];
                    down[pe.node].push_back(pe.port);  // each cable is met once
                    if (!below[pe.node]) {
                        below[pe.node] = 1;
                        touched.push_back(pe.node);
                        next.push_back(pe.node);
                    }
                }
            }
            frontier.swap(next);
        }
        for (const std::size_t s : touched) std::sort(down[s].begin(), down[s].end());

        for (const uint32_t d : hosts_on[leaf]) {
            // Root path of d: climb from its leaf with the up rule.
            std::vector<std::size_t> chain{leaf};
            chain_port[leaf] = t.host_attach[d].port;
            for (std::size_t x = leaf; !up[x].empty();) {
                const topo_peer& pe = t.switches[x].peers[up_port(x, d)];
                x = pe.node;
                if (chain_port[x] != NOT_ON_CHAIN) {
                    throw std::logic_error("compute_updown_lfts: root path revisits a switch");
                }
                chain_port[x] = pe.port;
                chain.push_back(x);
            }
            for (std::size_t s = 0; s < n_sw; ++s) {
                uint8_t port = LFT_NO_ROUTE;
                if (chain_port[s] != NOT_ON_CHAIN) {
                    port = static_cast<uint8_t>(chain_port[s]);
                } else if (below[s]) {
                    port = static_cast<uint8_t>(down[s][d % down[s].size()]);
                } else if (!up[s].empty()) {
                    port = static_cast<uint8_t>(up_port(s, d));
                }
                lfts[s].set(dlid_of(d), port);
            }
            for (const std::size_t s : chain) chain_port[s] = NOT_ON_CHAIN;
        }
        for (const std::size_t s : touched) {
            below[s] = 0;
            down[s].clear();
        }
    }
    return lfts;
}

std::vector<route_hop> route(const topology& t, const std::vector<lft>& lfts, uint32_t src_host,
                             uint32_t dst_host) {
    check_lfts(t, lfts, "route");
    if (src_host >= t.hosts || dst_host >= t.hosts || t.host_attach.size() != t.hosts) {
        throw std::invalid_argument(fmt::format("route: host {} or {} out of range (hosts {})",
                                                src_host, dst_host, t.hosts));
    }
    std::vector<route_hop> hops;
    if (src_host == dst_host) return hops;
    const uint16_t dlid = dlid_of(dst_host);
    uint32_t sw = t.host_attach[src_host].node;
    uint16_t in_port = t.host_attach[src_host].port;
    for (std::size_t step = 0; step < t.switches.size(); ++step) {
        const uint8_t out = lfts[sw].port(dlid);
        if (out == LFT_NO_ROUTE || out >= t.switches[sw].radix) {
            throw std::runtime_error(
                fmt::format("route {} -> {}: switch {} has no valid port for DLID {} (entry {})",
                            src_host, dst_host, sw, dlid, out));
        }
        hops.push_back(route_hop{sw, in_port, out});
        const topo_peer& pe = t.switches[sw].peers[out];
        if (pe.kind == topo_peer_kind::none) {
            throw std::runtime_error(fmt::format("route {} -> {}: switch {} port {} unconnected",
                                                 src_host, dst_host, sw, out));
        }
        if (pe.kind == topo_peer_kind::host) {
            if (pe.node != dst_host) {
                throw std::runtime_error(
                    fmt::format("route {} -> {}: delivered to host {} by switch {} port {}",
                                src_host, dst_host, pe.node, sw, out));
            }
            return hops;
        }
        sw = pe.node;
        in_port = pe.port;
    }
    throw std::runtime_error(fmt::format("route {} -> {}: more than {} switches (routing loop)",
                                         src_host, dst_host, t.switches.size()));
}

bool is_deadlock_free(const topology& t, const std::vector<lft>& lfts) {
    check_lfts(t, lfts, "is_deadlock_free");
    t.validate();
    const std::size_t n_sw = t.switches.size();
    // Channel ids: host h injection = h; output port p of switch s = hosts + s * radix + p.
    // Every successor of a channel is an output port of the one switch the channel enters, so
    // a channel's successor set is a bitmask over that switch's ports (deduplicates the
    // hosts^2 dependencies in O(1) each).
    const std::size_t n_ch = t.hosts + n_sw * t.radix;
    const std::size_t words = (t.radix + 63) / 64;
    std::vector<uint64_t> succ(n_ch * words, 0);
    auto enters = [&](std::size_t c) -> std::size_t {  // switch a channel leads into, or n_sw
        if (c < t.hosts) return t.host_attach[c].node;
        const std::size_t s = (c - t.hosts) / t.radix;
        const topo_peer& pe = t.switches[s].peers[(c - t.hosts) % t.radix];
        return pe.kind == topo_peer_kind::sw ? pe.node : n_sw;
    };
    std::vector<uint32_t> visited_for(n_sw, UINT32_MAX);  // destination that last visited
    for (uint32_t d = 0; d < t.hosts; ++d) {
        const uint16_t dlid = dlid_of(d);
        for (uint32_t s = 0; s < t.hosts; ++s) {
            if (s == d) continue;
            std::size_t ch = s;
            std::size_t sw = t.host_attach[s].node;
            for (;;) {
                const uint8_t out = lfts[sw].port(dlid);
                if (out == LFT_NO_ROUTE || out >= t.radix) break;  // dropped
                succ[ch * words + out / 64] |= uint64_t{1} << (out % 64);
                if (visited_for[sw] == d) break;  // the rest of this route is already recorded
                visited_for[sw] = d;
                const topo_peer& pe = t.switches[sw].peers[out];
                if (pe.kind != topo_peer_kind::sw) break;  // delivered or dropped
                ch = t.hosts + sw * t.radix + out;
                sw = pe.node;
            }
        }
    }
    // Kahn's algorithm: acyclic iff every channel can be removed in topological order.
    auto for_each_succ = [&](std::size_t c, auto&& fn) {
        const std::size_t sw = enters(c);
        if (sw == n_sw) return;
        for (std::size_t w = 0; w < words; ++w) {
            for (uint64_t bits = succ[c * words + w]; bits != 0; bits &= bits - 1) {
                std::size_t bit = 0;
                while (((bits >> bit) & 1U) == 0) ++bit;
                fn(t.hosts + sw * t.radix + w * 64 + bit);
            }
        }
    };
    std::vector<uint32_t> indegree(n_ch, 0);
    for (std::size_t c = 0; c < n_ch; ++c) {
        for_each_succ(c, [&](std::size_t n) { ++indegree[n]; });
    }
    std::deque<std::size_t> ready;
    for (std::size_t c = 0; c < n_ch; ++c) {
        if (indegree[c] == 0) ready.push_back(c);
    }
    std::size_t removed = 0;
    while (!ready.empty()) {
        const std::size_t c = ready.front();
        ready.pop_front();
        ++removed;
        for_each_succ(c, [&](std::size_t n) {
            if (--indegree[n] == 0) ready.push_back(n);
        });
    }
    return removed == n_ch;
}

}  // namespace ndr::golden
