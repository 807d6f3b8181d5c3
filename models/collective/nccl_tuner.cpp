// NCCL's tuner (nccl_tuner.h): ncclTopoTuneModel's latency and bandwidth of one algorithm x
// protocol, and ncclTopoGetAlgoTime's estimate, with NCCL's default constants
// (src/graph/tuning.cc at NVIDIA/nccl 5067397; docs/domain.md §13 "NCCL's tuner").
#include "collective/nccl_tuner.h"

#include <algorithm>
#include <array>
#include <cstddef>

namespace ndr::coll {

namespace {

// NCCL's indices: algorithms Tree 0, Ring 1, CollNetDirect 2, CollNetChain 3, NVLS 4, NVLSTree 5,
// PAT 6; protocols LL 0, LL128 1, Simple 2; hardware NVLink 0, PCI 1, NET 2.
constexpr int TREE = 0;
constexpr int RING = 1;
constexpr int COLLNET_DIRECT = 2;
constexpr int COLLNET_CHAIN = 3;
constexpr int NVLS = 4;
constexpr int NVLS_TREE = 5;
constexpr int PAT = 6;
constexpr int NVLINK_HW = 0;
constexpr int PCI_HW = 1;
constexpr int NET_HW = 2;
constexpr int LL = 0;
constexpr int LL128 = 1;
constexpr int SIMPLE = 2;

using row3 = std::array<double, 3>;

/// baseLatencies [algo][proto], us.
constexpr std::array<row3, 7> BASE_LAT = {row3{6.8, 14.0, 8.4}, row3{6.6, 14.0, 8.4}, row3{0, 0, 0},
                                          row3{0, 0, 0},        row3{0, 0, 0},        row3{0, 0, 0},
                                          row3{8.0, 8.0, 8.0}};

/// hwLatencies [hw][algo][proto], us.
constexpr std::array<std::array<row3, 7>, 3> HW_LAT = {{
    {row3{0.6, 1.25, 4.0}, row3{0.6, 1.9, 3.4}, row3{0, 0, 3.7}, row3{0, 0, 2.8}, row3{0, 0, 25},
     row3{0, 0, 25}, row3{0, 0, 4.0}},
    {row3{1.0, 1.9, 4.0}, row3{1.0, 2.5, 5.7}, row3{0, 0, 3.7}, row3{0, 0, 2.8}, row3{0, 0, 0},
     row3{0, 0, 0}, row3{0, 0, 4.0}},
    {row3{5.0, 8.5, 14}, row3{2.7, 4.0, 14.0}, row3{0, 0, 31}, row3{0, 0, 30}, row3{0, 0, 18},
     row3{0, 0, 20.9}, row3{0, 0, 14}},
}};

/// llMaxBws [row][nodes index], GB/s: row = GPU generation on one node, CPU vendor otherwise.
constexpr std::array<row3, 4> LL_MAX_BW = {row3{39.0, 39.0, 20.4}, row3{87.7, 22.5, 19.0},
                                           row3{141.0, 45.0, 35.0},
                                           row3{2 * 141.0, 2 * 45.0, 2 * 35.0}};
/// perChMaxRingLL128Bws, perChMaxTreeLL128Bws, perChMaxTreeBws [GPU generation][nodes index].
constexpr std::array<row3, 4> RING_LL128_BW = {row3{20.0, 20.0, 20.0}, row3{20.0, 20.0, 20.0},
                                               row3{36.7, 36.7, 36.7}, row3{40.0, 40.0, 40.0}};
constexpr std::array<row3, 4> TREE_LL128_BW = {row3{20.0, 20.0, 20.0}, row3{20.0, 20.0, 20.0},
                                               row3{36.7, 36.7, 29.0}, row3{55.6, 31.67, 20.0}};
constexpr std::array<row3, 4> TREE_BW = {row3{26.5, 18.5, 10.0}, row3{24.0, 23.6, 17.8},
                                         row3{38.7, 41.4, 36.0}, row3{70.0, 42.8, 24.0}};
/// perChMaxNVLSTreeBws [GPU generation][nodes index] (Hopper and Blackwell: 0 on one node, where
/// NVLSTree is disabled).
constexpr std::array<row3, 4> NVLS_TREE_BW = {row3{26.5, 18.5, 10.0}, row3{24.0, 23.6, 17.8},
                                              row3{0.0, 57.7, 45.5}, row3{0.0, 96.0, 80.0}};
/// nvlsEfficiency [GPU generation].
constexpr std::array<double, 4> NVLS_EFFICIENCY = {0.0, 0.0, 0.85, 0.74};

/// treeCorrectionFactor [proto][log2(bytes / 64)], 64 B .. 256 MiB.
constexpr std::array<std::array<double, 24>, 3> TREE_CORRECTION = {{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6,  .5,
     .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6,  .6,
     .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
     .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},
}};

/// floor(log2 n); -1 for 0 (NCCL's log2Down).
int log2_down(uint64_t n) {
    int l = -1;
    while (n != 0) {
        n >>= 1;
        ++l;
    }
    return l;
}

int algo_index(algo_kind a) {
    switch (a) {
        case algo_kind::tree:
            return TREE;
        case algo_kind::ring:
            return RING;
        case algo_kind::collnet_direct:
            return COLLNET_DIRECT;
        case algo_kind::collnet_chain:
            return COLLNET_CHAIN;
        case algo_kind::nvls:
            return NVLS;
        case algo_kind::nvls_tree:
            return NVLS_TREE;
        case algo_kind::pat:
            return PAT;
        default:
            return -1;
    }
}

int proto_index(proto_kind p) {
    switch (p) {
        case proto_kind::ll:
            return LL;
        case proto_kind::ll128:
            return LL128;
        case proto_kind::simple:
            return SIMPLE;
        case proto_kind::auto_:
            break;
    }
    return -1;
}

bool tuned(op_kind op) {
    return op == op_kind::allreduce || op == op_kind::reduce_scatter || op == op_kind::allgather ||
           op == op_kind::broadcast || op == op_kind::reduce;
}

}  // namespace

std::optional<tuner_estimate> tuner_time(op_kind op, algo_kind algo, proto_kind proto,
                                         uint64_t bytes, const tuner_topology& t) {
    const int a = algo_index(algo);
    const int p = proto_index(proto);
    if (a < 0 || p < 0 || !tuned(op) || t.nranks <= 1 || t.nnodes < 1 || t.channels < 1) {
        return std::nullopt;
    }
    const bool allreduce = op == op_kind::allreduce;
    const bool rs_ag = op == op_kind::reduce_scatter || op == op_kind::allgather;
    // The ops each algorithm runs in NCCL (and in ndrsim): tree and nvls allreduce only, PAT
    // allgather and reduce_scatter only, with Simple and one rank per node (ncclPatEnable:
    // nNodes == nRanks).
    if (a == PAT && (!rs_ag || p != SIMPLE || t.nnodes != t.nranks ||
                     (op == op_kind::reduce_scatter && !t.pat_redop))) {
        return std::nullopt;
    }
    if (a != RING && a != PAT && !allreduce) return std::nullopt;
    const auto cc = static_cast<size_t>(t.arch);
    // NVLS and NVLSTree: Simple only, at least 2 channels, NVLink SHARP (nvlsSupport). NVLSTree
    // is disabled on one node; NVLS across nodes needs CollNet (NVLS + SHARP), as do CollNet
    // Direct (also only on NVSwitch systems) and Chain; CollNet is off below
    // NCCL_COLLNET_NODE_THRESHOLD = 2 nodes (init.cc). CollNet runs Simple only (busBw 0).
    const bool nvls_kind = a == NVLS || a == NVLS_TREE;
    const bool collnet_kind = a == COLLNET_DIRECT || a == COLLNET_CHAIN;
    if (nvls_kind &&
        (p != SIMPLE || !t.nvls || !t.nvlink || t.channels < 2 || NVLS_EFFICIENCY[cc] == 0.0)) {
        return std::nullopt;
    }
    if (a == NVLS_TREE && t.nnodes == 1) return std::nullopt;
    if (a == NVLS && t.nnodes > 1 && !t.collnet) return std::nullopt;
    if (collnet_kind && (p != SIMPLE || !t.collnet || t.nnodes < 2 || !t.nvlink)) {
        return std::nullopt;
    }
    if (p == LL128 && !t.ll128) return std::nullopt;

    const double n = t.nranks;
    const double nnodes = t.nnodes;
    const double nsteps = allreduce ? 2 * (n - 1) : rs_ag ? n - 1 : n;
    const size_t index2 = t.nnodes <= 2 ? t.nnodes - 1 : 2;
    const size_t index1 = t.nnodes == 1 ? cc : (t.amd_cpu ? 1 : 0);
    const double ll_max_bw = LL_MAX_BW[index1][index2];
    const double nch = t.channels;
    const double ppn = n / nnodes;
    const int intra_hw = t.nvlink ? NVLINK_HW : PCI_HW;
    const int hw = t.nnodes == 1 ? intra_hw : NET_HW;

    // Bus bandwidth: nChannels x the graph's per-channel bandwidth (intra on up to 2 nodes and
    // for CollNet, whose graphs are the NVLink ones).
    const double nvlink_bw = t.bw_nvlink_GBps > 0 ? t.bw_nvlink_GBps : t.bw_intra_GBps;
    double bus = t.nnodes <= 2 ? t.bw_intra_GBps : t.bw_inter_GBps;
    if (collnet_kind) bus = nvlink_bw;
    if (nvls_kind) {
        double intra = nvlink_bw * NVLS_EFFICIENCY[cc] * (nch - 1) / nch;
        intra *= allreduce ? 2.0 : (ppn - 1) / ppn;
        // NVLSTree on 2 nodes: each tree link carries half (interBw x 2).
        const double inter = t.bw_inter_GBps * (t.nnodes <= 2 && a == NVLS_TREE ? 2.0 : 1.0);
        bus = std::min(intra, inter);
        if (a == NVLS_TREE) bus = std::min(bus, nch * NVLS_TREE_BW[cc][index2]);
    }
    if (a == RING && p == LL) bus = std::min(ll_max_bw, bus * .5);
    if (a == RING && p == LL128) bus = std::min(bus * 0.92, nch * RING_LL128_BW[cc][index2]);
    if (a == TREE && allreduce) bus = std::min(bus * .92, nch * TREE_BW[cc][index2]);
    if (a == TREE && p == LL) bus = std::min(bus * 1.0 / 3.8, ll_max_bw);
    if (a == TREE && p == LL128) {
        bus = std::min(bus * (t.nnodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0),
                       nch * TREE_LL128_BW[cc][index2]);
    }
    if (a == PAT) bus *= .75;
    if (a == COLLNET_DIRECT) {
        // "Collnet+Direct requires all GPUs to have a local NIC to work at full speed": the
        // GPU/NIC ratio ppn / nChannels, halfway back to 1.
        double factor = ppn / nch;
        factor -= (factor - 1) / 2;
        bus /= factor;
        if (t.arch == gpu_arch::hopper || t.arch == gpu_arch::blackwell) bus *= .85;
    }
    // Bus bandwidth to algorithm bandwidth (NCCL leaves PAT's allgather and reduce_scatter
    // bandwidth as it is).
    if (a != PAT) bus *= (a == RING || nvls_kind) ? n / nsteps : .5;

    double lat = BASE_LAT[a][p];
    double intra_lat = HW_LAT[intra_hw][a][p];
    // With one rank per node the latencies are fully exposed: NCCL takes the tree's.
    const double inter_lat = ppn == 1 ? HW_LAT[NET_HW][TREE][p] : HW_LAT[NET_HW][a][p];
    if (a == RING) {
        if (op == op_kind::broadcast || op == op_kind::reduce) {
            lat += HW_LAT[hw][RING][p];  // NCCL's sameChannels case
        } else {
            double net_overhead = 0;
            if (t.nnodes > 1) {
                net_overhead = t.amd_cpu ? 2.0 : 1.0;
                if (p == SIMPLE) net_overhead *= 3;
            }
            intra_lat = std::max(intra_lat, net_overhead);
            const double inter_steps = t.nnodes == 1 ? 0
                                       : allreduce   ? 2 * (nnodes - 1)
                                                     : nnodes - 1;
            lat += (nsteps - inter_steps) * intra_lat + inter_steps * inter_lat;
        }
    } else if (a == TREE) {
        lat += 2 * ((static_cast<double>(t.nranks / t.nnodes) - 1) * intra_lat +
                    log2_down(t.nnodes) * inter_lat);
    } else if (a == PAT) {
        // A logarithmic part over the nodes and, NCCL notes, a linear part of 2.8 us per rank.
        lat += log2_down(t.nnodes) * (inter_lat / 3.5) + n * 2.8;
    } else if (a == COLLNET_DIRECT) {
        // One NVLink hop each way (if the node has peers), 0.4 us of arity serialisation per
        // local peer each way, and one SHARP operation across.
        const double peers = static_cast<double>(t.nranks / t.nnodes) - 1;
        lat += 2 * (std::min(1.0, peers) * intra_lat + peers * 0.4) + inter_lat;
    } else if (a == COLLNET_CHAIN) {
        lat += 2 * (static_cast<double>(t.nranks / t.nnodes) - 1) * intra_lat + inter_lat;
    } else if (a == NVLS_TREE) {
        lat += intra_lat + 2 * log2_down(t.nnodes) * inter_lat;
    } else {
        lat = intra_lat;  // NVLS; across nodes one SHARP operation more
        if (t.nnodes > 1) lat += inter_lat;
    }

    // ncclTopoGetAlgoTime.
    double bw = bus;
    if (bw <= 0) return std::nullopt;
    const int log_size = log2_down(bytes >> 6);
    if (a == TREE && allreduce && log_size >= 0 && log_size < 23) {
        bw *= TREE_CORRECTION[p][log_size];
    }
    if (a == NVLS_TREE && allreduce && log_size >= 0 && log_size < 24 &&
        t.arch == gpu_arch::blackwell) {
        bw *= TREE_CORRECTION[p][log_size];  // NCCL: Blackwell (compCap >= 100) on x86 only
    }
    if (a == RING && p == SIMPLE && t.nnodes > 1 && allreduce &&
        bytes / (uint64_t{t.channels} * t.nranks) >= 64) {
        lat *= t.arch == gpu_arch::volta ? 1.9 : 1.4;  // the ring's plateau
    }
    tuner_estimate e;
    e.algo = algo;
    e.proto = proto;
    e.latency_us = lat;
    e.bw_GBps = bw;
    e.time_us = lat + static_cast<double>(bytes) / (1000.0 * bw);
    return e;
}

std::vector<tuner_estimate> tuner_table(op_kind op, uint64_t bytes, const tuner_topology& t) {
    std::vector<tuner_estimate> out;
    for (const algo_kind a :
         {algo_kind::tree, algo_kind::ring, algo_kind::collnet_direct, algo_kind::collnet_chain,
          algo_kind::nvls, algo_kind::nvls_tree, algo_kind::pat}) {
        for (const proto_kind p : {proto_kind::ll, proto_kind::ll128, proto_kind::simple}) {
            if (auto e = tuner_time(op, a, p, bytes, t)) out.push_back(*e);
        }
    }
    return out;
}

std::optional<tuner_estimate> tuner_pick(op_kind op, uint64_t bytes, const tuner_topology& t,
                                         algo_kind algo, proto_kind proto) {
    std::optional<tuner_estimate> best;
    for (const tuner_estimate& e : tuner_table(op, bytes, t)) {
        if (algo != algo_kind::auto_ && e.algo != algo) continue;
        if (proto != proto_kind::auto_ && e.proto != proto) continue;
        if (!best || e.time_us < best->time_us) best = e;
    }
    return best;
}

}  // namespace ndr::coll
