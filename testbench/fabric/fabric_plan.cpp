#include "fabric_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "fabric_counts.h"
#include "golden/multipath_groups.h"
#include "golden/updown_routing.h"

namespace ndr::tb {

namespace {

std::string end_name(const plan_end& e) {
    return e.host ? fmt::format("host{}", e.node) : fmt::format("sw{}.p{}", e.node, e.port);
}

plan_hop make_hop(plan_end from, plan_end to, uint32_t tier, uint32_t link_cycles,
                  uint32_t credits) {
    plan_hop h;
    h.from = from;
    h.to = to;
    h.tier = tier;
    h.link_cycles = link_cycles;
    h.credits = credits;
    h.name = end_name(from) + "->" + end_name(to);
    return h;
}

}  // namespace

uint32_t fabric_plan::shortest_link_cycles() const {
    uint32_t s = tier_cycles[0];
    for (const plan_hop& h : hops) s = std::min(s, h.link_cycles);
    return s;
}

fabric_plan plan_fabric(const cfg::config& c, uint32_t hosts) {
    fabric_plan f;
    f.tm = common::derive_timing(c);
    f.topo = build_fabric_topology(c, hosts);
    f.lfts = golden::compute_updown_lfts(f.topo);
    for (uint32_t s = 0; s < f.topo.switches.size(); ++s) {
        f.up_ports.push_back(golden::up_port_mask(f.topo, s));
        f.ar_groups.push_back(golden::ar_port_groups(f.topo, s));
    }
    const uint64_t prop = c.link.propagation_per_m.ps;
    const auto cable_cycles = [&](uint64_t mm) {
        return common::ps_to_cycles(c.link.fec_latency.ps + mm * prop / 1000, f.tm.cycle_ps, 1);
    };
    f.tier_cycles[0] = cable_cycles(c.link.cable_length.mm);
    f.tier_cycles[1] = cable_cycles(c.fabric.tier1_cable_length.mm);
    f.tier_cycles[2] = cable_cycles(c.fabric.tier2_cable_length.mm);
    for (const golden::topo_link& l : f.topo.links) {
        const uint32_t lat = f.tier_cycles[std::min<uint32_t>(l.tier, 2)];
        const plan_end b{false, l.b, l.b_port};
        if (l.a_is_host) {
            const plan_end a{true, l.a, 0};
            f.hops.push_back(make_hop(a, b, l.tier, lat, f.tm.sw_credit_blocks));
            f.hops.push_back(make_hop(b, a, l.tier, lat, f.tm.ep_buffer_blocks));
        } else {
            const plan_end a{false, l.a, l.a_port};
            f.hops.push_back(make_hop(a, b, l.tier, lat, f.tm.sw_credit_blocks));
            f.hops.push_back(make_hop(b, a, l.tier, lat, f.tm.sw_credit_blocks));
        }
    }
    f.faults = plan_faults(c, f.topo, f.lfts, f.hops, f.tm.cycle_ps);
    return f;
}

fabric_plan plan_traffic_switch(const cfg::config& c) {
    fabric_plan f;
    f.tm = common::derive_timing(c);
    const uint32_t ports = c.sw.ports;
    golden::lft routes(static_cast<uint16_t>(ports));
    for (uint32_t p = 0; p < ports; ++p) {
        routes.set(static_cast<uint16_t>(p + 1), static_cast<uint8_t>(p));
    }
    f.lfts.push_back(std::move(routes));
    f.tier_cycles[0] = f.tm.link_cycles;
    for (uint32_t p = 0; p < ports; ++p) {
        const plan_end ep{true, p, 0};
        const plan_end sw{false, 0, static_cast<uint16_t>(p)};
        f.hops.push_back(make_hop(ep, sw, 0, f.tm.link_cycles, f.tm.sw_credit_blocks));
        f.hops.push_back(make_hop(sw, ep, 0, f.tm.link_cycles, f.tm.ep_buffer_blocks));
    }
    return f;
}

}  // namespace ndr::tb
