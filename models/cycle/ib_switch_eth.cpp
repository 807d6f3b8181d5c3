// RoCE personality of ib_switch (fabric.technology = roce, docs/roce.md): PFC instead of
// credits, ECN marking on egress queue depth, ECMP over the up ports. The crossbar, the
// allocator and the buffers are the IB switch's; these hooks run only when eth_ is set.
#include <fmt/format.h>

#include <algorithm>

#include "common/bits.h"
#include "common/invariant_error.h"
#include "cycle/ib_switch.h"
#include "cycle/ib_switch_eth.h"
#include "golden/roce_packet.h"

namespace ndr::cycle {

using common::bit;
using common::invariant_error;
using common::occupancy_stat;
using common::PK_DATA;
using common::PK_READ_REQ;
using common::PK_READ_RESP;

ib_switch::~ib_switch() = default;

void ib_switch::eth_init(const cfg::config& c) {
    // Committed-but-unsent frames of an upstream switch: its egress staging buffer.
    eth_ = std::make_unique<eth_state>(eth_state{
        c.pfc.enabled, pfc_ports(c, tm_, ports_, vls_, tm_.buffer_blocks, c.sw.output_buffer.count),
        ecn_marker(c.ecn, c.sim.seed), 0, 0, std::vector<uint64_t>(ports_, 0),
        std::vector<occupancy_stat>(ports_), 0, c.ecn, c.sim.seed, eth_ecmp{}});
    eth_->ecmp.mode = golden::ecmp_mode_of(c.routing.ecmp_mode);
    eth_->ecmp.gap_cycles = (c.routing.flowlet_gap.ps + tm_.cycle_ps - 1) / tm_.cycle_ps;
}

const pfc_ports* ib_switch::pfc() const {
    return eth_ ? &eth_->pfc : nullptr;
}

void ib_switch::set_ecmp(uint64_t up_ports, uint32_t seed) {
    if (!eth_) return;
    eth_->up_ports = up_ports;
    eth_->ecmp_seed = seed;
    eth_->ecmp.sel = golden::ecmp_selector(eth_->ecmp.mode, eth_->ecmp.gap_cycles, seed);
    eth_->ecn = ecn_marker(eth_->ecn_cfg, eth_->sim_seed * 1000003ULL + seed);
}

void ib_switch::eth_connect(uint16_t port, const link_peer& peer) {
    for (uint32_t vl = 0; vl < vls_; ++vl) link_.tx(port, vl) = pfc_ports::running_sender();
    if (eth_->pfc_enabled) eth_->pfc.configure_port(port, peer.link_cycles);
}

void ib_switch::eth_pfc_frame(cycle_t t, const event& e) {
    if (!eth_) throw std::logic_error("ib_switch: PFC frame on an InfiniBand switch");
    eth_->pfc.on_frame(t, e.port, e.vl, e.a != 0, link_.tx(e.port, e.vl));
}

void ib_switch::eth_pfc_check(cycle_t t, uint32_t port, uint32_t vl) {
    if (!eth_->pfc_enabled) return;
    const int act = eth_->pfc.on_occupancy(port, vl, link_.rx(port, vl).occupied());
    if (act == 0) return;
    const link_peer& peer = peers_[port];
    if (peer.engine == nullptr) return;
    // A MAC control frame goes out at the next frame boundary; its wire time delays the data
    // behind it. The partner stops pfc.reaction_time after receiving it.
    const cycle_t depart = t + 1;
    link_free_[port] = std::max(link_free_[port], depart) + eth_->pfc.frame_beats();
    total_out_beats_[port] += eth_->pfc.frame_beats();
    peer.engine->schedule(
        depart + peer.link_cycles + eth_->pfc.reaction_cycles(),
        event{EV_PFC, static_cast<uint8_t>(vl), peer.port, 0, act > 0 ? 1U : 0U, 0});
}

void ib_switch::reroute_ecmp(cycle_t at, std::vector<uint64_t> dst_up) {
    if (!eth_) throw std::logic_error("ib_switch: ECMP reroute on an InfiniBand switch");
    schedule(at,
             event{EV_ECMP_REROUTE, 0, 0, static_cast<uint32_t>(eth_->ecmp.reroutes.size()), 0, 0});
    eth_->ecmp.reroutes.push_back(std::move(dst_up));
}

void ib_switch::eth_reroute(uint32_t index) {
    eth_->ecmp.dst_up = std::move(eth_->ecmp.reroutes[index]);
}

void ib_switch::set_ecmp_down(std::vector<uint64_t> groups) {
    if (eth_) eth_->ecmp.down_groups = std::move(groups);
}

uint8_t ib_switch::eth_route(cycle_t t, const packet& p, uint8_t lft_port) {
    const eth_ecmp& e = eth_->ecmp;
    uint64_t up = e.dst_up.empty() ? eth_->up_ports : e.dst_up[p.dst];
    if (e.dst_up.empty() && (up & bit(lft_port)) == 0 && !e.down_groups.empty()) {
        up = e.down_groups[lft_port];  // routing.ecmp_down parallel: the parallel cables
    }
    if (up == 0 || (up & bit(lft_port)) == 0) return lft_port;  // one path
    const auto members = static_cast<uint32_t>(__builtin_popcountll(up));
    if (members == 1 && !e.down_groups.empty()) return lft_port;  // no choice: no draw
    const golden::ecmp_flow f{0x0A000000U + p.src, 0x0A000000U + p.dst,
                              golden::roce_udp_src_port(p.qp), golden::ROCEV2_UDP_PORT};
    uint32_t pick = eth_->ecmp.sel.pick(f, t, members);
    uint64_t m = up;
    while (pick-- > 0) m &= m - 1;
    return static_cast<uint8_t>(__builtin_ctzll(m));
}

void ib_switch::eth_enqueue(cycle_t t, const packet& p) {
    uint64_t& q = eth_->egress_bytes[p.out_port];
    q += p.wire_bytes;
    eth_->egress_occ[p.out_port].update(t, static_cast<uint32_t>(std::min<uint64_t>(q, ~0U)));
}

void ib_switch::eth_dequeue(cycle_t t, packet& p, uint16_t out, golden::credit_sender& tx) {
    uint64_t& q = eth_->egress_bytes[out];
    // Dequeue marking on the depth the packet saw (itself included).
    if (p.kind == PK_DATA || p.kind == PK_READ_RESP || p.kind == PK_READ_REQ) {
        if (eth_->ecn.mark(q)) {
            p.ecn_ce = 1;
            if (in_window_) ++eth_->ecn_marked;
        }
    }
    q -= p.wire_bytes;
    eth_->egress_occ[out].update(t, static_cast<uint32_t>(q));
    if (!eth_->pfc.paused(out, p.out_vl)) pfc_ports::refill(tx);
}

void ib_switch::eth_window_start(cycle_t t) {
    eth_->pfc.reset(t);
    for (auto& o : eth_->egress_occ) o.reset(t);
    eth_->ecn_marked = 0;
    eth_->ecmp.flowlets_at_window = eth_->ecmp.sel.new_flowlets();
}

void ib_switch::eth_window_end(cycle_t t) {
    eth_->pfc.close(t);
    stats_.pfc = eth_->pfc.stats();
    stats_.egress_max_bytes.assign(ports_, 0);
    stats_.egress_mean_bytes.assign(ports_, 0.0);
    for (uint32_t o = 0; o < ports_; ++o) {
        eth_->egress_occ[o].close(t, win_start_);
        stats_.egress_max_bytes[o] = eth_->egress_occ[o].max();
        stats_.egress_mean_bytes[o] = eth_->egress_occ[o].mean();
    }
    stats_.ecn_marked = eth_->ecn_marked;
    stats_.ecmp_new_flowlets = eth_->ecmp.sel.new_flowlets() - eth_->ecmp.flowlets_at_window;
}

}  // namespace ndr::cycle
