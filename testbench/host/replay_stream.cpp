#include "replay.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

// The streamed runs of the replay (issue #19 item 2): a ring reduce_scatter, allgather or
// allreduce unfolded level by level from a coll::ring_stream, and where a transfer is held.

namespace ndr::tb {

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
            xfer_state& st = rr.win[h.chain][h.index].slots[h.offset].st;
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

replay::xref replay::ref_of(running& rr, uint32_t x) {
    if (!rr.stream) {
        return xref{&rr.sched.xfers[x], &rr.slots[x].st, &rr.slots[x].deps,
                    rr.posted_at.empty() ? nullptr : &rr.posted_at[x], nullptr};
    }
    const held_at h = held_or_throw(rr, x);
    level_window& w = rr.win[h.chain][h.index];
    return xref{&w.xfers[h.offset],
                &w.slots[h.offset].st,
                &w.slots[h.offset].deps,
                w.posted_at.empty() ? nullptr : &w.posted_at[h.offset],
                &w,
                h.chain,
                static_cast<uint32_t>(rr.win_lo[h.chain] + h.index)};
}

void replay::unfold(running& rr, uint32_t c, uint32_t level) {
    if (rr.win.empty() || level >= rr.stream->levels()) return;
    std::deque<level_window>& win = rr.win[c];
    while (rr.win_lo[c] + win.size() <= level) {
        const auto k = static_cast<uint32_t>(rr.win_lo[c] + win.size());
        // A dropped level's storage is reused: a level is as large as the ring (one transfer
        // per rank and chunk) and a long run unfolds thousands.
        level_window lw;
        if (!spare_levels_.empty()) {
            lw = std::move(spare_levels_.back());
            spare_levels_.pop_back();
        }
        lw.first = rr.stream->level_first(c, k);
        rr.stream->level(c, k, lw.xfers);
        const std::size_t n = lw.xfers.size();
        for (xfer_slot& sl : lw.slots) {
            sl.st = xfer_state{};
            sl.deps.clear();
        }
        lw.slots.resize(n);
        if (log_transfers_) lw.posted_at.assign(n, 0);
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
                xfer_slot& ds = dw.slots[h.offset];
                if (on_ack ? ds.st.acked : ds.st.arrived) continue;
                ds.deps.push_back(dependent{x, on_ack});
                ++waiting;
            }
            // Level k > 0 unfolds before the first completion of level k - 1 is handled, so
            // none of its transfers can be ready already (ring_stream.h).
            if (k > 0 && waiting == 0) {
                throw std::logic_error(fmt::format(
                    "transfer {} of collective {} was ready before it unfolded", x, rr.instance));
            }
            nw.slots[i].st.waiting = waiting;
        }
    }
}

void replay::drop_complete(running& rr, uint32_t c) {
    std::deque<level_window>& win = rr.win[c];
    while (!win.empty() && win.front().left == 0) {
        rr.held -= win.front().xfers.size();
        if (spare_levels_.size() < MAX_SPARE_LEVELS)
            spare_levels_.push_back(std::move(win.front()));
        win.pop_front();
        ++rr.win_lo[c];
    }
}

}  // namespace ndr::tb
