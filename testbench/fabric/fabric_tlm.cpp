#include "fabric_tlm.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include <tlm>

#include "config/config_error.h"
#include "socket_teardown.h"

namespace ndr::tb {

fabric_tlm::~fabric_tlm() {
    for (auto& a : anchors_) a.reset();  // first, in order: socket_teardown.h
    tlmm::destroy_newest_first(wires_);
    tlmm::destroy_newest_first(switches_);
    hcas_.reset();
}

fabric_tlm::fabric_tlm(const cfg::config& c, uint32_t hosts)
    : plan_(plan_fabric(c, hosts)), tm_(plan_.tm), topo_(plan_.topo) {
    const uint32_t radix = c.sw.ports;
    anchors_[0] = std::make_unique<tlmm::teardown_anchor>("teardown_anchor");
    anchors_[1] = std::make_unique<tlmm::teardown_anchor>("teardown_anchor2");
    hcas_ = std::make_unique<tlmm::hca_tlm>("hcas", c, tm_, hosts, status_);
    for (std::size_t s = 0; s < topo_.switches.size(); ++s) {
        switches_.push_back(std::make_unique<tlmm::ib_switch_tlm>(fmt::format("sw{}", s).c_str(), c,
                                                                  tm_, plan_.lfts[s], status_));
        if (c.routing.mode == "adaptive" && c.fabric.technology != "roce") {
            switches_[s]->set_adaptive(c, plan_.ar_groups[s], static_cast<uint32_t>(s));
        }
    }
    // Credit loops for burst pacing (credit_pacer.h): only when bursts are on.
    const bool bursts = c.sim.tlm_burst.count / c.hca.mtu.count > 1;
    const auto loop = [&](uint32_t capacity, uint32_t lat, bool to_switch) {
        tlmm::credit_loop l;
        // A shared switch buffer grows a busy VL's window from its reservation to the pool's
        // limit for one VL (golden::vl_buffer_pool): the pacer replays that.
        if (to_switch) capacity = std::max(capacity, tm_.sw_vl_max_blocks);
        l.capacity = std::min(capacity, golden::FC_MAX_OUTSTANDING);
        l.link_cycles = lat;
        l.fc_proc = tm_.fc_cycles - tm_.link_cycles;
        l.to_switch = to_switch;
        l.elig_cycles = tm_.ingress_cycles;
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
    tlmm::hca_tlm& hca = *hcas_;
    for (const plan_hop& h : plan_.hops) {
        const plan_end& a = h.from;
        const plan_end& b = h.to;
        // One link per direction: data from a's output into b's input, b's FC back to a.
        tlmm::link_tlm& w =
            wire(a.host   ? fmt::format("h{}_sw{}", a.node, b.node)
                 : b.host ? fmt::format("sw{}_h{}", a.node, b.node)
                          : fmt::format("sw{}p{}_sw{}p{}", a.node, a.port, b.node, b.port),
                 h.link_cycles);
        if (a.host) {
            (*hca.tx[a.node]).bind(w.tx);
            w.fc_out.bind(*hca.fc_in[a.node]);
            hca.connect(a.node, h.credits);
            if (bursts) hca.set_credit_loop(a.node, loop(h.credits, h.link_cycles, true));
        } else {
            tlmm::ib_switch_tlm& from = *switches_[a.node];
            used[a.node][a.port] = true;
            (*from.out[a.port]).bind(w.tx);
            w.fc_out.bind(*from.fc_in[a.port]);
            from.connect(a.port, h.credits);
            if (b.host) from.set_ca_port(a.port);
            if (bursts) from.set_credit_loop(a.port, loop(h.credits, h.link_cycles, !b.host));
        }
        if (b.host) {
            w.rx.bind(*hca.rx[b.node]);
            (*hca.fc_out[b.node]).bind(w.fc_in);
        } else {
            tlmm::ib_switch_tlm& to = *switches_[b.node];
            used[b.node][b.port] = true;
            w.rx.bind(*to.in[b.port]);
            (*to.fc_out[b.port]).bind(w.fc_in);
        }
        links_.push_back({h.name, h.tier, a.host, a.node, a.port});
    }
    const uint32_t shortest = plan_.shortest_link_cycles();
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
    }
}

}  // namespace ndr::tb
