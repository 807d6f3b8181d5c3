// Fabric topology and fat-tree builders (docs/domain.md §4, §6). Rules in topology.h.
#include "golden/topology.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "golden/lft.h"

namespace ndr::golden {

namespace {

const char* level_name(uint32_t levels, uint32_t level) {
    if (level == 0) return "leaf";
    if (levels == 2 && level == 1) return "spine";
    if (levels == 3 && level == 1) return "aggregation";
    if (levels == 3 && level == 2) return "core";
    return "switch";
}

/// Smallest divisor of n that is >= at_least (n itself if none smaller); n >= 1.
uint32_t smallest_divisor_at_least(uint32_t n, uint32_t at_least) {
    for (uint32_t d = std::max(at_least, 1U); d < n; ++d) {
        if (n % d == 0) return d;
    }
    return n;
}

uint32_t ceil_div(uint32_t a, uint32_t b) {
    return (a + b - 1) / b;
}

uint16_t port16(uint32_t p) {
    return static_cast<uint16_t>(p);
}

void check_hosts(uint32_t hosts, uint64_t capacity, const std::string& what) {
    if (hosts == 0) throw std::invalid_argument(what + ": hosts must be >= 1");
    if (hosts > capacity) {
        throw std::invalid_argument(
            fmt::format("{}: {} hosts exceed the capacity of {}", what, hosts, capacity));
    }
    if (hosts > LID_UNICAST_MAX) {
        throw std::invalid_argument(fmt::format(
            "{}: {} hosts exceed the unicast LID space (host h has DLID h+1 <= 0x{:04X})", what,
            hosts, LID_UNICAST_MAX));
    }
}

}  // namespace

uint32_t topology::add_switch(uint32_t level, uint32_t index_in_level) {
    topo_switch s;
    s.level = level;
    s.index_in_level = index_in_level;
    s.radix = radix;
    s.peers.assign(radix, topo_peer{});
    switches.push_back(std::move(s));
    return static_cast<uint32_t>(switches.size() - 1);
}

void topology::attach_host(uint32_t host, uint32_t sw, uint16_t sw_port) {
    if (host >= hosts) {
        throw std::invalid_argument(fmt::format("topology: host {} >= hosts {}", host, hosts));
    }
    if (sw >= switches.size() || sw_port >= switches[sw].radix) {
        throw std::invalid_argument(fmt::format("topology: no switch port {}/{}", sw, sw_port));
    }
    host_attach.resize(hosts, topo_port_ref{UINT32_MAX, 0});
    topo_peer& pe = switches[sw].peers[sw_port];
    if (pe.kind != topo_peer_kind::none || host_attach[host].node != UINT32_MAX) {
        throw std::invalid_argument(fmt::format(
            "topology: host {} or switch port {}/{} already connected", host, sw, sw_port));
    }
    pe = topo_peer{topo_peer_kind::host, host, 0};
    host_attach[host] = topo_port_ref{sw, sw_port};
    links.push_back(topo_link{true, host, 0, sw, sw_port, 0});
}

void topology::connect(uint32_t a, uint16_t a_port, uint32_t b, uint16_t b_port) {
    if (a >= switches.size() || b >= switches.size() || a_port >= switches[a].radix ||
        b_port >= switches[b].radix) {
        throw std::invalid_argument(
            fmt::format("topology: no switch port {}/{} or {}/{}", a, a_port, b, b_port));
    }
    if (a == b && a_port == b_port) {
        throw std::invalid_argument(
            fmt::format("topology: port {}/{} cabled to itself", a, a_port));
    }
    topo_peer& pa = switches[a].peers[a_port];
    topo_peer& pb = switches[b].peers[b_port];
    if (pa.kind != topo_peer_kind::none || pb.kind != topo_peer_kind::none) {
        throw std::invalid_argument(fmt::format(
            "topology: switch port {}/{} or {}/{} already connected", a, a_port, b, b_port));
    }
    pa = topo_peer{topo_peer_kind::sw, b, b_port};
    pb = topo_peer{topo_peer_kind::sw, a, a_port};
    if (switches[b].level < switches[a].level) {
        std::swap(a, b);
        std::swap(a_port, b_port);
    }
    links.push_back(topo_link{false, a, a_port, b, b_port, switches[a].level + 1});
}

uint32_t topology::switches_at_level(uint32_t level) const {
    return static_cast<uint32_t>(
        std::count_if(switches.begin(), switches.end(),
                      [level](const topo_switch& s) { return s.level == level; }));
}

uint32_t topology::switch_id(uint32_t level, uint32_t index_in_level) const {
    for (std::size_t i = 0; i < switches.size(); ++i) {
        if (switches[i].level == level && switches[i].index_in_level == index_in_level) {
            return static_cast<uint32_t>(i);
        }
    }
    throw std::out_of_range(
        fmt::format("topology: no switch {} at level {}", index_in_level, level));
}

void topology::validate() const {
    if (host_attach.size() != hosts) {
        throw std::invalid_argument(fmt::format("topology: host_attach has {} entries for {} hosts",
                                                host_attach.size(), hosts));
    }
    std::size_t host_ports = 0;
    std::size_t sw_ports = 0;
    for (std::size_t s = 0; s < switches.size(); ++s) {
        const topo_switch& sw = switches[s];
        if (sw.radix != radix || sw.peers.size() != radix) {
            throw std::invalid_argument(
                fmt::format("topology: switch {} has radix {} / {} peers, "
                            "topology radix {}",
                            s, sw.radix, sw.peers.size(), radix));
        }
        for (uint32_t p = 0; p < sw.radix; ++p) {
            const topo_peer& pe = sw.peers[p];
            if (pe.kind == topo_peer_kind::host) {
                ++host_ports;
                if (pe.node >= hosts || host_attach[pe.node].node != s ||
                    host_attach[pe.node].port != p) {
                    throw std::invalid_argument(fmt::format(
                        "topology: switch port {}/{} names host {} that is attached elsewhere", s,
                        p, pe.node));
                }
            } else if (pe.kind == topo_peer_kind::sw) {
                ++sw_ports;
                if (pe.node >= switches.size() || pe.port >= switches[pe.node].peers.size()) {
                    throw std::invalid_argument(
                        fmt::format("topology: switch port {}/{} has no valid peer", s, p));
                }
                const topo_peer& back = switches[pe.node].peers[pe.port];
                if (back.kind != topo_peer_kind::sw || back.node != s || back.port != p) {
                    throw std::invalid_argument(
                        fmt::format("topology: switch port {}/{} -> {}/{} is not symmetric", s, p,
                                    pe.node, pe.port));
                }
            }
        }
    }
    if (host_ports != hosts || links.size() != hosts + sw_ports / 2) {
        throw std::invalid_argument(
            fmt::format("topology: {} host ports for {} hosts, {} links for {} cables", host_ports,
                        hosts, links.size(), hosts + sw_ports / 2));
    }
}

std::string topology::describe() const {
    std::string out = fmt::format("{}: {} hosts, radix {}, {} switch level(s), {} switches\n", name,
                                  hosts, radix, levels, switches.size());
    uint32_t max_level = 0;
    for (const topo_switch& s : switches) max_level = std::max(max_level, s.level);
    for (uint32_t lv = 0; !switches.empty() && lv <= max_level; ++lv) {
        uint32_t n = 0;
        uint32_t min_used = UINT32_MAX;
        uint32_t max_used = 0;
        for (const topo_switch& s : switches) {
            if (s.level != lv) continue;
            ++n;
            const auto used = static_cast<uint32_t>(
                std::count_if(s.peers.begin(), s.peers.end(),
                              [](const topo_peer& pe) { return pe.kind != topo_peer_kind::none; }));
            min_used = std::min(min_used, used);
            max_used = std::max(max_used, used);
        }
        out += fmt::format("  level {} ({}): {} switches, ports used {}..{} of {}\n", lv,
                           level_name(levels, lv), n, n ? min_used : 0, max_used, radix);
    }
    // Links per tier, and parallel cables per connected switch pair.
    std::map<uint32_t, std::size_t> per_tier;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> per_pair;
    for (const topo_link& l : links) {
        ++per_tier[l.tier];
        if (!l.a_is_host) ++per_pair[{l.a, l.b}];
    }
    for (const auto& [tier, n] : per_tier) {
        uint32_t min_par = UINT32_MAX;
        uint32_t max_par = 0;
        for (const topo_link& l : links) {
            if (l.tier != tier || l.a_is_host) continue;
            const uint32_t par = per_pair[{l.a, l.b}];
            min_par = std::min(min_par, par);
            max_par = std::max(max_par, par);
        }
        if (tier == 0) {
            out += fmt::format("  tier 0 (host-leaf): {} links\n", n);
        } else {
            out += fmt::format("  tier {}: {} links, {}..{} parallel per switch pair\n", tier, n,
                               min_par, max_par);
        }
    }
    return out;
}

topology build_single_switch(uint32_t hosts, uint32_t radix) {
    if (radix < 1 || radix > TOPO_MAX_RADIX) {
        throw std::invalid_argument(
            fmt::format("build_single_switch: radix {} out of range 1..{}", radix, TOPO_MAX_RADIX));
    }
    check_hosts(hosts, radix, fmt::format("build_single_switch(radix {})", radix));
    topology t;
    t.name = fmt::format("single_switch({} hosts, radix {})", hosts, radix);
    t.hosts = hosts;
    t.radix = radix;
    t.levels = 1;
    const uint32_t sw = t.add_switch(0, 0);
    for (uint32_t h = 0; h < hosts; ++h) t.attach_host(h, sw, port16(h));
    return t;
}

namespace {

/// Checks levels and radix of a multi-level Clos; `what` names the builder.
void check_clos(uint32_t radix, uint32_t levels, const char* what) {
    if (levels < 1 || levels > 3) {
        throw std::invalid_argument(
            fmt::format("{}: levels {} not supported (1..3)", what, levels));
    }
    if (radix < 2 || radix > TOPO_MAX_RADIX || radix % 2 != 0) {
        throw std::invalid_argument(
            fmt::format("{}: radix {} must be even and in 2..{}", what, radix, TOPO_MAX_RADIX));
    }
}

/// Builds the levels above t's n_leaves leaves (switch ids 0..n_leaves-1, up ports h..k-1),
/// the folded-Clos rules of the file comment of topology.h; sets t.levels.
void add_upper_levels(topology& t, uint32_t n_leaves, uint32_t levels) {
    const uint32_t k = t.radix;
    const uint32_t h = k / 2;
    t.levels = 1;
    if (n_leaves == 1) return;  // a single leaf needs nothing above it

    if (levels == 2) {
        const uint32_t n_spines = smallest_divisor_at_least(h, ceil_div(n_leaves, 2));
        const uint32_t par = h / n_spines;  // parallel links per leaf-spine pair
        std::vector<uint32_t> spine(n_spines);
        for (uint32_t s = 0; s < n_spines; ++s) spine[s] = t.add_switch(1, s);
        for (uint32_t l = 0; l < n_leaves; ++l) {
            for (uint32_t u = 0; u < h; ++u) {
                t.connect(l, port16(h + u), spine[u % n_spines], port16(l * par + u / n_spines));
            }
        }
        t.levels = 2;
        return;
    }

    // 3 levels: pods of up to h leaves.
    const uint32_t n_pods = ceil_div(n_leaves, h);
    const uint32_t n_aggr = smallest_divisor_at_least(h, std::min(n_leaves, h));  // per pod
    const uint32_t par_la = h / n_aggr;  // parallel links per leaf-aggregation pair
    std::vector<uint32_t> aggr(std::size_t{n_pods} * n_aggr);  // [pod * n_aggr + a]
    for (uint32_t pod = 0; pod < n_pods; ++pod) {
        for (uint32_t a = 0; a < n_aggr; ++a) {
            aggr[pod * n_aggr + a] = t.add_switch(1, pod * n_aggr + a);
        }
    }
    for (uint32_t l = 0; l < n_leaves; ++l) {
        const uint32_t pod = l / h;
        for (uint32_t u = 0; u < h; ++u) {
            t.connect(l, port16(h + u), aggr[pod * n_aggr + u % n_aggr],
                      port16((l % h) * par_la + u / n_aggr));
        }
    }
    t.levels = 2;
    if (n_pods == 1) return;  // a single pod needs no cores

    const uint32_t group =
        smallest_divisor_at_least(h, ceil_div(n_pods, 2));    // cores per aggr index
    const uint32_t par_ac = h / group;                        // parallel links per core-pod pair
    std::vector<uint32_t> core(std::size_t{n_aggr} * group);  // [a * group + c]
    for (uint32_t i = 0; i < n_aggr * group; ++i) core[i] = t.add_switch(2, i);
    for (uint32_t pod = 0; pod < n_pods; ++pod) {
        for (uint32_t a = 0; a < n_aggr; ++a) {
            for (uint32_t v = 0; v < h; ++v) {
                t.connect(aggr[pod * n_aggr + a], port16(h + v), core[a * group + v % group],
                          port16(pod * par_ac + v / group));
            }
        }
    }
    t.levels = 3;
}

}  // namespace

topology build_fat_tree(uint32_t hosts, uint32_t radix, uint32_t levels) {
    if (levels < 1 || levels > 3) {
        throw std::invalid_argument(
            fmt::format("build_fat_tree: levels {} not supported (1..3)", levels));
    }
    if (levels == 1) return build_single_switch(hosts, radix);
    check_clos(radix, levels, "build_fat_tree");
    const uint32_t k = radix;
    const uint32_t h = k / 2;
    const uint64_t capacity = levels == 2 ? uint64_t{k} * k / 2 : uint64_t{k} * k * k / 4;
    check_hosts(hosts, capacity, fmt::format("build_fat_tree(radix {}, {} levels)", radix, levels));

    topology t;
    t.name = fmt::format("fat_tree({} hosts, radix {}, {} levels)", hosts, radix, levels);
    t.hosts = hosts;
    t.radix = radix;
    const uint32_t n_leaves = ceil_div(hosts, h);
    for (uint32_t l = 0; l < n_leaves; ++l) t.add_switch(0, l);  // switch id = leaf index
    for (uint32_t n = 0; n < hosts; ++n) t.attach_host(n, n / h, port16(n % h));
    add_upper_levels(t, n_leaves, levels);
    return t;
}

topology build_rail_fat_tree(uint32_t nodes, uint32_t rails, uint32_t radix, uint32_t levels) {
    if (levels < 2) {
        throw std::invalid_argument(
            fmt::format("build_rail_fat_tree: levels {} not supported (2..3)", levels));
    }
    check_clos(radix, levels, "build_rail_fat_tree");
    if (nodes == 0 || rails == 0) {
        throw std::invalid_argument("build_rail_fat_tree: nodes and rails must be >= 1");
    }
    const uint32_t k = radix;
    const uint32_t h = k / 2;
    const uint64_t groups = ceil_div(nodes, h);  // node groups: up to h nodes per rail leaf
    const uint64_t n_leaves = groups * rails;
    const uint64_t max_leaves = levels == 2 ? uint64_t{k} : uint64_t{k} * h;
    const std::string what =
        fmt::format("build_rail_fat_tree({} nodes x {} rails, radix {}, {} levels)", nodes, rails,
                    radix, levels);
    if (n_leaves > max_leaves) {
        throw std::invalid_argument(
            fmt::format("{}: {} rail leaves ({} per rail) exceed the {} a {}-level tree of "
                        "radix {} holds",
                        what, n_leaves, groups, max_leaves, levels, radix));
    }
    const uint64_t hosts = uint64_t{nodes} * rails;
    check_hosts(static_cast<uint32_t>(std::min<uint64_t>(hosts, UINT32_MAX)), UINT32_MAX, what);

    topology t;
    t.name = fmt::format("rail_fat_tree({} nodes x {} rails, radix {}, {} levels)", nodes, rails,
                         radix, levels);
    t.hosts = static_cast<uint32_t>(hosts);
    t.radix = radix;
    t.rails = rails;
    for (uint32_t l = 0; l < n_leaves; ++l) t.add_switch(0, l);  // leaf (group j, rail r): j*R+r
    for (uint32_t n = 0; n < nodes; ++n) {
        for (uint32_t r = 0; r < rails; ++r) {
            t.attach_host(n * rails + r, (n / h) * rails + r, port16(n % h));
        }
    }
    add_upper_levels(t, static_cast<uint32_t>(n_leaves), levels);
    return t;
}

}  // namespace ndr::golden
