#include "replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>

#include "common/timing.h"
#include "config/config_error.h"
#include "replay_tags.h"
#include "sharp_manager.h"

namespace ndr::tb {

using namespace replay_tags;

namespace {

constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
/// The communicator rank whose part transfer x's arrival (ack false) or ACK (ack true) is: its
/// destination or its sender, except that a PXN relay outside the communicator (a rank >=
/// nranks, collective/pxn.h) sends on behalf of the original sender (the source of the one hop
/// its send waits for) and the hop's arrival there is nobody's part (NONE).
uint32_t member_of(const coll::schedule& s, uint32_t x, bool ack) {
    const coll::xfer& xf = s.xfers[x];
    const uint32_t r = ack ? xf.src : xf.dst;
    if (r < s.params.nranks) return r;
    return ack ? s.xfers[xf.deps[0]].src : NONE;
}

/// member_of for a streamed run (a ring: no relays).
uint32_t member_of(const coll::xfer& xf, bool ack) {
    return ack ? xf.src : xf.dst;
}

/// Runs f (build_schedule or check_schedule of instance ci); a schedule the trace cannot have
/// is bad input (exit 2), named by the instance's first line.
template <typename F>
auto named_by_line(const trace::trace& tr, const trace::collective_instance& ci, F&& f)
    -> decltype(f()) {
    try {
        return f();
    } catch (const coll::schedule_too_large& e) {
        throw cfg::config_error(fmt::format("{}:{}: count: {} collective of {} bytes {}", tr.path,
                                            ci.line, coll::name(ci.op), ci.bytes, e.what()));
    } catch (const std::invalid_argument& e) {
        // An algorithm the op cannot run, ...
        const std::string what = e.what();
        throw cfg::config_error(
            fmt::format("{}:{}: {}: {}", tr.path, ci.line,
                        what.find(" algo ") != std::string::npos ? "algo" : "op", what));
    }
}

}  // namespace

replay::replay(const cfg::config& c, const trace::trace& tr, common::hca_iface& hcas,
               sharp_manager* sharp)
    : cfg_(c),
      layout_(layout_of(c, tr)),
      sharp_(sharp),
      tr_(tr),
      hcas_(hcas),
      cycle_ps_(common::derive_timing(c).cycle_ps),
      stack_(c, cycle_ps_, tr.nranks) {
    const common::timing tm = common::derive_timing(c);
    nic_GBps_ = static_cast<double>(tm.block_bytes) * 1000.0 / static_cast<double>(tm.cycle_ps);
    if (layout_.multi_gpu()) {
        // B per GPU and direction: the links it has on the NVSwitch (nvlink_fabric.h).
        const uint32_t links = std::min(c.node.nvlink_links, c.node.nvswitch_ports / c.node.gpus);
        // Data rate: the links' raw rate times node.nvlink_efficiency (NCCL's usable share).
        const double bytes_per_s = static_cast<double>(c.node.nvlink_bandwidth.bps) / 8.0 * links /
                                   c.node.nvlink_links * c.node.nvlink_efficiency;
        nvlink_GBps_ = bytes_per_s * 1e-9;
        nvl_ = std::make_unique<common::nvlink_fabric>(
            layout_.nodes(), layout_.gpus(), bytes_per_s * static_cast<double>(cycle_ps_) * 1e-12);
        nvlink_cycles_ = (c.node.nvlink_latency.ps + cycle_ps_ - 1) / cycle_ps_;
        pcie_cycles_ = (c.node.pcie_latency.ps + cycle_ps_ - 1) / cycle_ps_;
        node_gen_.assign(layout_.nodes(), 0);
        node_armed_.assign(layout_.nodes(), common::nvlink_fabric::NEVER);
    }
    // Every host schedule is checked before the simulation starts, without building it: a
    // collective too large to replay is refused at once, not after ~3 GB and the collectives
    // before it. (A SHARP collective is checked if it falls back to a host algorithm.)
    for (uint32_t i = 0; i < tr.collectives.size(); ++i) {
        const trace::collective_instance& ci = tr.collectives[i];
        const coll::algo_kind asked = requested_algo(ci);
        if (asked == coll::algo_kind::sharp || asked == coll::algo_kind::nvls) continue;
        const nccl_choice ch = choose(i, asked, false);
        check_pat(ci, ch.algo);
        if (coll::find_algo(ch.algo)->where == coll::algo_class::hierarchical) {
            check_hier(ci, ch.algo);
            continue;
        }
        // A ring reduce_scatter, allgather or allreduce unfolds (coll::ring_stream): its limit
        // is the transfer index, not the memory of a whole schedule.
        const coll::coll_params p = host_params(i, ch.algo, ch.proto);
        named_by_line(tr_, ci, [&] {
            if (coll::ring_stream::applies(p) && !pxn_applies(ci)) {
                coll::ring_stream::check(p);
            } else {
                coll::check_schedule(p);
            }
        });
    }
    log_transfers_ = c.report.timeline == "transfers" || c.report.timeline == "packets";
    const std::size_t n = tr.records.size();
    recs_.resize(n);
    inst_of_record_.assign(n, NONE);
    issued_members_.assign(tr.collectives.size(), 0);
    running_of_inst_.assign(tr.collectives.size(), NONE);
    results_.resize(tr.collectives.size());
    pair_bytes_ = pair_traffic(hcas.hosts());
    for (uint32_t i = 0; i < tr.collectives.size(); ++i) {
        results_[i].instance = i;
        for (uint32_t r : tr.collectives[i].records) {
            if (r != NONE) inst_of_record_[r] = i;
        }
    }
    // Resolve dependencies: ids are per rank; an empty list means the previous record.
    std::vector<std::vector<uint32_t>> by_rank(tr.nranks);
    for (uint32_t i = 0; i < n; ++i) by_rank[tr.records[i].rank].push_back(i);
    for (const auto& list : by_rank) {
        for (std::size_t k = 0; k < list.size(); ++k) {
            const uint32_t i = list[k];
            const trace::op_record& r = tr.records[i];
            if (r.issue_ns) continue;
            if (r.deps.empty()) {
                if (k > 0) {
                    recs_[list[k - 1]].dependents.push_back(i);
                    ++recs_[i].deps_left;
                }
                continue;
            }
            for (uint32_t id : r.deps) {
                const auto it = std::find_if(list.begin(), list.end(),
                                             [&](uint32_t j) { return tr.records[j].id == id; });
                if (it == list.end()) {
                    throw std::invalid_argument(
                        fmt::format("{}:{}: deps: no record with id {} on rank {}", tr.path, r.line,
                                    id, r.rank));
                }
                recs_[*it].dependents.push_back(i);
                ++recs_[i].deps_left;
            }
        }
    }
}

common::node_layout layout_of(const cfg::config& c, const trace::trace& tr) {
    try {
        return common::node_layout(c.node.gpus, c.node.hcas, tr.nranks, tr.placement);
    } catch (const std::invalid_argument& e) {
        throw cfg::config_error(fmt::format("{}:1: {} (a trace header field)", tr.path, e.what()));
    }
}

uint32_t hosts_of(const cfg::config& c, const trace::trace& tr, const common::node_layout& l) {
    const uint32_t need = l.hosts();
    if (c.fabric.hosts == 0) return std::max<uint32_t>(need, 1);
    if (c.fabric.hosts < need) {
        throw cfg::config_error(
            cfg::config_source::merged(), "fabric.hosts",
            l.multi_gpu()
                ? fmt::format("the trace {} has {} ranks on {} nodes of {} HCAs ({} "
                              "hosts) but the fabric only {} hosts",
                              tr.path, tr.nranks, l.nodes(), l.hcas(), need, c.fabric.hosts)
                : fmt::format("the trace {} has {} ranks but the fabric only {} hosts", tr.path,
                              tr.nranks, c.fabric.hosts));
    }
    if (l.multi_gpu() && c.fabric.hosts % l.hcas() != 0) {
        throw cfg::config_error(cfg::config_source::merged(), "fabric.hosts",
                                fmt::format("{} hosts are not whole nodes of {} HCAs (node.hcas)",
                                            c.fabric.hosts, l.hcas()));
    }
    return c.fabric.hosts;
}

coll::coll_params replay::host_params(uint32_t inst, coll::algo_kind algo,
                                      coll::proto_kind proto) const {
    const trace::collective_instance& ci = tr_.collectives[inst];
    coll::coll_params p;
    p.op = ci.op;
    p.algo = algo;
    p.nranks = static_cast<uint32_t>(ci.ranks.size());
    p.bytes = ci.bytes;
    const trace::op_record& first =
        tr_.records[ci.records[0] != NONE ? ci.records[0] : ci.records[1]];
    p.dtype_bytes = coll::dtype_bytes(first.dt);
    p.root = ci.root;
    const uint64_t step_data = coll::info(proto).step_data;
    p.chunk_bytes = step_data != 0 ? step_data : cfg_.collective.chunk.count;
    p.channels = common::ring_channel_count(cfg_.nccl.channels, layout_.gpus());
    p.channel_min_bytes = cfg_.nccl.channel_min_block.count;
    p.p2p_channels = cfg_.nccl.p2p_channels;
    if (layout_.multi_gpu()) p.node_groups = layout_.node_groups(ci.ranks);
    p.rule = stack_.kind() == common::stack_kind::mpi    ? coll::auto_rule::mpich
             : stack_.kind() == common::stack_kind::nccl ? coll::auto_rule::nccl
                                                         : coll::auto_rule::plain;
    return p;
}

cycle_t replay::ns_to_cycles(uint64_t ns) const {
    return (ns * 1000 + cycle_ps_ - 1) / cycle_ps_;
}

void replay::start() {
    for (uint32_t i = 0; i < tr_.records.size(); ++i) {
        const trace::op_record& r = tr_.records[i];
        if (r.issue_ns) {
            hcas_.set_timer(std::max<cycle_t>(1, ns_to_cycles(*r.issue_ns)),
                            make_token(TIMER_ISSUE, i));
        } else if (recs_[i].deps_left == 0) {
            ready(0, i);
        }
    }
}

void replay::ready(cycle_t t, uint32_t rec) {
    const trace::op_record& r = tr_.records[rec];
    const cycle_t at = std::max(t, recs_[rec].ready_at) + ns_to_cycles(r.gap_ns);
    // Timers fire strictly in the future; issuing at a later cycle than `t` goes through one.
    hcas_.set_timer(std::max(at, t + 1), make_token(TIMER_ISSUE, rec));
}

void replay::on_timer(cycle_t t, uint64_t token) {
    const uint64_t kind = token >> 62;
    const auto rec = static_cast<uint32_t>(token & 0xFFFFFFFFULL);
    if (kind == TIMER_DEFERRED) {
        on_deferred(t, rec);
    } else if (kind == TIMER_NODE) {
        on_node_timer(t, static_cast<uint32_t>(token & 0xFFFFFU),
                      (token & ~(uint64_t{3} << 62)) >> 20);
    } else if (kind == TIMER_ISSUE) {
        issue(t, rec);
    } else {
        finish_record(t, rec);
    }
}

void replay::issue(cycle_t t, uint32_t rec) {
    record_state& rs = recs_[rec];
    rs.issued = true;
    rs.issued_at = t;
    const trace::op_record& r = tr_.records[rec];
    if (r.compute) {
        const cycle_t d = ns_to_cycles(r.duration_ns);
        if (d == 0) {
            finish_record(t, rec);
        } else {
            hcas_.set_timer(t + d, make_token(TIMER_COMPUTE_DONE, rec));
        }
        return;
    }
    const uint32_t inst = inst_of_record_[rec];
    const trace::collective_instance& ci = tr_.collectives[inst];
    uint32_t expected = 0;
    for (uint32_t x : ci.records) expected += x != NONE ? 1U : 0U;
    if (++issued_members_[inst] == expected) start_collective(t, inst);
}

void replay::start_collective(cycle_t t, uint32_t inst) {
    const trace::collective_instance& ci = tr_.collectives[inst];
    coll::algo_kind algo = requested_algo(ci);
    if (algo == coll::algo_kind::sharp) {
        std::string why;
        if (start_sharp(t, inst, why)) return;
        results_[inst].fallback = why;  // a host algorithm instead, and the report says why
        algo = coll::algo_kind::auto_;
    }
    // host.stack nccl: NCCL's tuner resolves auto, and may pick NVLS.
    nccl_choice ch = algo == coll::algo_kind::nvls
                         ? nccl_choice{algo, coll::proto_kind::simple, std::nullopt}
                         : choose(inst, algo, true);
    // NVLS across nodes (with CollNet) and NCCL's other hierarchical algorithms.
    const bool nvls_nodes = ch.algo == coll::algo_kind::nvls && collnet_ready() &&
                            !layout_.node_groups(ci.ranks).empty();
    if (nvls_nodes || coll::find_algo(ch.algo)->where == coll::algo_class::hierarchical) {
        if (nvls_nodes && !ch.estimate) ch = choose(inst, coll::algo_kind::nvls, true);
        std::string why;
        if (start_hier(t, inst, ch, why)) return;
        results_[inst].fallback = why;
        ch = choose(inst, coll::algo_kind::auto_, false);
    }
    if (ch.algo == coll::algo_kind::nvls) {
        std::string why;
        if (start_nvls(t, inst, why)) {
            results_[inst].tuner = ch.estimate;
            return;
        }
        results_[inst].fallback = why;
        ch = choose(inst, coll::algo_kind::auto_, false);
    }
    const coll::coll_params p = host_params(inst, ch.algo, ch.proto);
    running run;
    run.instance = inst;
    run.proto = ch.proto;
    if (coll::ring_stream::applies(p) && !pxn_applies(ci)) {
        named_by_line(tr_, ci, [&] { coll::ring_stream::check(p); });
        run.stream = std::make_unique<coll::ring_stream>(p);
        run.sched.params = run.stream->params();
        run.sched.algo = coll::algo_kind::ring;
        run.total = run.stream->total();
    } else {
        run.sched = named_by_line(tr_, ci, [&] { return coll::build_schedule(p); });
    }
    relay_pxn(run, ci);
    collective_result& res = results_[inst];
    res.start = t;
    res.algo = run.sched.algo;
    res.proto = ch.proto;
    res.tuner = ch.estimate;
    res.transfers = run.stream ? run.total : run.sched.xfers.size();
    res.relayed = run.relayed;
    start_run(t, std::move(run), stack_.launch_cycles());  // host.stack nccl: the kernel launch
}

void replay::start_run(cycle_t t, running run, cycle_t launch) {
    const uint32_t members = run.sched.params.nranks;  // PXN relays outside the comm are none
    if (run.stream) {
        start_streamed(t, std::move(run), launch);
        return;
    }
    const std::size_t nx = run.sched.xfers.size();
    run.total = nx;
    run.slots.resize(nx);
    if (log_transfers_) run.posted_at.resize(nx);
    run.pending_per_rank.assign(members, 0);
    for (uint32_t x = 0; x < nx; ++x) {
        const coll::xfer& xf = run.sched.xfers[x];
        run.slots[x].st.waiting = static_cast<uint32_t>(xf.deps.size());
        for (uint32_t d : xf.deps) {
            const coll::xfer& dep = run.sched.xfers[d];
            const bool on_ack = dep.dst != xf.src && dep.src == xf.src;
            run.slots[d].deps.push_back(dependent{x, on_ack});
        }
        for (const bool ack : {false, true}) {
            const uint32_t m = member_of(run.sched, x, ack);
            if (m != NONE) ++run.pending_per_rank[m];
        }
    }
    const uint32_t idx = enlist(t, std::move(run));
    for (uint32_t x = 0; x < nx; ++x) {
        // Local steps complete when posted: they may have posted their dependents, or ended
        // the run (which drops its transfers).
        if (runs_[idx].members_left == 0) break;
        const xfer_state& st = runs_[idx].slots[x].st;
        if (st.waiting != 0 || st.posted) continue;
        if (launch == 0) {
            post_xfer(t, idx, x);
        } else {
            runs_[idx].slots[x].st.posted = true;
            defer(t, t + launch, step::launch, idx, x);
        }
    }
}

uint32_t replay::enlist(cycle_t t, running run) {
    const uint32_t members = run.sched.params.nranks;  // PXN relays outside the comm are none
    run.members_left = members;
    const auto idx = static_cast<uint32_t>(runs_.size());
    running_of_inst_[run.instance] = idx;
    runs_.push_back(std::move(run));
    for (uint32_t cr = 0; cr < members; ++cr) {
        if (runs_[idx].pending_per_rank[cr] == 0) member_done(t, idx, cr);
    }
    return idx;
}

void replay::post_xfer(cycle_t t, uint32_t run, uint32_t x) {
    post_xfer(t, run, x, ref_of(runs_[run], x));
}

void replay::post_xfer(cycle_t t, uint32_t run, uint32_t x, const xref& r) {
    running& rr = runs_[run];
    r.st->posted = true;
    if (r.posted != nullptr) *r.posted = t;
    const coll::xfer& xf = *r.xf;
    if (xf.src == xf.dst) {  // a local step (rd's reduction of a received buffer): no traffic
        const cycle_t d = stack_.local_cycles(xf.bytes, xf.reduce);
        if (d != 0) {
            defer(t, t + d, step::local_done, run, x);
        } else {
            xfer_event(t, run, x, false);
            xfer_event(t, run, x, true);
        }
        return;
    }
    // The endpoint software before the transfer reaches the HCA (host.stack); NVLink transfers
    // inside a node do not pass it.
    const uint32_t rs = rr.ranks[xf.src];
    const bool nvlink = layout_.multi_gpu() && layout_.same_node(rs, rr.ranks[xf.dst]);
    const cycle_t at = nvlink ? t : stack_.post_at(t, rs, xf.bytes);
    if (at > t) {
        defer(t, at, step::host_post, run, x);
        return;
    }
    post_now(t, run, x, xf);
}

void replay::post_now(cycle_t t, uint32_t run, uint32_t x, const coll::xfer& xf) {
    const running& rr = runs_[run];
    if (layout_.multi_gpu()) {
        // Node path: GPUs of one node talk over NVLink (after its latency), the others through
        // their HCAs, after a PCIe crossing from the GPU to its HCA.
        bytes_posted_ += xf.bytes;
        const uint32_t rs = rr.ranks[xf.src];
        const uint32_t rd = rr.ranks[xf.dst];
        if (rs == rd) {
            xfer_event(t, run, x, false);
            xfer_event(t, run, x, true);
        } else if (layout_.same_node(rs, rd)) {
            defer(t, t + nvlink_cycles_, step::nvlink_start, run, x);
        } else {
            defer(t, t + pcie_cycles_, step::ib_post, run, x);
        }
        return;
    }
    bytes_posted_ += xf.bytes;
    post_ib(t, run, x);
}

void replay::post_ib(cycle_t t, uint32_t run, uint32_t x) {
    running& rr = runs_[run];
    const coll::xfer& xf = xfer_of(rr, x);
    const trace::collective_instance& ci = tr_.collectives[rr.instance];
    const uint32_t src = host_of(rr.ranks[xf.src]);
    const uint32_t dst = host_of(rr.ranks[xf.dst]);
    const bool two_sided = ci.op != coll::op_kind::rdma_read && ci.op != coll::op_kind::rdma_write;
    if (src != dst && two_sided && !ref_of(rr, x).st->handshaken && stack_.rendezvous(xf.bytes)) {
        // host.stack mpi rendezvous: the request goes first; the data follows the reply.
        hcas_.post(t, common::verb::rdma_write_imm, src, dst, 0, make_tag(run, x) | RTS_TAG);
        return;
    }
    if (ci.op == coll::op_kind::rdma_read) {
        // The initiator (the transfer's destination) reads from the peer.
        hcas_.post(t, common::verb::rdma_read, dst, src, xf.bytes, make_tag(run, x));
    } else if (src == dst) {
        // Ranks sharing a host: a local copy, complete at once.
        xfer_event(t, run, x, false);
        xfer_event(t, run, x, true);
    } else {
        // Collectives move data with RDMA WRITE with immediate (the receiver needs a
        // completion); a one-sided rdma_write record is a plain RDMA WRITE.
        const common::verb v = ci.op == coll::op_kind::send         ? common::verb::send
                               : ci.op == coll::op_kind::rdma_write ? common::verb::rdma_write
                                                                    : common::verb::rdma_write_imm;
        hcas_.post(t, v, src, dst, coll::wire_bytes(rr.proto, xf.bytes), make_tag(run, x));
    }
}

void replay::on_delivered(cycle_t t, uint32_t dst, uint64_t tag) {
    const auto run = static_cast<uint32_t>((tag & ~CONTROL_TAGS) >> 32);
    const auto x = static_cast<uint32_t>(tag & 0xFFFFFFFFULL);
    if (tag & RTS_TAG) {  // the receiver answers after its per-message overhead
        defer(t, t + stack_.handshake_cycles(), step::rndv_reply, run, x);
        return;
    }
    if (tag & CTS_TAG) {  // the sender may now send the data
        ref_of(runs_[run], x).st->handshaken = true;
        post_ib(t, run, x);
        return;
    }
    const running& rr = runs_[run];
    const coll::xfer& xf = xfer_of(rr, x);
    (void)dst;
    pair_bytes_.add(host_of(rr.ranks[xf.src]), host_of(rr.ranks[xf.dst]), xf.bytes);
    if (layout_.multi_gpu()) {  // the HCA writes the data into its GPU across the PCIe switch
        defer(t, t + pcie_cycles_, step::ib_arrive, run, x);
        return;
    }
    host_arrive(t, run, x);
}

void replay::host_arrive(cycle_t t, uint32_t run, uint32_t x) {
    const coll::xfer& xf = xfer_of(runs_[run], x);
    // The endpoint software after the data has arrived (host.stack): at once when none; LL and
    // LL128 receivers poll the flags in the data, simple ones wait for the completion.
    const cycle_t d = stack_.arrival_cycles(xf.bytes, xf.reduce,
                                            coll::info(runs_[run].proto).completion_wait
                                                ? common::arrival_signal::completion
                                                : common::arrival_signal::flags);
    if (d != 0) {
        defer(t, t + d, step::arrived, run, x);
        return;
    }
    xfer_event(t, run, x, false);
    if (tr_.collectives[runs_[run].instance].op == coll::op_kind::rdma_read) {
        xfer_event(t, run, x, true);  // no separate ACK
    }
}

void replay::on_send_complete(cycle_t t, uint32_t src, uint64_t tag) {
    (void)src;
    if (tag & CONTROL_TAGS) return;  // a rendezvous request or reply: nothing waits for it
    xfer_event(t, static_cast<uint32_t>(tag >> 32), static_cast<uint32_t>(tag & 0xFFFFFFFFULL),
               true);
}

void replay::xfer_event(cycle_t t, uint32_t run, uint32_t x, bool ack) {
    running& rr = runs_[run];
    const xref r = ref_of(rr, x);  // one lookup: its level stays held until x completes
    if (r.level != nullptr) {
        // A streamed run unfolds the next level of x's chain before x's completion is handled
        // (ring_stream.h): its transfers must be waiting for their deps when they complete.
        unfold(rr, r.chain, r.k + 1);
    }
    xfer_state& xs = *r.st;
    if (ack ? xs.acked : xs.arrived) {
        throw std::logic_error(
            fmt::format("transfer {} of collective {} completed twice", x, rr.instance));
    }
    (ack ? xs.acked : xs.arrived) = true;
    if (!ack && log_transfers_) {
        transfers_.push_back(transfer_slice{rr.instance, rr.ranks[r.xf->src], rr.ranks[r.xf->dst],
                                            r.xf->bytes, *r.posted, t});
    }
    // By index: what post_xfer starts may add to the runs (and to nothing else here).
    for (std::size_t i = 0; i < r.deps->size(); ++i) {
        const dependent d = (*r.deps)[i];
        if (d.on_ack != ack) continue;
        const xref dr = ref_of(rr, d.xfer);
        if (--dr.st->waiting == 0) post_xfer(t, run, d.xfer, dr);
    }
    const uint32_t cr = rr.stream ? member_of(*r.xf, ack) : member_of(rr.sched, x, ack);
    if (xs.arrived && xs.acked) {
        ++rr.complete;
        if (r.level != nullptr) {
            --r.level->left;
            drop_complete(rr, r.chain);
        }
    }
    if (cr != NONE && --rr.pending_per_rank[cr] == 0) member_done(t, run, cr);
}

void replay::member_done(cycle_t t, uint32_t run, uint32_t comm_rank) {
    running& rr = runs_[run];
    const trace::collective_instance& ci = tr_.collectives[rr.instance];
    // One-sided ops have a record only for the initiator; the peer has nothing to finish. A
    // phase of a hierarchical collective finishes no record: its last phase does.
    if (!rr.hier && comm_rank < ci.records.size() && ci.records[comm_rank] != NONE) {
        finish_record(t, ci.records[comm_rank]);
    }
    if (--rr.members_left == 0) {
        collective_result& res = results_[rr.instance];
        if (!rr.hier) {
            res.end = t;
            res.done = true;
        }
        if (rr.stream) res.held_peak = rr.held_peak;
        rr.sched.xfers.clear();
        rr.sched.xfers.shrink_to_fit();
        rr.slots.clear();
        rr.slots.shrink_to_fit();
        rr.posted_at.clear();
        rr.posted_at.shrink_to_fit();
        rr.win.clear();
        rr.win_lo.clear();
        if (rr.hier) hier_piece_done(t, rr.instance, rr.slice);
    }
}

void replay::finish_record(cycle_t t, uint32_t rec) {
    record_state& rs = recs_[rec];
    if (rs.done) return;
    rs.done = true;
    ++records_done_;
    slices_.push_back(rank_slice{tr_.records[rec].rank, rec, rs.issued_at, t});
    for (uint32_t d : rs.dependents) {
        record_state& ds = recs_[d];
        ds.ready_at = std::max(ds.ready_at, t);
        if (--ds.deps_left == 0) ready(t, d);
    }
}

std::string replay::pending_summary() const {
    std::string s;
    uint32_t shown = 0;
    for (const running& rr : runs_) {
        if (results_[rr.instance].done) continue;
        const trace::collective_instance& ci = tr_.collectives[rr.instance];
        s += fmt::format("{}{} (comm {}, seq {}, line {}): {} of {} transfers unfinished",
                         shown ? "; " : "", coll::name(ci.op), ci.comm, ci.seq,
                         tr_.records[ci.records[0] != NONE ? ci.records[0] : ci.records[1]].line,
                         rr.total - rr.complete, rr.total);
        if (rr.stream && !rr.win.empty()) {
            // Which ring steps are unfolded and not yet dropped (a step stays held until it
            // and every step before it completed).
            uint32_t lo = UINT32_MAX;
            uint32_t hi = 0;
            for (std::size_t c = 0; c < rr.win.size(); ++c) {
                if (rr.win[c].empty()) continue;
                lo = std::min(lo, rr.win_lo[c]);
                hi = std::max(hi, static_cast<uint32_t>(rr.win_lo[c] + rr.win[c].size() - 1));
            }
            if (lo != UINT32_MAX) {
                s += fmt::format(" ({} held, steps {} to {} of {})", rr.held, lo, hi,
                                 rr.stream->levels());
            }
        }
        if (++shown == 3) break;
    }
    if (!s.empty()) return s;
    // No collective running: name the first unfinished records (rank, line, whether issued).
    const uint64_t never = tr_.records.size() - records_done_;
    std::string which;
    uint32_t named = 0;
    for (std::size_t r = 0; r < recs_.size() && named < 3; ++r) {
        if (recs_[r].done) continue;
        which += fmt::format("{}rank {} line {} ({})", named ? ", " : "", tr_.records[r].rank,
                             tr_.records[r].line,
                             recs_[r].issued ? "issued, waiting for its peers or transfers"
                                             : "waiting for an earlier record");
        ++named;
    }
    return fmt::format("{} records never finished, first {}", never, which);
}

}  // namespace ndr::tb
