#include "fabric.h"

#include <fmt/format.h>

#include <stdexcept>

#include "config/config_error.h"
#include "golden/updown_routing.h"

namespace ndr::tb {

fabric::fabric(const cfg::config& c, uint32_t hosts) : tm_(common::derive_timing(c)) {
    const uint32_t radix = c.sw.ports;
    try {
        topo_ = c.fabric.topology == "fat_tree"
                    ? golden::build_fat_tree(hosts, radix, c.fabric.levels)
                    : golden::build_single_switch(hosts, radix);
    } catch (const std::invalid_argument& e) {
        throw cfg::config_error(
            cfg::config_source::merged(), "fabric.topology",
            fmt::format("cannot build {} for {} hosts with {}-port switches: {}", c.fabric.topology,
                        hosts, radix, e.what()));
    }
    lfts_ = golden::compute_updown_lfts(topo_);
    const uint64_t prop = c.link.propagation_per_m.ps;
    const auto cable_cycles = [&](uint64_t mm) {
        return common::ps_to_cycles(c.link.fec_latency.ps + mm * prop / 1000, tm_.cycle_ps, 1);
    };
    tier_cycles_[0] = cable_cycles(c.link.cable_length.mm);
    tier_cycles_[1] = cable_cycles(c.fabric.tier1_cable_length.mm);
    tier_cycles_[2] = cable_cycles(c.fabric.tier2_cable_length.mm);

    hcas_ = std::make_unique<cycle::hca_array>(c, tm_, pool_, hosts);
    for (std::size_t s = 0; s < topo_.switches.size(); ++s) {
        switches_.push_back(std::make_unique<cycle::ib_switch>(c, tm_, pool_, lfts_[s]));
    }
    for (const golden::topo_link& l : topo_.links) {
        const uint32_t lat = tier_cycles_[std::min<uint32_t>(l.tier, 2)];
        cycle::ib_switch& b = *switches_[l.b];
        if (l.a_is_host) {
            hcas_->connect(l.a, cycle::link_peer{&b, l.b_port, lat}, tm_.buffer_blocks);
            b.connect(l.b_port, cycle::link_peer{hcas_.get(), static_cast<uint16_t>(l.a), lat},
                      tm_.ep_buffer_blocks);
            links_.push_back(
                {fmt::format("host{}->sw{}.p{}", l.a, l.b, l.b_port), l.tier, true, l.a, 0});
            links_.push_back({fmt::format("sw{}.p{}->host{}", l.b, l.b_port, l.a), l.tier, false,
                              l.b, l.b_port});
        } else {
            cycle::ib_switch& a = *switches_[l.a];
            a.connect(l.a_port, cycle::link_peer{&b, l.b_port, lat}, tm_.buffer_blocks);
            b.connect(l.b_port, cycle::link_peer{&a, l.a_port, lat}, tm_.buffer_blocks);
            links_.push_back({fmt::format("sw{}.p{}->sw{}.p{}", l.a, l.a_port, l.b, l.b_port),
                              l.tier, false, l.a, l.a_port});
            links_.push_back({fmt::format("sw{}.p{}->sw{}.p{}", l.b, l.b_port, l.a, l.a_port),
                              l.tier, false, l.b, l.b_port});
        }
    }
    if (c.fabric.technology == "roce") {
        // ECMP over every up port (not from docs/domain.md: any up port of a folded Clos reaches a
        // common ancestor); a per-switch seed avoids hash polarisation between tiers.
        for (std::size_t s = 0; s < topo_.switches.size(); ++s) {
            const golden::topo_switch& ts = topo_.switches[s];
            uint64_t up = 0;
            for (std::size_t p = 0; p < ts.peers.size() && p < 64; ++p) {
                const golden::topo_peer& peer = ts.peers[p];
                if (peer.kind == golden::topo_peer_kind::sw &&
                    topo_.switches[peer.node].level > ts.level) {
                    up |= uint64_t{1} << p;
                }
            }
            switches_[s]->set_ecmp(up, static_cast<uint32_t>(c.sim.seed * 7919U + s));
        }
    }
    drivers_.push_back(
        std::make_unique<cycle::engine_driver>("hcas", *hcas_, tm_.cycle_ps, status_));
    for (std::size_t s = 0; s < switches_.size(); ++s) {
        drivers_.push_back(std::make_unique<cycle::engine_driver>(
            fmt::format("sw{}", s), *switches_[s], tm_.cycle_ps, status_));
    }
}

uint64_t fabric::link_beats(const link_ref& l) const {
    if (l.from_host) return hcas_->stats().tx_beats[l.node];
    return switches_[l.node]->total_out_beats(l.port);
}

}  // namespace ndr::tb
