#include "replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "cycle/timing.h"

namespace ndr::tb {

namespace {

constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
constexpr uint64_t TIMER_ISSUE = 0;
constexpr uint64_t TIMER_COMPUTE_DONE = 1;

uint64_t make_token(uint64_t kind, uint32_t rec) { return (kind << 62) | rec; }
uint64_t make_tag(uint32_t run, uint32_t xfer) { return (uint64_t{run} << 32) | xfer; }

}  // namespace

replay::replay(const cfg::config& c, const trace::trace& tr, cycle::hca_array& hcas)
    : cfg_(c), tr_(tr), hcas_(hcas), cycle_ps_(cycle::derive_timing(c).cycle_ps) {
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
                const auto it = std::find_if(list.begin(), list.end(), [&](uint32_t j) {
                    return tr.records[j].id == id;
                });
                if (it == list.end()) {
                    throw std::invalid_argument(
                        fmt::format("{}:{}: deps: no record with id {} on rank {}", tr.path,
                                    r.line, id, r.rank));
                }
                recs_[*it].dependents.push_back(i);
                ++recs_[i].deps_left;
            }
        }
    }
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
    if (kind == TIMER_ISSUE) {
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
    coll::coll_params p;
    p.op = ci.op;
    p.algo = ci.algo;
    p.nranks = static_cast<uint32_t>(ci.ranks.size());
    p.bytes = ci.bytes;
    const trace::op_record& first = tr_.records[ci.records[0] != NONE ? ci.records[0] : ci.records[1]];
    p.dtype_bytes = coll::dtype_bytes(first.dt);
    p.root = ci.root;
    p.chunk_bytes = cfg_.collective.chunk.count;
    running run;
    run.instance = inst;
    run.sched = coll::build_schedule(p);
    const std::size_t nx = run.sched.xfers.size();
    run.xs.resize(nx);
    run.dependents.resize(nx);
    run.pending_per_rank.assign(p.nranks, 0);
    for (uint32_t x = 0; x < nx; ++x) {
        const coll::xfer& xf = run.sched.xfers[x];
        run.xs[x].waiting = static_cast<uint32_t>(xf.deps.size());
        for (uint32_t d : xf.deps) {
            const coll::xfer& dep = run.sched.xfers[d];
            const bool on_ack = dep.dst != xf.src && dep.src == xf.src;
            run.dependents[d].push_back(dependent{x, on_ack});
        }
        ++run.pending_per_rank[xf.src];
        ++run.pending_per_rank[xf.dst];
    }
    collective_result& res = results_[inst];
    res.start = t;
    res.algo = run.sched.algo;
    res.transfers = nx;
    run.members_left = p.nranks;
    const auto idx = static_cast<uint32_t>(runs_.size());
    running_of_inst_[inst] = idx;
    runs_.push_back(std::move(run));
    running& rr = runs_[idx];
    for (uint32_t cr = 0; cr < p.nranks; ++cr) {
        if (rr.pending_per_rank[cr] == 0) member_done(t, idx, cr);
    }
    for (uint32_t x = 0; x < nx; ++x) {
        if (runs_[idx].xs[x].waiting == 0) post_xfer(t, idx, x);
    }
}

void replay::post_xfer(cycle_t t, uint32_t run, uint32_t x) {
    running& rr = runs_[run];
    rr.xs[x].posted = true;
    const coll::xfer& xf = rr.sched.xfers[x];
    const trace::collective_instance& ci = tr_.collectives[rr.instance];
    const uint32_t src = ci.ranks[xf.src];
    const uint32_t dst = ci.ranks[xf.dst];
    bytes_posted_ += xf.bytes;
    if (ci.op == coll::op_kind::rdma_read) {
        // The initiator (the transfer's destination) reads from the peer.
        hcas_.post(t, cycle::verb::rdma_read, dst, src, xf.bytes, make_tag(run, x));
    } else if (src == dst) {
        // Ranks sharing a host: a local copy, complete at once.
        xfer_event(t, run, x, false);
        xfer_event(t, run, x, true);
    } else {
        hcas_.post(t, ci.op == coll::op_kind::send ? cycle::verb::send : cycle::verb::rdma_write,
                   src, dst, xf.bytes, make_tag(run, x));
    }
}

void replay::on_delivered(cycle_t t, uint32_t dst, uint64_t tag) {
    const auto run = static_cast<uint32_t>(tag >> 32);
    const auto x = static_cast<uint32_t>(tag & 0xFFFFFFFFULL);
    const running& rr = runs_[run];
    const coll::xfer& xf = rr.sched.xfers[x];
    const trace::collective_instance& ci = tr_.collectives[rr.instance];
    const uint32_t src = ci.ranks[xf.src];
    (void)dst;
    pair_bytes_[std::size_t{src} * hcas_.hosts() + ci.ranks[xf.dst]] += xf.bytes;
    xfer_event(t, run, x, false);
    if (ci.op == coll::op_kind::rdma_read) xfer_event(t, run, x, true);  // no separate ACK
}

void replay::on_send_complete(cycle_t t, uint32_t src, uint64_t tag) {
    (void)src;
    xfer_event(t, static_cast<uint32_t>(tag >> 32), static_cast<uint32_t>(tag & 0xFFFFFFFFULL),
               true);
}

void replay::xfer_event(cycle_t t, uint32_t run, uint32_t x, bool ack) {
    running& rr = runs_[run];
    xfer_state& xs = rr.xs[x];
    if (ack ? xs.acked : xs.arrived) {
        throw std::logic_error(fmt::format("transfer {} of collective {} completed twice", x,
                                           rr.instance));
    }
    (ack ? xs.acked : xs.arrived) = true;
    for (const dependent& d : rr.dependents[x]) {
        if (d.on_ack != ack) continue;
        if (--rr.xs[d.xfer].waiting == 0) post_xfer(t, run, d.xfer);
    }
    const coll::xfer& xf = rr.sched.xfers[x];
    const uint32_t cr = ack ? xf.src : xf.dst;
    if (--rr.pending_per_rank[cr] == 0) member_done(t, run, cr);
}

void replay::member_done(cycle_t t, uint32_t run, uint32_t comm_rank) {
    running& rr = runs_[run];
    const trace::collective_instance& ci = tr_.collectives[rr.instance];
    // One-sided ops have a record only for the initiator; the peer has nothing to finish.
    if (comm_rank < ci.records.size() && ci.records[comm_rank] != NONE) {
        finish_record(t, ci.records[comm_rank]);
    }
    if (--rr.members_left == 0) {
        collective_result& res = results_[rr.instance];
        res.end = t;
        res.done = true;
        rr.sched.xfers.clear();
        rr.sched.xfers.shrink_to_fit();
        rr.dependents.clear();
        rr.dependents.shrink_to_fit();
        rr.xs.clear();
        rr.xs.shrink_to_fit();
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
        uint64_t waiting = 0;
        for (const auto& x : rr.xs) waiting += (x.arrived && x.acked) ? 0 : 1;
        s += fmt::format("{}{} (comm {}, seq {}, line {}): {} of {} transfers unfinished",
                         shown ? "; " : "", coll::name(ci.op), ci.comm, ci.seq,
                         tr_.records[ci.records[0] != NONE ? ci.records[0] : ci.records[1]].line,
                         waiting, rr.xs.size());
        if (++shown == 3) break;
    }
    const uint64_t never = tr_.records.size() - records_done_;
    return s.empty() ? fmt::format("{} records never finished", never) : s;
}

}  // namespace ndr::tb
