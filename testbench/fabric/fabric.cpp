#include "fabric.h"

#include <fmt/format.h>

#include <stdexcept>

#include "config/config_error.h"

namespace ndr::tb {

fabric::fabric(const cfg::config& c, uint32_t hosts)
    : plan_(plan_fabric(c, hosts)), tm_(plan_.tm), topo_(plan_.topo) {
    hcas_ = std::make_unique<cycle::hca_array>(c, tm_, pool_, hosts);
    for (std::size_t s = 0; s < topo_.switches.size(); ++s) {
        switches_.push_back(std::make_unique<cycle::ib_switch>(c, tm_, pool_, plan_.lfts[s]));
    }
    const auto engine = [&](const plan_end& e) -> cycle::cycle_engine* {
        if (e.host) return hcas_.get();
        return switches_[e.node].get();
    };
    for (const plan_hop& h : plan_.hops) {
        const plan_end& to = h.to;
        const cycle::link_peer peer{engine(to), static_cast<uint16_t>(to.host ? to.node : to.port),
                                    h.link_cycles};
        if (h.from.host) {
            hcas_->connect(h.from.node, peer, h.credits);
        } else {
            switches_[h.from.node]->connect(h.from.port, peer, h.credits);
            if (to.host) switches_[h.from.node]->set_ca_port(h.from.port);
        }
        links_.push_back({h.name, h.tier, h.from.host, h.from.node, h.from.port});
    }
    for (std::size_t s = 0; s < topo_.switches.size(); ++s) {
        const uint64_t up = plan_.up_ports[s];
        if (c.fabric.technology == "roce") {
            // ECMP over every up port (not from docs/domain.md: any up port of a folded Clos
            // reaches a common ancestor); a per-switch seed avoids hash polarisation between tiers.
            switches_[s]->set_ecmp(up, static_cast<uint32_t>(c.sim.seed * 7919U + s));
            if (c.routing.ecmp_down == "parallel") switches_[s]->set_ecmp_down(plan_.ar_groups[s]);
        } else if (c.routing.mode == "adaptive") {
            switches_[s]->set_adaptive(c, plan_.ar_groups[s], static_cast<uint32_t>(s));
        }
    }
    for (const plan_fault& x : plan_.faults.faults) {  // fault.link_down: both ends lose it
        switches_[x.a.node]->link_down(x.a.port, x.down_cycle);
        switches_[x.b.node]->link_down(x.b.port, x.down_cycle);
    }
    for (const plan_reroute& r : plan_.faults.reroutes) {
        for (std::size_t s = 0; s < switches_.size(); ++s) {
            switches_[s]->reroute(r.cycle, r.lfts[s],
                                  r.ar_groups.empty() ? std::vector<uint64_t>{} : r.ar_groups[s]);
        }
        for (std::size_t s = 0; s < r.ecmp.size(); ++s)  // RoCE: the ECMP sets as well
            switches_[s]->reroute_ecmp(r.cycle, r.ecmp[s]);
    }
    drivers_.push_back(
        std::make_unique<cycle::engine_driver>("hcas", *hcas_, tm_.cycle_ps, status_));
    for (std::size_t s = 0; s < switches_.size(); ++s) {
        drivers_.push_back(std::make_unique<cycle::engine_driver>(
            fmt::format("sw{}", s), *switches_[s], tm_.cycle_ps, status_));
    }
}

uint64_t fabric::fault_drops(const plan_fault& x) const {
    return switches_[x.a.node]->link_down_drops(x.a.port) +
           switches_[x.b.node]->link_down_drops(x.b.port);
}

}  // namespace ndr::tb
