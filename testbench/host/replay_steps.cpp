#include <fmt/format.h>

#include <algorithm>

#include "replay.h"
#include "replay_tags.h"

// The replay's deferred steps (the endpoint software's and the node path's delays, SHARP's
// library steps, the hierarchical phases) and the NVLink node path: NVLink flows, the nodes'
// finish timers and NVLS collectives.

namespace ndr::tb {

using namespace replay_tags;

void replay::defer(cycle_t t, cycle_t at, step what, uint32_t run, uint32_t x) {
    uint32_t slot = 0;
    if (!free_deferred_.empty()) {
        slot = free_deferred_.back();
        free_deferred_.pop_back();
    } else {
        slot = static_cast<uint32_t>(deferred_.size());
        deferred_.emplace_back();
    }
    deferred_[slot] = deferred{what, run, x};
    hcas_.set_timer(std::max(at, t + 1), make_token(TIMER_DEFERRED, slot));
}

void replay::on_deferred(cycle_t t, uint32_t slot) {
    const deferred d = deferred_[slot];
    free_deferred_.push_back(slot);
    switch (d.what) {
        case step::ib_post:
            post_ib(t, d.run, d.x);
            break;
        case step::ib_arrive:
            host_arrive(t, d.run, d.x);
            break;
        case step::arrived: {
            xfer_event(t, d.run, d.x, false);
            const running& rr = runs_[d.run];
            if (tr_.collectives[rr.instance].op == coll::op_kind::rdma_read) {
                xfer_event(t, d.run, d.x, true);  // no separate ACK
            }
            break;
        }
        case step::launch:
            post_xfer(t, d.run, d.x);
            break;
        case step::host_post:
            post_now(t, d.run, d.x);
            break;
        case step::local_done:
            xfer_event(t, d.run, d.x, false);
            xfer_event(t, d.run, d.x, true);
            break;
        case step::sharp_post:
            sharp_post_chunk(t, d.run, d.x);
            break;
        case step::sharp_polled:
            sharp_polled(t, d.run, d.x);
            break;
        case step::sharp_return:
            sharp_member_done(t, d.run, d.x);
            break;
        case step::rndv_reply: {
            const running& rr = runs_[d.run];
            const coll::xfer& xf = xfer_of(rr, d.x);
            hcas_.post(t, common::verb::rdma_write_imm, host_of(rr.ranks[xf.dst]),
                       host_of(rr.ranks[xf.src]), 0, make_tag(d.run, d.x) | CTS_TAG);
            break;
        }
        case step::nvlink_start: {
            const running& rr = runs_[d.run];
            const coll::xfer& xf = xfer_of(rr, d.x);
            const common::gpu_ref a = layout_.of_rank(rr.ranks[xf.src]);
            const common::gpu_ref b = layout_.of_rank(rr.ranks[xf.dst]);
            nvl_->start(t, a.node, a.gpu, b.gpu, coll::wire_bytes(rr.proto, xf.bytes),
                        make_tag(d.run, d.x));
            arm_node(t, a.node);
            break;
        }
        case step::hier_phase:
            hier_phase(t, d.run);
            break;
        case step::hier_nvls: {
            // d.run = instance, d.x = (slice * members + member) * 2 + (1: ingress, 0: egress).
            const trace::collective_instance& ci = tr_.collectives[d.run];
            const hier_state& h = hier_.at(d.run);
            const auto n = static_cast<uint32_t>(ci.ranks.size());
            const uint32_t m = (d.x / 2) % n;
            const uint32_t k = d.x / 2 / n;
            const common::gpu_ref g = layout_.of_rank(ci.ranks[m]);
            const coll::nvls_phase_bytes b =
                coll::nvls_flows(h.phase[k] == 0, h.slice_len(k, ci.bytes), h.params.dtype_bytes,
                                 h.layout.gpus(), h.local_of[m]);
            const bool in = (d.x & 1U) != 0;
            bytes_posted_ += in ? 0 : b.egress;
            nvl_->start(t, g.node, in ? common::nvlink_fabric::NO_GPU : g.gpu,
                        in ? g.gpu : common::nvlink_fabric::NO_GPU, in ? b.ingress : b.egress,
                        NVLS_TAG | HIER_TAG | (uint64_t{d.run} << 24) | d.x,
                        cfg_.node.nvls_efficiency);
            arm_node(t, g.node);
            break;
        }
        case step::nvls_start: {
            // d.run = collective instance, d.x = member.
            const trace::collective_instance& ci = tr_.collectives[d.run];
            // NCCL's NVLS allreduce: member m reduces share m (multimem.ld_reduce: the switch
            // reads every member's copy of it) and multicasts the result (multimem.st). Each
            // GPU's link carries its whole buffer plus its share out (S + S/n), and its reduced
            // share plus every other result share in (S/n + S): S + ceil(S/n) each way.
            const common::gpu_ref g = layout_.of_rank(ci.ranks[d.x]);
            const uint64_t n = ci.ranks.size();
            nvl_->start(t, g.node, g.gpu, g.gpu, ci.bytes + (ci.bytes + n - 1) / n,
                        NVLS_TAG | (uint64_t{d.run} << 24) | d.x, cfg_.node.nvls_efficiency);
            arm_node(t, g.node);
            break;
        }
    }
}

void replay::arm_node(cycle_t t, uint32_t node) {
    const cycle_t at = std::max(nvl_->next_finish(node), t + 1);
    if (nvl_->next_finish(node) == common::nvlink_fabric::NEVER || node_armed_[node] == at) return;
    node_armed_[node] = at;
    const uint64_t gen = ++node_gen_[node];
    hcas_.set_timer(at, (TIMER_NODE << 62) | (gen << 20) | node);
}

void replay::on_node_timer(cycle_t t, uint32_t node, uint64_t gen) {
    if (gen != (node_gen_[node] & ((uint64_t{1} << 42) - 1))) return;  // re-armed since
    node_armed_[node] = common::nvlink_fabric::NEVER;
    for (const uint64_t tag : nvl_->advance(t, node)) {
        if (tag & NVLS_TAG) {
            if (tag & HIER_TAG) {
                const auto inst = static_cast<uint32_t>((tag & ~(NVLS_TAG | HIER_TAG)) >> 24);
                const auto x = static_cast<uint32_t>(tag & 0xFFFFFFU);
                hier_piece_done(t, inst,
                                x / 2 / static_cast<uint32_t>(tr_.collectives[inst].ranks.size()));
                continue;
            }
            const auto inst = static_cast<uint32_t>((tag & ~NVLS_TAG) >> 24);
            const auto m = static_cast<uint32_t>(tag & 0xFFFFFFU);
            const trace::collective_instance& ci = tr_.collectives[inst];
            finish_record(t, ci.records[m]);
            if (--nvls_left_[inst] == 0) {
                results_[inst].end = t;
                results_[inst].done = true;
            }
            continue;
        }
        const auto run = static_cast<uint32_t>(tag >> 32);
        const auto x = static_cast<uint32_t>(tag & 0xFFFFFFFFULL);
        xfer_event(t, run, x, false);
        xfer_event(t, run, x, true);
    }
    arm_node(t, node);
}

bool replay::start_nvls(cycle_t t, uint32_t inst, std::string& why) {
    const trace::collective_instance& ci = tr_.collectives[inst];
    if (!nvl_) {
        why = "NVLS needs GPUs on NVLink (node.gpus > 1)";
        return false;
    }
    if (!cfg_.node.nvls) {
        why = "the nodes have no NVLink SHARP (node.nvls is false)";
        return false;
    }
    if (ci.op != coll::op_kind::allreduce) {
        why = fmt::format("{} is not an NVLS operation here (allreduce only)", coll::name(ci.op));
        return false;
    }
    const uint32_t node = layout_.of_rank(ci.ranks[0]).node;
    for (const uint32_t r : ci.ranks) {
        if (layout_.of_rank(r).node != node) {
            why = "the members span several nodes (NVLS reduces inside one node)";
            return false;
        }
    }
    const auto n = static_cast<uint32_t>(ci.ranks.size());
    collective_result& res = results_[inst];
    res.start = t;
    res.algo = coll::algo_kind::nvls;
    res.transfers = n;
    nvls_left_[inst] = n;
    bytes_posted_ += uint64_t{n} * ci.bytes;
    for (uint32_t m = 0; m < n; ++m) defer(t, t + nvlink_cycles_, step::nvls_start, inst, m);
    return true;
}

}  // namespace ndr::tb
