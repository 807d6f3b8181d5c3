#include "level_cost.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "collective/coll_types.h"
#include "collective/schedule.h"
#include "common/node_layout.h"
#include "common/timing.h"
#include "link_sampler.h"
#include "sharp_chunking.h"

namespace ndr::tb {

namespace {

// Per-unit CPU costs on the benchmark machine (2 cores, Debian 12, Release build), read off the
// calibration grid of docs/performance.md ("Choosing the level": 64-2,048 hosts, 8 B-16 MiB,
// ring, tree, SHARP, alltoall, allgather): user CPU seconds per unit.
// Cycle level: per packet-hop (0.28-0.82 us measured, congestion-free) and per host.
constexpr double CYCLE_PER_PACKET_HOP = 0.45e-6;
constexpr double CYCLE_PER_HOST = 45e-6;
// SHARP packets (one per chunk, up and down a tree), without payload: 0.054 us per packet-hop
// measured on a flat 1,024-host SHARP allreduce of 16 MiB with sharp.data off, 0.067 us on a
// 1,024-GPU collnet_direct of 64 MiB (session 20). Before session 20 the estimate folded the
// payload check into this constant (2.0 us), and sent large SHARP runs to the wrong level.
constexpr double CYCLE_PER_SHARP_PACKET_HOP = 0.06e-6;
// TLM level (sim.tlm_mode at): per transaction-hop (socket calls, the receiver's calendar, the
// FC update back), growing with the fabric as its state outgrows the caches, and per host (the
// fabric's SystemC objects: sockets, names). Session 19 (arrivals through the receiver's
// calendar instead of a PEQ per link, pooled calendar nodes): 0.7-0.8 us x growth at 256 and
// 1,024 hosts (ring 1 and 16 MiB), 2.2 us before; SHARP 3.2 us (4.3 before).
constexpr double TLM_PER_TRANSACTION_HOP = 0.75e-6;
constexpr double TLM_HOSTS_DOUBLING = 256.0;  ///< the cost grows by 1x per doubling of this
constexpr double TLM_PER_HOST = 450e-6;
// TLM, per SHARP transaction-hop (a packet, or a burst of chunks: sim.tlm_sharp_burst), growing
// with the fabric as the data transactions do (x (1 + log2(1 + hosts / 256))). With bursts
// (session 24), user CPU less the fixed cost: 0.12 us on 256 hosts (flat, 256 MiB, fat tree;
// growth 2), 0.38 us (1 GiB) and 0.95 us (64 MiB: fewer slices in flight, less work per
// SystemC step) on 1,024 dgx-h100 GPUs (collnet_direct; growth 3.3). 0.19 us picks the faster
// level on all three. Before bursts, per packet: 0.29 us (flat, 16 MiB) and 0.56 us
// (collnet_direct, 64 MiB) on 1,024 hosts (session 20).
constexpr double TLM_PER_SHARP_TRANSACTION_HOP = 0.19e-6;
// SHARP payloads (sharp.data on, or auto up to 1 MiB): each member's input is made, copied
// into its packets, reduced by the golden ALU in the tree's order and checked at every member.
// The replay does that at both levels alike: 4.7-4.8 ns per byte of member input (a flat
// 1,024-host SHARP allreduce of 1 MiB: 5.08 s with the check, 0.16 s without, cycle level;
// 6.19 and 1.01 s at TLM).
constexpr double SHARP_DATA_PER_BYTE = 4.7e-9;
// sim.tlm_mode lt runs the same transactions without per-step SystemC activations: 0.77-0.82x
// the AT cost measured in session 19 (trees, rhd), 0.85x for SHARP.
constexpr double TLM_LT_FACTOR = 0.8;
constexpr double TLM_LT_SHARP_FACTOR = 0.85;
// The idle fabric, per simulated span (dgx-h100 ring allreduce of 8 B at 1,024 and 4,096 GPUs:
// 2.6 and 10.4 ms simulated, almost all of the run). The cycle level delivers every forced FC
// refresh (link.fc_refresh_period) on every one-way link and VL: an FCTBS and an FCCL event at
// the partner, 58-96 ns per refresh measured. Both levels read every link per utilisation
// sample (link_sampler.h): 10-30 ns per link and sample at the cycle level, 22-30 at TLM.
constexpr double CYCLE_PER_FC_REFRESH = 80e-9;
constexpr double CYCLE_PER_LINK_SAMPLE = 15e-9;
constexpr double TLM_PER_LINK_SAMPLE = 25e-9;
// One dependent step of a collective (send, wire, switches, receive, the next send), for the
// simulated span: 1.27 us per ring step measured on dgx-h100 nodes with host.stack nccl (the
// 1,024- and 4,096-GPU rings above; NVLink steps inside the nodes, network steps between).
constexpr double STEP_US = 1.3;

/// Dependent steps on a collective's critical path (the latency part of its span).
double critical_steps(coll::op_kind op, coll::algo_kind algo, uint32_t n) {
    const double lg = std::ceil(std::log2(std::max(2.0, static_cast<double>(n))));
    const double hops = std::max(1.0, static_cast<double>(n) - 1.0);
    switch (algo) {
        case coll::algo_kind::ring:
            return op == coll::op_kind::allreduce ? 2 * hops : hops;
        case coll::algo_kind::pairwise:
            return hops;
        case coll::algo_kind::tree:
        case coll::algo_kind::rhd:
            return 2 * lg;
        case coll::algo_kind::rd:
        case coll::algo_kind::pat:
            return lg;
        case coll::algo_kind::p2p:
        case coll::algo_kind::direct:
            return 1;
        default:
            return 4;  // SHARP, NVLS, CollNet: up and down a tree inside and between the nodes
    }
}

/// SHARP chunks one member sends (and receives) for `bytes` of input, as the replay cuts them
/// (sharp_chunking.h; rails of a hierarchical collective assumed to get their SAT slot).
double sharp_chunks(const cfg::sharp_config& s, uint64_t bytes) {
    const uint64_t cb = sharp_chunk_bytes(s, sharp_wants_sat(s, bytes), 1);
    return std::max(1.0, std::ceil(static_cast<double>(bytes) / static_cast<double>(cb)));
}

/// The same at the TLM level: transactions, bursts of up to sim.tlm_sharp_burst
/// (sharp_burst_chunks).
double sharp_tlm_transactions(const cfg::config& c, uint64_t bytes) {
    const uint64_t cb = sharp_chunk_bytes(c.sharp, sharp_wants_sat(c.sharp, bytes), 1);
    const uint64_t chunks = std::max<uint64_t>(1, (bytes + cb - 1) / cb);
    const uint32_t burst = sharp_burst_chunks(c.sharp, c.sim.tlm_sharp_burst.count, cb, chunks);
    return static_cast<double>((chunks + burst - 1) / burst);
}

/// Payload bytes all transfers of one collective move: nccl-tests' bus bytes, ranks x
/// coll::busbw_factor x S; a point-to-point op moves S once.
double moved_bytes(coll::op_kind op, uint32_t n, double s) {
    if (trace::is_point_to_point(op)) return s;
    return n * coll::busbw_factor(op, coll::algo_kind::ring, n) * s;
}

}  // namespace

level_estimate estimate_replay(const cfg::config& c, const trace::trace& tr, uint32_t hosts) {
    level_estimate e;
    replay_counts& k = e.counts;
    k.hosts = hosts;
    k.path_links = c.fabric.topology == "single_switch" ? 2U : 2U * c.fabric.levels;
    const common::timing tm = common::derive_timing(c);
    const double mtu = static_cast<double>(c.hca.mtu.count);
    const double burst = static_cast<double>(c.sim.tlm_burst.count);
    const bool bursts = burst >= 2 * mtu;
    const double shared = std::min(burst, static_cast<double>(c.sim.tlm_burst_shared.count));
    const bool shared_bursts = bursts && shared >= 2 * mtu;
    // Payload bytes per simulated microsecond of one link.
    const double link_bytes_per_us = tm.block_bytes * 1e6 / static_cast<double>(tm.cycle_ps);
    std::vector<double> coll_us(tr.collectives.size(), 0.0);
    for (std::size_t i = 0; i < tr.collectives.size(); ++i) {
        const trace::collective_instance& ci = tr.collectives[i];
        const auto n = static_cast<uint32_t>(ci.ranks.size());
        const auto s = static_cast<double>(ci.bytes);
        const coll::algo_kind algo =
            ci.algo == coll::algo_kind::auto_ && !trace::is_point_to_point(ci.op)
                ? coll::choose_algo(ci.op, ci.bytes, std::max<uint32_t>(n, 1),
                                    coll::auto_rule::plain, 1)
                : ci.algo;
        coll_us[i] = critical_steps(ci.op, algo, n) * STEP_US +
                     moved_bytes(ci.op, n, s) / std::max<uint32_t>(n, 1) / link_bytes_per_us;
        // NCCL's CollNet and NVLS across nodes: one SHARP allreduce per rail, each member (a
        // GPU's HCA) holding 1/gpus of the buffer; their NVLink phases inside the nodes are
        // not counted.
        const bool rails =
            c.nccl.collnet && c.node.gpus > 1 && n > c.node.gpus &&
            (ci.algo == coll::algo_kind::collnet_direct ||
             ci.algo == coll::algo_kind::collnet_chain || ci.algo == coll::algo_kind::nvls);
        if (ci.algo == coll::algo_kind::sharp || rails) {
            const uint64_t member = rails ? (ci.bytes + c.node.gpus - 1) / c.node.gpus : ci.bytes;
            k.sharp_packets += 2.0 * n * sharp_chunks(c.sharp, member);
            k.sharp_transactions += 2.0 * n * sharp_tlm_transactions(c, member);
            if (sharp_carries_data(c.sharp, ci.op, ci.bytes)) {
                k.sharp_data_bytes += static_cast<double>(n) * static_cast<double>(member);
            }
            continue;
        }
        if (ci.algo == coll::algo_kind::nvls) continue;  // inside the nodes: no fabric packets
        coll::coll_params p;
        p.op = ci.op;
        p.algo = ci.algo;
        p.nranks = std::max<uint32_t>(n, 1);
        p.bytes = ci.bytes;
        p.root = ci.root;
        p.chunk_bytes = c.collective.chunk.count;
        p.channels = common::ring_channel_count(c.nccl.channels, c.node.gpus);
        p.channel_min_bytes = c.nccl.channel_min_block.count;
        p.dtype_bytes = 1;
        double t = 1.0;
        try {
            t = static_cast<double>(coll::transfer_count(p));
        } catch (const std::exception&) {
            t = std::max(1.0, 2.0 * (n - 1) * n);  // counted again, and refused, when built
        }
        if (t <= 0) continue;
        const double mean = moved_bytes(ci.op, n, s) / t;
        k.transfers += t;
        k.packets += t * std::max(1.0, std::ceil(mean / mtu));
        // The TLM HCA bursts up to sim.tlm_burst while one queue pair has the port and up to
        // sim.tlm_burst_shared while several take turns (fidelity_tlm.md): a tree sends to its
        // parent and children at once, direct and p2p to every peer, a ring to as many channels
        // as leave one node through one HCA.
        const bool one_qp =
            algo != coll::algo_kind::tree && algo != coll::algo_kind::direct &&
            algo != coll::algo_kind::p2p &&
            (algo != coll::algo_kind::ring || coll::ring_channels(p) <= c.node.gpus);
        const double unit = one_qp ? (bursts ? burst : mtu) : (shared_bursts ? shared : mtu);
        k.transactions += t * std::max(1.0, std::ceil(mean / unit));
    }
    // The simulated span: per rank its compute, gaps and collectives in sequence (an absolute
    // issue time starts it later); the busiest rank's.
    std::vector<double> rank_us(tr.nranks, 0.0);
    std::vector<int64_t> coll_of(tr.records.size(), -1);
    for (std::size_t i = 0; i < tr.collectives.size(); ++i) {
        for (const uint32_t r : tr.collectives[i].records) coll_of[r] = static_cast<int64_t>(i);
    }
    for (std::size_t r = 0; r < tr.records.size(); ++r) {
        const trace::op_record& rec = tr.records[r];
        if (rec.rank >= rank_us.size()) continue;
        double& at = rank_us[rec.rank];
        if (rec.issue_ns) at = std::max(at, static_cast<double>(*rec.issue_ns) / 1e3);
        at += static_cast<double>(rec.gap_ns) / 1e3;
        if (rec.compute) at += static_cast<double>(rec.duration_ns) / 1e3;
        if (coll_of[r] >= 0) at += coll_us[static_cast<std::size_t>(coll_of[r])];
    }
    for (const double at : rank_us) k.span_us = std::max(k.span_us, at);
    // One-way links: each host's link both ways; a fat tree adds the same count per level above
    // the leaves (full bisection).
    const double hosts_d = static_cast<double>(hosts);
    k.links = 2.0 * hosts_d * (c.fabric.topology == "single_switch" ? 1.0 : c.fabric.levels);
    const double span_cycles = k.span_us * 1e6 / static_cast<double>(tm.cycle_ps);
    k.fc_refreshes = k.links * c.sw.vls * span_cycles / std::max<uint32_t>(1, tm.refresh_cycles);
    const uint64_t period = c.report.utilisation_interval.ps;
    k.samples = sampler_takes(span_cycles, sampler_interval(tm.cycle_ps, period),
                              sampler_cap(static_cast<std::size_t>(k.links), period != 0));
    const double h = k.path_links;
    e.cycle_cpu_s = CYCLE_PER_PACKET_HOP * k.packets * h + CYCLE_PER_HOST * hosts_d +
                    CYCLE_PER_SHARP_PACKET_HOP * k.sharp_packets * h +
                    SHARP_DATA_PER_BYTE * k.sharp_data_bytes +
                    CYCLE_PER_FC_REFRESH * k.fc_refreshes +
                    CYCLE_PER_LINK_SAMPLE * k.links * k.samples;
    const bool lt = c.sim.tlm_mode == "lt";
    const double scale = 1.0 + std::log2(1.0 + hosts_d / TLM_HOSTS_DOUBLING);
    e.tlm_cpu_s =
        TLM_PER_TRANSACTION_HOP * (lt ? TLM_LT_FACTOR : 1.0) * scale * k.transactions * h +
        TLM_PER_HOST * hosts_d +
        TLM_PER_SHARP_TRANSACTION_HOP * (lt ? TLM_LT_SHARP_FACTOR : 1.0) * scale *
            k.sharp_transactions * h +
        SHARP_DATA_PER_BYTE * k.sharp_data_bytes + TLM_PER_LINK_SAMPLE * k.links * k.samples;
    return e;
}

}  // namespace ndr::tb
