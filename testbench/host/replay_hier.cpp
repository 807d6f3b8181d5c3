// The hierarchical half of the trace replay (replay.h): NCCL's CollNet Direct, CollNet Chain,
// NVLSTree and NVLS across nodes, three phases one after the other (collective/hier.h): inside
// the nodes (host transfers over NVLink, or NVLS flows), across them (one SHARP job per rail, or
// the rails' trees as host transfers), inside again. The records end with the last phase.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "collective/hier.h"
#include "config/config_error.h"
#include "replay.h"
#include "sharp_manager.h"

namespace ndr::tb {

namespace {

bool uses_sharp(coll::algo_kind a) {
    return a == coll::algo_kind::collnet_direct || a == coll::algo_kind::collnet_chain ||
           a == coll::algo_kind::nvls;
}

/// Slices NVLSTree's inter-node trees may run at once: NCCL_STEPS = 8, the slots of an NCCL
/// connection's buffer, so up to 8 chunks are in flight on a hop (docs/domain.md §13). The
/// other phases run one slice at a time: an NVLink or NVLS phase already fills the GPU's link,
/// and a rail's SHARP tree takes one job at a time (its OST window pipelines the chunks).
constexpr uint32_t HIER_WINDOW = 8;

bool uses_nvls(coll::algo_kind a) {
    return a == coll::algo_kind::nvls || a == coll::algo_kind::nvls_tree;
}

}  // namespace

bool replay::collnet_ready() const {
    return cfg_.nccl.collnet && layout_.multi_gpu() && sharp_ != nullptr && sharp_->enabled();
}

void replay::check_hier(const trace::collective_instance& ci, coll::algo_kind algo) const {
    if (coll::find_algo(algo)->where != coll::algo_class::hierarchical) return;
    const auto refuse = [&](const std::string& why) {
        throw cfg::config_error(fmt::format("{}:{}: algo: {} {}; use ring, tree or auto", tr_.path,
                                            ci.line, coll::name(algo), why));
    };
    if (ci.op != coll::op_kind::allreduce) {
        refuse(fmt::format("runs allreduce only, not {}", coll::name(ci.op)));
    }
    if (!layout_.multi_gpu()) {
        refuse(
            "needs multi-GPU nodes (node.gpus > 1): NCCL runs it over NVLink (NVSwitch) inside "
            "the nodes");
    }
    const auto groups = layout_.node_groups(ci.ranks);
    bool even = !groups.empty();
    for (const auto& g : groups) even = even && g.size() == groups[0].size();
    if (!even) {
        refuse(fmt::format(
            "needs the communicator on 2 or more nodes with the same number (2 or more) of GPUs "
            "each, but this allreduce of communicator {} has {} ranks on {} node(s) (NCCL "
            "disables it on one node and with one GPU per node)",
            ci.comm, ci.ranks.size(), groups.empty() ? 1 : groups.size()));
    }
    if (uses_nvls(algo) && !cfg_.node.nvls) {
        refuse("needs NVLink SHARP in the nodes (node.nvls is false)");
    }
    if (algo == coll::algo_kind::collnet_direct || algo == coll::algo_kind::collnet_chain) {
        if (!cfg_.nccl.collnet) {
            refuse(
                "needs CollNet: nccl.collnet=true (NCCL_COLLNET_ENABLE=1, with the SHARP plugin)");
        }
        if (sharp_ == nullptr || !sharp_->enabled()) {
            refuse("needs SHARP on the fabric (fabric.technology ib, sharp.vl a weighted data VL)");
        }
        const std::string why = sharp_unsupported(tr_.records[ci.records[0]], ci.op);
        if (!why.empty()) refuse("runs on SHARP, but " + why);
    }
}

uint32_t replay::rail_comm(uint32_t comm, uint32_t r) {
    // Keys above every trace communicator id a run can hold (ids are dense from 0).
    const auto key = std::make_pair(comm, r);
    const auto it = rail_comm_.find(key);
    if (it != rail_comm_.end()) return it->second;
    const auto id = static_cast<uint32_t>(0xF0000000U + rail_comm_.size());
    rail_comm_.emplace(key, id);
    return id;
}

bool replay::start_hier(cycle_t t, uint32_t inst, const nccl_choice& ch, std::string& why) {
    const trace::collective_instance& ci = tr_.collectives[inst];
    // The trace's own algo was checked before the run; one the tuner chose falls back instead.
    // NVLS across nodes: the checks of nvls_tree hold for it too.
    try {
        check_hier(ci, ch.algo == coll::algo_kind::nvls ? coll::algo_kind::nvls_tree : ch.algo);
    } catch (const cfg::config_error& e) {
        // nvls falls back across nodes as it always has on one (its refusal is its fallback).
        if (requested_algo(ci) == ch.algo && ch.algo != coll::algo_kind::nvls) throw;
        why = e.what();
        return false;
    }
    hier_state h;
    h.algo = ch.algo;
    h.layout.groups = layout_.node_groups(ci.ranks);
    h.params = host_params(inst, coll::algo_kind::ring, coll::proto_kind::simple);
    h.local_of.assign(ci.ranks.size(), 0);
    for (const auto& g : h.layout.groups) {
        for (uint32_t i = 0; i < g.size(); ++i) h.local_of[g[i]] = i;
    }
    if (uses_sharp(ch.algo)) {
        // One SHARP tree per rail, found before anything moves (the phase cannot wait).
        const std::string bad = sharp_unsupported(tr_.records[ci.records[0]], ci.op);
        if (!bad.empty()) {
            why = bad;
            return false;
        }
        for (uint32_t r = 0; r < h.layout.gpus(); ++r) {
            std::vector<uint32_t> hosts;
            for (const auto& g : h.layout.groups) hosts.push_back(host_of(ci.ranks[g[r]]));
            if (sharp_->tree_for(rail_comm(ci.comm, r), hosts, why) == nullptr) {
                why = fmt::format("rail {}: {}", r, why);
                return false;
            }
        }
    }
    // Slices of one chunk per head; fewer, larger ones if the NVLS flow tags would overflow.
    const uint64_t g = h.layout.gpus();
    const auto n = static_cast<uint64_t>(ci.ranks.size());
    const uint64_t elem = h.params.dtype_bytes;
    uint64_t slice = std::max<uint64_t>(elem, g * std::max<uint64_t>(1, h.params.chunk_bytes));
    const uint64_t most = std::max<uint64_t>(1, ((uint64_t{1} << 24) - 1) / (2 * n));
    slice = std::max(slice, (ci.bytes + most - 1) / most);
    slice = (slice + elem - 1) / elem * elem;
    h.slice_bytes = slice;
    h.slices = static_cast<uint32_t>(std::max<uint64_t>(1, (ci.bytes + slice - 1) / slice));
    h.phase.assign(h.slices, 0);
    h.running.assign(h.slices, 0);
    h.left.assign(h.slices, 0);
    collective_result& res = results_[inst];
    res.start = t;
    res.algo = ch.algo;
    res.proto = coll::proto_kind::simple;  // NCCL runs them with Simple only
    res.tuner = ch.estimate;
    res.transfers = 0;
    hier_[inst] = std::move(h);
    // One kernel launch (host.stack nccl), then the phases.
    defer(t, t + stack_.launch_cycles(), step::hier_phase, inst, 0);
    return true;
}

uint64_t replay::hier_state::slice_len(uint32_t k, uint64_t total) const {
    const uint64_t off = uint64_t{k} * slice_bytes;
    return off >= total ? 0 : std::min(slice_bytes, total - off);
}

void replay::hier_phase(cycle_t t, uint32_t inst) {
    // Start every phase slice that may run: per phase the next slices in order, while the
    // window has room and each has run the phase before (phases 3, 2, 1: the one nearest the
    // end first).
    for (uint32_t p = 3; p >= 1; --p) {
        for (;;) {
            const auto it = hier_.find(inst);
            if (it == hier_.end()) return;  // finished meanwhile
            hier_state& h = it->second;
            const uint32_t k = h.started[p];
            const uint32_t window = p == 2 && !uses_sharp(h.algo) ? HIER_WINDOW : 1;
            if (k >= h.slices || h.running[k] || h.phase[k] != p - 1 || h.active[p] >= window) {
                break;
            }
            ++h.started[p];
            ++h.active[p];
            hier_start_phase(t, inst, k);
        }
    }
}

void replay::hier_start_phase(cycle_t t, uint32_t inst, uint32_t k) {
    hier_state& h = hier_.at(inst);
    const trace::collective_instance& ci = tr_.collectives[inst];
    const uint32_t phase = h.phase[k] + 1u;
    const auto n = static_cast<uint32_t>(ci.ranks.size());
    const uint64_t bytes = h.slice_len(k, ci.bytes);
    h.running[k] = 1;
    const bool intra = phase != 2;
    if (intra && uses_nvls(h.algo)) {
        // NVLS reduce-scatter (phase 1) or multicast (phase 3): two one-way flows per GPU.
        h.left[k] = uint64_t{2} * n;
        results_[inst].transfers += uint64_t{2} * n;
        for (uint32_t m = 0; m < n; ++m) {
            const uint32_t x = (k * n + m) * 2;
            defer(t, t + nvlink_cycles_, step::hier_nvls, inst, x);
            defer(t, t + nvlink_cycles_, step::hier_nvls, inst, x + 1);
        }
        return;
    }
    if (!intra && uses_sharp(h.algo)) {
        // One SHARP allreduce per rail: the heads of rail r reduce block r of the slice.
        std::vector<uint32_t> rails;
        for (uint32_t r = 0; r < h.layout.gpus(); ++r) {
            if (coll::block_range(bytes, h.params.dtype_bytes, h.layout.gpus(), r).bytes != 0) {
                rails.push_back(r);
            }
        }
        h.left[k] = rails.size() + 1;  // + 1: held until every rail has started
        const coll::hier_layout groups = h.layout;
        const uint32_t dt = h.params.dtype_bytes;
        for (const uint32_t r : rails) {
            std::vector<uint32_t> hosts;
            for (const auto& gr : groups.groups) hosts.push_back(host_of(ci.ranks[gr[r]]));
            const uint64_t b = coll::block_range(bytes, dt, groups.gpus(), r).bytes;
            std::string why;
            if (!start_sharp_job(t, inst, rail_comm(ci.comm, r), hosts, b, true, why, k)) {
                throw std::runtime_error(fmt::format("{}:{}: {} rail {}: SHARP failed: {}",
                                                     tr_.path, ci.line,
                                                     coll::name(hier_.at(inst).algo), r, why));
            }
        }
        hier_piece_done(t, inst, k);
        return;
    }
    // A host run: CollNet's NVLink phases, or NVLSTree's trees across the nodes.
    coll::coll_params p = h.params;
    p.bytes = bytes;
    running run;
    run.instance = inst;
    run.proto = coll::proto_kind::simple;
    run.hier = true;
    run.slice = k;
    run.ranks = ci.ranks;
    run.sched = phase == 2 ? coll::build_rail_trees(p, h.layout)
                           : coll::build_collnet_intra(h.algo, phase == 1, p, h.layout);
    run.sched.params.nranks = n;
    results_[inst].transfers += run.sched.xfers.size();
    h.left[k] = 1;
    start_run(t, std::move(run), 0);
}

void replay::hier_piece_done(cycle_t t, uint32_t inst, uint32_t k) {
    hier_state& h = hier_.at(inst);
    if (--h.left[k] != 0) return;
    h.running[k] = 0;
    const uint32_t p = ++h.phase[k];
    --h.active[p];
    if (p == 3 && ++h.finished == h.slices) {  // done: every member's record ends now
        const trace::collective_instance& ci = tr_.collectives[inst];
        hier_.erase(inst);
        results_[inst].end = t;
        results_[inst].done = true;
        for (const uint32_t rec : ci.records) {
            if (rec != UINT32_MAX) finish_record(t, rec);
        }
        return;
    }
    hier_phase(t, inst);
}

}  // namespace ndr::tb
