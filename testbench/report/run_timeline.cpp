#include "run_timeline.h"

#include <fmt/format.h>

#include <stdexcept>

#include "collective/coll_types.h"

namespace ndr::tb {

namespace {

/// Process (track group) ids of the timeline.
constexpr uint32_t ranks_pid = 1;
constexpr uint32_t links_pid = 2;
constexpr uint32_t transfers_pid = 3;
constexpr uint32_t first_node_pid = 100;  ///< node.gpus > 1: one process per node

/// A Trace Event Format metadata event naming a process (tid < 0) or one of its threads.
void name_event(json_out& w, uint32_t pid, int64_t tid, const std::string& name) {
    w.begin_object();
    w.field("ph", "M");
    w.field("pid", pid);
    if (tid >= 0) w.field("tid", tid);
    w.field("name", tid >= 0 ? "thread_name" : "process_name");
    w.key("args");
    w.begin_object();
    w.field("name", name);
    w.end_object();
    w.end_object();
}

void name_process(json_out& w, uint32_t pid, const std::string& name) {
    name_event(w, pid, -1, name);
}

void name_thread(json_out& w, uint32_t pid, uint32_t tid, const std::string& name) {
    name_event(w, pid, tid, name);
}

}  // namespace

timeline_level timeline_level_of(const std::string& name) {
    if (name == "off") return timeline_level::off;
    if (name == "collectives") return timeline_level::collectives;
    if (name == "transfers") return timeline_level::transfers;
    if (name == "packets") return timeline_level::packets;
    throw std::invalid_argument("report.timeline: unknown level '" + name + "'");
}

void write_run_timeline(json_out& w, const trace::trace& tr, const run_outcome& o,
                        timeline_level level) {
    const double us = static_cast<double>(o.tm.cycle_ps) / 1e6;  // cycles -> microseconds
    const bool transfers = level >= timeline_level::transfers;
    const bool counters = level >= timeline_level::packets;
    w.begin_object();
    w.key("traceEvents");
    w.begin_array();
    name_process(w, ranks_pid, "ranks");
    if (counters) name_process(w, links_pid, "links");
    if (transfers) name_process(w, transfers_pid, "transfers");
    // With node.gpus > 1, one track (process) per node holding its ranks.
    const auto pid_of = [&](uint32_t r) -> uint32_t {
        return o.multi_gpu && r < o.node.rank_node.size() ? first_node_pid + o.node.rank_node[r]
                                                          : ranks_pid;
    };
    if (o.multi_gpu) {
        for (uint32_t n = 0; n < o.node.nodes; ++n) {
            name_process(w, first_node_pid + n, fmt::format("node {}", n));
        }
    }
    for (uint32_t r = 0; r < tr.nranks; ++r) {
        name_thread(w, pid_of(r), r, fmt::format("rank {}", r));
        if (transfers) name_thread(w, transfers_pid, r, fmt::format("rank {} sends", r));
    }
    for (const rank_slice& s : o.slices) {
        const trace::op_record& rec = tr.records[s.record];
        w.begin_object();
        w.field("ph", "X");
        w.field("pid", pid_of(s.rank));
        w.field("tid", s.rank);
        w.field("name", rec.compute ? std::string_view("compute") : coll::name(rec.op));
        w.field("ts", static_cast<double>(s.start) * us);
        w.field("dur", static_cast<double>(s.end - s.start) * us);
        w.key("args");
        w.begin_object();
        w.field("line", rec.line);
        if (!rec.compute) {
            w.field("count", rec.count);
            w.field("comm", rec.comm);
            w.field("seq", rec.seq);
        }
        w.end_object();
        w.end_object();
    }
    if (transfers) {
        for (const transfer_slice& x : o.transfers) {
            w.begin_object();
            w.field("ph", "X");
            w.field("pid", transfers_pid);
            w.field("tid", x.src);
            w.field("name", fmt::format("to rank {}", x.dst));
            w.field("ts", static_cast<double>(x.start) * us);
            w.field("dur", static_cast<double>(x.end - x.start) * us);
            w.key("args");
            w.begin_object();
            w.field("bytes", x.bytes);
            w.field("dst", x.dst);
            w.field("seq", tr.collectives[x.instance].seq);
            w.end_object();
            w.end_object();
        }
    }
    if (counters) {
        // Link counters: host uplinks and inter-switch links, at most 512 series.
        std::size_t shown = 0;
        for (const link_sample_series& l : o.links) {
            if (shown++ == 512) break;
            for (std::size_t k = 0; k < l.utilisation.size(); ++k) {
                w.begin_object();
                w.field("ph", "C");
                w.field("pid", links_pid);
                w.field("name", l.name);
                w.field("ts", static_cast<double>(k * o.sample_cycles) * us);
                w.key("args");
                w.begin_object();
                w.field("utilisation", l.utilisation[k]);
                w.end_object();
                w.end_object();
            }
        }
    }
    w.end_array();
    w.field("displayTimeUnit", "ns");
    w.end_object();
}

}  // namespace ndr::tb
