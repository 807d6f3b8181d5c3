#include "replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>

#include "common/timing.h"
#include "config/config_error.h"
#include "sharp_manager.h"

namespace ndr::tb {

namespace {

constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
constexpr uint64_t TIMER_ISSUE = 0;
constexpr uint64_t TIMER_COMPUTE_DONE = 1;
constexpr uint64_t TIMER_DEFERRED = 2;  ///< node path: a deferred step (slot in deferred_)
constexpr uint64_t TIMER_NODE = 3;      ///< node path: a node's next NVLink finish
constexpr uint64_t NVLS_TAG = uint64_t{1} << 63;
/// With NVLS_TAG: an NVLS flow of a hierarchical collective (replay_hier.cpp).
constexpr uint64_t HIER_TAG = uint64_t{1} << 62;
/// host.stack mpi rendezvous: the 0-byte request (sender -> receiver) and reply of a transfer.
constexpr uint64_t RTS_TAG = uint64_t{1} << 62;
constexpr uint64_t CTS_TAG = uint64_t{1} << 61;
constexpr uint64_t CONTROL_TAGS = RTS_TAG | CTS_TAG;

uint64_t make_token(uint64_t kind, uint32_t rec) {
    return (kind << 62) | rec;
}
uint64_t make_tag(uint32_t run, uint32_t xfer) {
    return (uint64_t{run} << 32) | xfer;
}

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
    pair_bytes_.assign(std::size_t{hcas.hosts()} * hcas.hosts(), 0);
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
    run.xs.resize(nx);
    if (log_transfers_) run.posted_at.resize(nx);
    run.dependents.resize(nx);
    run.pending_per_rank.assign(members, 0);
    for (uint32_t x = 0; x < nx; ++x) {
        const coll::xfer& xf = run.sched.xfers[x];
        run.xs[x].waiting = static_cast<uint32_t>(xf.deps.size());
        for (uint32_t d : xf.deps) {
            const coll::xfer& dep = run.sched.xfers[d];
            const bool on_ack = dep.dst != xf.src && dep.src == xf.src;
            run.dependents[d].push_back(dependent{x, on_ack});
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
        if (runs_[idx].xs[x].waiting != 0 || runs_[idx].xs[x].posted) continue;
        if (launch == 0) {
            post_xfer(t, idx, x);
        } else {
            runs_[idx].xs[x].posted = true;
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

void replay::start_streamed(cycle_t t, running run, cycle_t launch) {
    const std::vector<uint64_t> ev = run.stream->events_per_rank();
    run.pending_per_rank.resize(ev.size());
    // At most one event per transfer and rank: below 2^32 (ring_stream::check).
    for (std::size_t r = 0; r < ev.size(); ++r) {
        run.pending_per_rank[r] = static_cast<uint32_t>(ev[r]);
    }
    const uint32_t chains = run.stream->chains();
    run.win.resize(chains);
    run.win_lo.assign(chains, 0);
    const uint32_t idx = enlist(t, std::move(run));
    running& rr = runs_[idx];
    if (rr.total == 0) return;
    for (uint32_t c = 0; c < chains; ++c) unfold(rr, c, 0);
    // Level 0 holds every transfer without dependencies, posted in index order as start_run
    // posts a whole schedule's.
    for (uint32_t c = 0; c < chains; ++c) {
        const uint64_t first = rr.stream->level_first(c, 0);
        for (uint64_t x = first; x < first + rr.stream->level_size(c); ++x) {
            held_at h;
            if (!held(rr, static_cast<uint32_t>(x), h)) continue;
            xfer_state& st = rr.win[h.chain][h.index].xs[h.offset];
            if (st.waiting != 0 || st.posted) continue;
            if (launch == 0) {
                post_xfer(t, idx, static_cast<uint32_t>(x));
            } else {
                st.posted = true;
                defer(t, t + launch, step::launch, idx, static_cast<uint32_t>(x));
            }
        }
    }
}

bool replay::held(const running& rr, uint32_t x, held_at& h) const {
    const coll::ring_stream::place p = rr.stream->locate(x);
    if (rr.win.empty() || p.level < rr.win_lo[p.chain]) return false;
    h.chain = p.chain;
    h.index = p.level - rr.win_lo[p.chain];
    h.offset = p.offset;
    if (h.index >= rr.win[p.chain].size()) {
        throw std::logic_error(
            fmt::format("transfer {} of collective {} used before it unfolded", x, rr.instance));
    }
    return true;
}

replay::held_at replay::held_or_throw(const running& rr, uint32_t x) const {
    held_at h;
    if (!held(rr, x, h)) {
        throw std::logic_error(
            fmt::format("transfer {} of collective {} used after it completed", x, rr.instance));
    }
    return h;
}

const coll::xfer& replay::xfer_of(const running& rr, uint32_t x) const {
    if (!rr.stream) return rr.sched.xfers[x];
    const held_at h = held_or_throw(rr, x);
    return rr.win[h.chain][h.index].xfers[h.offset];
}

replay::xfer_state& replay::state_of(running& rr, uint32_t x) {
    if (!rr.stream) return rr.xs[x];
    const held_at h = held_or_throw(rr, x);
    return rr.win[h.chain][h.index].xs[h.offset];
}

std::vector<replay::dependent>& replay::dependents_of(running& rr, uint32_t x) {
    if (!rr.stream) return rr.dependents[x];
    const held_at h = held_or_throw(rr, x);
    return rr.win[h.chain][h.index].dependents[h.offset];
}

cycle_t& replay::posted_at_of(running& rr, uint32_t x) {
    if (!rr.stream) return rr.posted_at[x];
    const held_at h = held_or_throw(rr, x);
    return rr.win[h.chain][h.index].posted_at[h.offset];
}

void replay::unfold(running& rr, uint32_t c, uint32_t level) {
    if (rr.win.empty() || level >= rr.stream->levels()) return;
    std::deque<level_window>& win = rr.win[c];
    while (rr.win_lo[c] + win.size() <= level) {
        const auto k = static_cast<uint32_t>(rr.win_lo[c] + win.size());
        level_window lw;
        lw.first = rr.stream->level_first(c, k);
        rr.stream->level(c, k, lw.xfers);
        const std::size_t n = lw.xfers.size();
        lw.xs.resize(n);
        lw.dependents.resize(n);
        if (log_transfers_) lw.posted_at.resize(n);
        lw.left = n;
        rr.held += n;
        rr.held_peak = std::max(rr.held_peak, rr.held);
        win.push_back(std::move(lw));
        level_window& nw = win.back();
        for (std::size_t i = 0; i < n; ++i) {
            const coll::xfer& xf = nw.xfers[i];
            const auto x = static_cast<uint32_t>(nw.first + i);
            uint32_t waiting = 0;
            for (const uint32_t d : xf.deps) {
                held_at h;
                if (!held(rr, d, h)) continue;  // dropped: arrived and acknowledged
                level_window& dw = rr.win[h.chain][h.index];
                const coll::xfer& dep = dw.xfers[h.offset];
                const bool on_ack = dep.dst != xf.src && dep.src == xf.src;
                if (on_ack ? dw.xs[h.offset].acked : dw.xs[h.offset].arrived) continue;
                dw.dependents[h.offset].push_back(dependent{x, on_ack});
                ++waiting;
            }
            // Level k > 0 unfolds before the first completion of level k - 1 is handled, so
            // none of its transfers can be ready already (ring_stream.h).
            if (k > 0 && waiting == 0) {
                throw std::logic_error(fmt::format(
                    "transfer {} of collective {} was ready before it unfolded", x, rr.instance));
            }
            nw.xs[i].waiting = waiting;
        }
    }
}

void replay::drop_complete(running& rr, uint32_t c) {
    std::deque<level_window>& win = rr.win[c];
    while (!win.empty() && win.front().left == 0) {
        rr.held -= win.front().xfers.size();
        win.pop_front();
        ++rr.win_lo[c];
    }
}

void replay::post_xfer(cycle_t t, uint32_t run, uint32_t x) {
    running& rr = runs_[run];
    state_of(rr, x).posted = true;
    if (log_transfers_) posted_at_of(rr, x) = t;
    const coll::xfer& xf = xfer_of(rr, x);
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
    post_now(t, run, x);
}

void replay::post_now(cycle_t t, uint32_t run, uint32_t x) {
    const running& rr = runs_[run];
    const coll::xfer& xf = xfer_of(rr, x);
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
    if (src != dst && two_sided && !state_of(rr, x).handshaken && stack_.rendezvous(xf.bytes)) {
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

void replay::on_delivered(cycle_t t, uint32_t dst, uint64_t tag) {
    const auto run = static_cast<uint32_t>((tag & ~CONTROL_TAGS) >> 32);
    const auto x = static_cast<uint32_t>(tag & 0xFFFFFFFFULL);
    if (tag & RTS_TAG) {  // the receiver answers after its per-message overhead
        defer(t, t + stack_.handshake_cycles(), step::rndv_reply, run, x);
        return;
    }
    if (tag & CTS_TAG) {  // the sender may now send the data
        state_of(runs_[run], x).handshaken = true;
        post_ib(t, run, x);
        return;
    }
    const running& rr = runs_[run];
    const coll::xfer& xf = xfer_of(rr, x);
    (void)dst;
    pair_bytes_[std::size_t{host_of(rr.ranks[xf.src])} * hcas_.hosts() +
                host_of(rr.ranks[xf.dst])] += xf.bytes;
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
    // A streamed run unfolds the next level of x's chain before x's completion is handled
    // (ring_stream.h): its transfers must be waiting for their deps when they complete.
    if (rr.stream) {
        const coll::ring_stream::place p = rr.stream->locate(x);
        unfold(rr, p.chain, p.level + 1);
    }
    xfer_state& xs = state_of(rr, x);
    if (ack ? xs.acked : xs.arrived) {
        throw std::logic_error(
            fmt::format("transfer {} of collective {} completed twice", x, rr.instance));
    }
    (ack ? xs.acked : xs.arrived) = true;
    if (!ack && log_transfers_) {
        const coll::xfer& f = xfer_of(rr, x);
        transfers_.push_back(transfer_slice{rr.instance, rr.ranks[f.src], rr.ranks[f.dst], f.bytes,
                                            posted_at_of(rr, x), t});
    }
    // By index: what post_xfer starts may add to the runs (and to nothing else here).
    const std::vector<dependent>& deps = dependents_of(rr, x);
    for (std::size_t i = 0; i < deps.size(); ++i) {
        const dependent d = deps[i];
        if (d.on_ack != ack) continue;
        if (--state_of(rr, d.xfer).waiting == 0) post_xfer(t, run, d.xfer);
    }
    const uint32_t cr = rr.stream ? member_of(xfer_of(rr, x), ack) : member_of(rr.sched, x, ack);
    const xfer_state& now = state_of(rr, x);
    if (now.arrived && now.acked) {
        ++rr.complete;
        if (rr.stream) {
            const held_at h = held_or_throw(rr, x);
            --rr.win[h.chain][h.index].left;
            drop_complete(rr, h.chain);
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
        rr.dependents.clear();
        rr.dependents.shrink_to_fit();
        rr.xs.clear();
        rr.xs.shrink_to_fit();
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
