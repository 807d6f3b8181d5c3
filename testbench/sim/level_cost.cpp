#include "level_cost.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "collective/coll_types.h"
#include "collective/schedule.h"
#include "common/node_layout.h"

namespace ndr::tb {

namespace {

// Per-unit CPU costs on the benchmark machine (2 cores, Debian 12, Release build), read off the
// calibration grid of docs/performance.md ("Choosing the level": 64-2,048 hosts, 8 B-16 MiB,
// ring, tree, SHARP, alltoall, allgather): user CPU seconds per unit.
// Cycle level: per packet-hop (0.28-0.82 us measured, congestion-free) and per host.
constexpr double CYCLE_PER_PACKET_HOP = 0.45e-6;
constexpr double CYCLE_PER_HOST = 45e-6;
constexpr double CYCLE_PER_SHARP_PACKET_HOP = 2.0e-6;
// TLM level (sim.tlm_mode at): per transaction-hop (socket calls, the link's PEQ, the FC update
// back), growing with the fabric as its state outgrows the caches (2.5 us at 64 hosts, 3.3 at
// 256, 7 at 1,024), and per host (the fabric's SystemC objects: sockets, PEQs, names).
constexpr double TLM_PER_TRANSACTION_HOP = 2.2e-6;
constexpr double TLM_HOSTS_DOUBLING = 512.0;  ///< the per-transaction cost grows by 1x per this
constexpr double TLM_PER_HOST = 450e-6;
constexpr double TLM_PER_SHARP_PACKET_HOP = 4.3e-6;
// sim.tlm_mode lt runs the same transactions without PEQs or per-step SystemC activations:
// 0.33-0.57x the AT cost per transaction measured, 0.74x for SHARP.
constexpr double TLM_LT_FACTOR = 0.5;
constexpr double TLM_LT_SHARP_FACTOR = 0.75;

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
    const double mtu = static_cast<double>(c.hca.mtu.count);
    const double burst = static_cast<double>(c.sim.tlm_burst.count);
    const bool bursts = burst >= 2 * mtu;
    for (const trace::collective_instance& ci : tr.collectives) {
        const auto n = static_cast<uint32_t>(ci.ranks.size());
        const auto s = static_cast<double>(ci.bytes);
        if (ci.algo == coll::algo_kind::sharp) {
            const double chunk =
                static_cast<double>(std::max<uint64_t>(1, c.sharp.sat_chunk.count));
            k.sharp_packets += 2.0 * n * std::max(1.0, std::ceil(s / chunk));
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
        k.transactions += t * (bursts ? std::max(1.0, std::ceil(mean / burst))
                                      : std::max(1.0, std::ceil(mean / mtu)));
    }
    const double h = k.path_links;
    const double hosts_d = static_cast<double>(hosts);
    e.cycle_cpu_s = CYCLE_PER_PACKET_HOP * k.packets * h + CYCLE_PER_HOST * hosts_d +
                    CYCLE_PER_SHARP_PACKET_HOP * k.sharp_packets * h;
    const bool lt = c.sim.tlm_mode == "lt";
    const double scale = 1.0 + hosts_d / TLM_HOSTS_DOUBLING;
    e.tlm_cpu_s =
        TLM_PER_TRANSACTION_HOP * (lt ? TLM_LT_FACTOR : 1.0) * scale * k.transactions * h +
        TLM_PER_HOST * hosts_d +
        TLM_PER_SHARP_PACKET_HOP * (lt ? TLM_LT_SHARP_FACTOR : 1.0) * k.sharp_packets * h;
    return e;
}

}  // namespace ndr::tb
