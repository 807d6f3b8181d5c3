#include "fabric_tlm.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include <tlm>

#include "config/config_error.h"
#include "golden/updown_routing.h"

namespace ndr::tb {

fabric_tlm::fabric_tlm(const cfg::config& c, uint32_t hosts) : tm_(common::derive_timing(c)) {
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
    const uint32_t tier[3] = {cable_cycles(c.link.cable_length.mm),
                              cable_cycles(c.fabric.tier1_cable_length.mm),
                              cable_cycles(c.fabric.tier2_cable_length.mm)};
    hcas_ = std::make_unique<tlmm::hca_tlm>("hcas", c, tm_, hosts, status_);
    for (std::size_t s = 0; s < topo_.switches.size(); ++s) {
        switches_.push_back(std::make_unique<tlmm::ib_switch_tlm>(fmt::format("sw{}", s).c_str(), c,
                                                                  tm_, lfts_[s], status_));
    }
    // Credit loops for burst pacing (credit_pacer.h): only when bursts are on.
    const bool bursts = c.sim.tlm_burst.count / c.hca.mtu.count > 1;
    const auto loop = [&](uint32_t capacity, uint32_t lat, bool to_switch) {
        tlmm::credit_loop l;
        l.capacity = std::min(capacity, golden::FC_MAX_OUTSTANDING);
        l.link_cycles = lat;
        l.fc_proc = tm_.fc_cycles - tm_.link_cycles;
        l.to_switch = to_switch;
        l.elig_cycles = tm_.switch_cycles - 1U;
        l.cut_through = c.sw.cut_through;
        l.speedup = tm_.speedup;
        l.block_bytes = tm_.block_bytes;
        l.rx_proc = tm_.rx_proc_cycles;
        return l;
    };
    std::vector<std::vector<bool>> used(switches_.size(), std::vector<bool>(radix, false));
    const auto wire = [&](const std::string& name, uint32_t lat) -> tlmm::link_tlm& {
        wires_.push_back(
            std::make_unique<tlmm::link_tlm>(name.c_str(), lat, tm_.cycle_ps, status_));
        return *wires_.back();
    };
    for (const golden::topo_link& l : topo_.links) {
        const uint32_t lat = tier[std::min<uint32_t>(l.tier, 2)];
        tlmm::ib_switch_tlm& b = *switches_[l.b];
        used[l.b][l.b_port] = true;
        if (l.a_is_host) {
            tlmm::hca_tlm& h = *hcas_;
            tlmm::link_tlm& up = wire(fmt::format("h{}_sw{}", l.a, l.b), lat);
            (*h.tx[l.a]).bind(up.tx);
            up.rx.bind(*b.in[l.b_port]);
            (*b.fc_out[l.b_port]).bind(up.fc_in);
            up.fc_out.bind(*h.fc_in[l.a]);
            tlmm::link_tlm& down = wire(fmt::format("sw{}_h{}", l.b, l.a), lat);
            (*b.out[l.b_port]).bind(down.tx);
            down.rx.bind(*h.rx[l.a]);
            (*h.fc_out[l.a]).bind(down.fc_in);
            down.fc_out.bind(*b.fc_in[l.b_port]);
            h.connect(l.a, tm_.buffer_blocks);
            b.connect(l.b_port, tm_.ep_buffer_blocks);
            if (bursts) {
                h.set_credit_loop(l.a, loop(tm_.buffer_blocks, lat, true));
                b.set_credit_loop(l.b_port, loop(tm_.ep_buffer_blocks, lat, false));
            }
            links_.push_back(
                {fmt::format("host{}->sw{}.p{}", l.a, l.b, l.b_port), l.tier, true, l.a, 0});
            links_.push_back({fmt::format("sw{}.p{}->host{}", l.b, l.b_port, l.a), l.tier, false,
                              l.b, l.b_port});
        } else {
            tlmm::ib_switch_tlm& a = *switches_[l.a];
            used[l.a][l.a_port] = true;
            const auto one_way = [&](tlmm::ib_switch_tlm& from, uint16_t fp, uint32_t fs,
                                     tlmm::ib_switch_tlm& to, uint16_t tp, uint32_t ts) {
                tlmm::link_tlm& w = wire(fmt::format("sw{}p{}_sw{}p{}", fs, fp, ts, tp), lat);
                (*from.out[fp]).bind(w.tx);
                w.rx.bind(*to.in[tp]);
                (*to.fc_out[tp]).bind(w.fc_in);
                w.fc_out.bind(*from.fc_in[fp]);
                from.connect(fp, tm_.buffer_blocks);
                if (bursts) from.set_credit_loop(fp, loop(tm_.buffer_blocks, lat, true));
            };
            one_way(a, l.a_port, l.a, b, l.b_port, l.b);
            one_way(b, l.b_port, l.b, a, l.a_port, l.a);
            links_.push_back({fmt::format("sw{}.p{}->sw{}.p{}", l.a, l.a_port, l.b, l.b_port),
                              l.tier, false, l.a, l.a_port});
            links_.push_back({fmt::format("sw{}.p{}->sw{}.p{}", l.b, l.b_port, l.a, l.a_port),
                              l.tier, false, l.b, l.b_port});
        }
    }
    uint32_t shortest = tier[0];
    for (const golden::topo_link& l : topo_.links) {
        shortest = std::min(shortest, tier[std::min<uint32_t>(l.tier, 2)]);
    }
    // Unused switch ports: every TLM socket must be bound; a loopback link closes them.
    for (std::size_t s = 0; s < switches_.size(); ++s) {
        for (uint32_t p = 0; p < radix; ++p) {
            if (used[s][p]) continue;
            tlmm::ib_switch_tlm& sw = *switches_[s];
            tlmm::link_tlm& w = wire(fmt::format("sw{}p{}_unused", s, p), 1);
            (*sw.out[p]).bind(w.tx);
            w.rx.bind(*sw.in[p]);
            (*sw.fc_out[p]).bind(w.fc_in);
            w.fc_out.bind(*sw.fc_in[p]);
        }
    }
    if (c.sim.tlm_mode == "lt") {
        // Temporal decoupling: the quantum defaults to the shortest link latency, which keeps
        // the results identical to AT (nothing arrives inside a quantum already run).
        quantum_ = c.sim.tlm_quantum.ps == 0
                       ? shortest
                       : std::max<uint64_t>(
                             1, common::ps_to_cycles(c.sim.tlm_quantum.ps, tm_.cycle_ps, 1));
        tlm::tlm_global_quantum::instance().set(hcas_->cycles(quantum_));
        hcas_->set_loosely_timed(quantum_);
        for (auto& sw : switches_) sw->set_loosely_timed(quantum_);
        for (auto& w : wires_) w->set_loosely_timed(true);
    }
}

uint64_t fabric_tlm::link_beats(const link_ref& l) const {
    if (l.from_host) return hcas_->stats().tx_beats[l.node];
    return switches_[l.node]->total_out_beats(l.port);
}

}  // namespace ndr::tb
