#include "fabric_faults.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "config/config_error.h"
#include "config/config_source.h"
#include "config/link_down_spec.h"
#include "fabric_plan.h"
#include "golden/fault_routing.h"
#include "golden/updown_routing.h"

namespace ndr::tb {

namespace {

cfg::config_error fault_error(const std::string& why) {
    return cfg::config_error(cfg::config_source::merged(), "fault.link_down", why);
}

uint64_t cycles_ceil(uint64_t ps, uint64_t cycle_ps) {
    return (ps + cycle_ps - 1) / cycle_ps;
}

bool same_cable(const plan_fault& f, const plan_fault& g) {
    return f.a.node == g.a.node && f.a.port == g.a.port;
}

}  // namespace

fault_plan plan_faults(const cfg::config& c, const golden::topology& topo,
                       const std::vector<golden::lft>& lfts, const std::vector<plan_hop>& hops,
                       uint64_t cycle_ps) {
    fault_plan fp;
    if (c.fault.link_down.empty()) return fp;
    // RoCE: the ECMP sets are rerouted too (golden::reroute_ecmp); IB adaptive routing: the AR
    // groups (golden::reroute_ar_groups).
    const bool roce = c.fabric.technology == "roce";
    std::vector<cfg::link_down_spec> specs;
    try {
        specs = cfg::parse_link_downs(c.fault.link_down);
    } catch (const cfg::config_error& e) {
        throw fault_error(e.reason);
    }
    for (const cfg::link_down_spec& s : specs) {
        const auto h = std::find_if(hops.begin(), hops.end(),
                                    [&](const plan_hop& x) { return x.name == s.link; });
        if (h == hops.end()) {
            std::string examples;
            for (const plan_hop& x : hops) {
                if (x.from.host || x.to.host) continue;
                examples = x.name;
                break;
            }
            throw fault_error(fmt::format(
                "no link named '{}' in this fabric ({} links; switch-to-switch names look like "
                "{})",
                s.link, hops.size(), examples.empty() ? "none: a single switch" : examples));
        }
        if (h->from.host || h->to.host) {
            throw fault_error(fmt::format(
                "'{}' is a host cable: its host has no other path, so a reroute cannot recover "
                "it (take down a switch-to-switch link)",
                s.link));
        }
        plan_fault f;
        f.link = s.link;
        f.down_ps = s.at.ps;
        f.reroute_ps = s.at.ps + c.fault.reroute_delay.ps;
        f.down_cycle = cycles_ceil(f.down_ps, cycle_ps);
        f.reroute_cycle = cycles_ceil(f.reroute_ps, cycle_ps);
        f.a = {h->from.node, h->from.port};
        f.b = {h->to.node, h->to.port};
        if (f.a.node > f.b.node || (f.a.node == f.b.node && f.a.port > f.b.port)) {
            std::swap(f.a, f.b);  // one order per cable, whichever direction named it
        }
        for (const plan_fault& g : fp.faults) {
            if (same_cable(f, g)) {
                throw fault_error(
                    fmt::format("'{}' names the cable of '{}' again (a cable goes "
                                "down once)",
                                s.link, g.link));
            }
        }
        fp.faults.push_back(f);
    }
    std::vector<const plan_fault*> order;
    for (const plan_fault& f : fp.faults) order.push_back(&f);
    std::stable_sort(order.begin(), order.end(), [](const plan_fault* x, const plan_fault* y) {
        return x->reroute_cycle < y->reroute_cycle;
    });
    for (const plan_fault* r : order) {
        std::vector<golden::topo_port_ref> dead;
        for (const plan_fault& f : fp.faults) {
            if (f.down_cycle <= r->reroute_cycle) dead.push_back(f.a);
        }
        plan_reroute pr;
        pr.cycle = r->reroute_cycle;
        pr.lfts = golden::reroute_lfts(topo, lfts, dead);
        if (!roce && c.routing.mode == "adaptive") {
            pr.ar_groups = golden::reroute_ar_groups(topo, dead);
        }
        if (roce) {
            pr.ecmp = golden::reroute_ecmp(topo, dead, c.routing.ecmp_down == "parallel");
        }
        // Every host must still reach every host over the surviving cables.
        const golden::topology live = golden::without_cables(topo, dead);
        for (uint32_t d = 0; d < topo.hosts; ++d) {
            for (uint32_t s = 0; s < topo.hosts; ++s) {
                try {
                    golden::route(live, pr.lfts, s, d);
                } catch (const std::runtime_error&) {
                    throw fault_error(fmt::format(
                        "with the cables down by {} ps no path is left from host {} to host "
                        "{}: the fabric is partitioned",
                        r->reroute_ps, s, d));
                }
            }
        }
        fp.reroutes.push_back(std::move(pr));
    }
    return fp;
}

}  // namespace ndr::tb
