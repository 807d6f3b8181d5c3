// The NCCL half of the trace replay (replay.h): what NCCL's tuner sees of a communicator and
// the algorithm and protocol a host collective runs (collective/nccl_tuner.h, nccl_proto.h).
// The transfers themselves are posted in replay.cpp.
#include <algorithm>
#include <string>

#include "collective/nccl_proto.h"
#include "collective/nccl_tuner.h"
#include "replay.h"

namespace ndr::tb {

coll::tuner_topology replay::tuner_topology_of(const trace::collective_instance& ci) const {
    coll::tuner_topology t;
    t.nranks = static_cast<uint32_t>(ci.ranks.size());
    t.nnodes = layout_.multi_gpu() ? static_cast<uint32_t>(layout_.node_groups(ci.ranks).size())
                                   : t.nranks;
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
    } else {
        t.bw_intra_GBps = t.bw_inter_GBps;
    }
    const std::string& a = cfg_.nccl.gpu_arch;
    t.arch = a == "volta"       ? coll::gpu_arch::volta
             : a == "ampere"    ? coll::gpu_arch::ampere
             : a == "blackwell" ? coll::gpu_arch::blackwell
                                : coll::gpu_arch::hopper;
    t.amd_cpu = cfg_.nccl.cpu == "amd";
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
        ch.estimate = coll::tuner_pick(ci.op, ci.bytes, t, algo, ch.proto);
        if (ch.estimate) {
            ch.algo = ch.estimate->algo;
            ch.proto = ch.estimate->proto;
        }
    }
    if (ch.proto == coll::proto_kind::auto_) ch.proto = coll::proto_kind::simple;
    return ch;
}

}  // namespace ndr::tb
