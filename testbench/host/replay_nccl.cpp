// The NCCL half of the trace replay (replay.h): what NCCL's tuner sees of a communicator, the
// algorithm and protocol a host collective runs (collective/nccl_tuner.h, nccl_proto.h), PAT's
// one-rank-per-node rule and PXN's relays (collective/pxn.h). The transfers themselves are
// posted in replay.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

#include "collective/nccl_proto.h"
#include "collective/nccl_tuner.h"
#include "collective/pxn.h"
#include "config/config_error.h"
#include "replay.h"

namespace ndr::tb {

namespace {

/// Nodes the global ranks `members` occupy.
uint32_t nodes_of(const common::node_layout& l, const std::vector<uint32_t>& members) {
    std::set<uint32_t> nodes;
    for (const uint32_t r : members) nodes.insert(l.of_rank(r).node);
    return static_cast<uint32_t>(nodes.size());
}

}  // namespace

coll::tuner_topology replay::tuner_topology_of(const trace::collective_instance& ci) const {
    coll::tuner_topology t;
    t.nranks = static_cast<uint32_t>(ci.ranks.size());
    if (layout_.multi_gpu()) {
        // node_groups is empty both for one node and for one rank per node; the latter (where
        // NCCL may run PAT) is every rank's own node. One node stays 0 nodes: no estimate, the
        // host choice (as before PAT).
        const auto groups = static_cast<uint32_t>(layout_.node_groups(ci.ranks).size());
        const uint32_t nodes = nodes_of(layout_, ci.ranks);
        t.nnodes = groups != 0 ? groups : (nodes > 1 && nodes == t.nranks ? nodes : 0);
    } else {
        t.nnodes = t.nranks;
    }
    t.channels = common::ring_channel_count(cfg_.nccl.channels, layout_.gpus());
    // NCCL's NET bandwidth is the port's rate; a node's rings share its HCAs, and a ring's
    // per-channel speed is the same inside and across nodes (docs/architecture.md "NCCL's
    // tuner").
    t.bw_inter_GBps = nic_GBps_ * (layout_.multi_gpu() ? layout_.hcas() : 1);
    if (layout_.multi_gpu()) {
        t.bw_intra_GBps = t.nnodes == 1 ? nvlink_GBps_ : std::min(nvlink_GBps_, t.bw_inter_GBps);
        if (t.nnodes == 1) t.bw_inter_GBps = t.bw_intra_GBps;  // no NET inside one node
        t.nvlink = true;
        t.nvls = cfg_.node.nvls;
        // NCCL's NVLS and CollNet graphs are NVLink graphs: one GPU's NVLink rate, uncapped.
        t.bw_nvlink_GBps = nvlink_GBps_;
        t.collnet = collnet_ready();
    } else {
        t.bw_intra_GBps = t.bw_inter_GBps;
    }
    const std::string& a = cfg_.nccl.gpu_arch;
    t.arch = a == "volta"       ? coll::gpu_arch::volta
             : a == "ampere"    ? coll::gpu_arch::ampere
             : a == "blackwell" ? coll::gpu_arch::blackwell
                                : coll::gpu_arch::hopper;
    t.amd_cpu = cfg_.nccl.cpu == "amd";
    const trace::op_record& first =
        tr_.records[ci.records[0] != UINT32_MAX ? ci.records[0] : ci.records[1]];
    t.pat_redop = first.rop != coll::redop::avg;  // NCCL's avg is a pre/post-scaled sum
    return t;
}

replay::nccl_choice replay::choose(uint32_t inst, coll::algo_kind algo, bool allow_nvls) const {
    const trace::collective_instance& ci = tr_.collectives[inst];
    nccl_choice ch;
    ch.algo = algo;
    ch.proto = ci.proto != coll::proto_kind::auto_
                   ? ci.proto
                   : coll::parse_proto(cfg_.nccl.proto).value_or(coll::proto_kind::auto_);
    if (stack_.kind() == common::stack_kind::nccl) {
        coll::tuner_topology t = tuner_topology_of(ci);
        t.nvls = t.nvls && allow_nvls;
        t.collnet = t.collnet && allow_nvls;
        ch.estimate = coll::tuner_pick(ci.op, ci.bytes, t, algo, ch.proto);
        if (ch.estimate) {
            ch.algo = ch.estimate->algo;
            ch.proto = ch.estimate->proto;
        }
    }
    if (ch.proto == coll::proto_kind::auto_) ch.proto = coll::proto_kind::simple;
    return ch;
}

coll::algo_kind replay::requested_algo(const trace::collective_instance& ci) const {
    if (ci.algo != coll::algo_kind::auto_) return ci.algo;
    const auto a = coll::parse_algo(cfg_.nccl.algo).value_or(coll::algo_kind::auto_);
    return coll::algo_runs(a, ci.op) ? a : coll::algo_kind::auto_;
}

void replay::check_pat(const trace::collective_instance& ci, coll::algo_kind algo) const {
    if (algo != coll::algo_kind::pat || !layout_.multi_gpu()) return;
    const uint32_t nodes = nodes_of(layout_, ci.ranks);
    if (nodes == ci.ranks.size()) return;
    throw cfg::config_error(fmt::format(
        "{}:{}: algo: pat runs only with one GPU per node (NCCL enables PAT only when nRanks == "
        "nNodes), but this {} of communicator {} has {} ranks on {} nodes (node.gpus {}); use "
        "ring or auto",
        tr_.path, ci.line, coll::name(ci.op), ci.comm, ci.ranks.size(), nodes, layout_.gpus()));
}

bool replay::pxn_applies(const trace::collective_instance& ci) const {
    const bool op = ci.op == coll::op_kind::alltoall || ci.op == coll::op_kind::send ||
                    ci.op == coll::op_kind::recv;
    return op && cfg_.nccl.pxn && layout_.multi_gpu() &&
           stack_.kind() == common::stack_kind::nccl && cfg_.fabric.topology == "rail_fat_tree";
}

void replay::relay_pxn(running& run, const trace::collective_instance& ci) const {
    run.ranks = ci.ranks;
    if (!pxn_applies(ci)) return;
    // Relay candidates: the communicator's ranks; for send and recv also the other members of
    // the communicator the pair belongs to (NCCL relays through any NVLink peer of the comm).
    std::vector<uint32_t> cand = ci.ranks;
    if (ci.op != coll::op_kind::alltoall) {
        for (const trace::communicator& c : tr_.comms) {
            if (c.id != ci.comm) continue;
            for (const uint32_t r : c.ranks) {
                if (std::find(cand.begin(), cand.end(), r) == cand.end()) cand.push_back(r);
            }
        }
    }
    std::vector<coll::pxn_rank> where;
    where.reserve(cand.size());
    for (const uint32_t r : cand) {
        const common::gpu_ref g = layout_.of_rank(r);
        where.push_back(coll::pxn_rank{g.node, layout_.hca_of_gpu(g.gpu)});
    }
    run.relayed = coll::apply_pxn(run.sched, where);
    cand.resize(run.sched.params.nranks + run.sched.relay_ranks);
    run.ranks = std::move(cand);
}

}  // namespace ndr::tb
