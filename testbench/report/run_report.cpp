#include "run_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "collective/coll_types.h"
#include "common/ib_cc_setup.h"
#include "common/out_of_order.h"
#include "json_tree.h"
#include "roce_report.h"
#include "traffic_report.h"

namespace ndr::tb {

namespace {

/// Rail (HCA index in its node) of a link of the report, -1 if it has none: a host cable is on
/// its host's rail; on a rail_fat_tree a leaf-spine (aggregation) cable is on its leaf's rail
/// (leaves are switches 0..leaves-1, leaf j * rails + k is on rail k).
int rail_of(const std::string& name, uint32_t tier, uint32_t rails, bool rail_topology,
            uint32_t leaves) {
    auto num_after = [&](std::size_t at) {
        return static_cast<uint32_t>(std::stoul(name.substr(at)));
    };
    if (tier == 0) {
        const std::size_t h = name.find("host");
        if (h == std::string::npos) return -1;
        return static_cast<int>(num_after(h + 4) % rails);
    }
    if (!rail_topology || tier != 1) return -1;
    const std::size_t a = name.find("sw");
    const std::size_t b = name.find("->sw");
    if (a == std::string::npos || b == std::string::npos) return -1;
    const uint32_t lo = std::min(num_after(a + 2), num_after(b + 4));
    return lo < leaves ? static_cast<int>(lo % rails) : -1;
}

/// The figures of one collective, for the report and the table.
struct collective_row {
    double start_ns = 0;
    double end_ns = 0;
    double time_ns = 0;
    uint32_t ranks = 0;
    double factor = 0;  ///< busbw / algbw
    double algbw = 0;   ///< GB/s
};

collective_row row_of(const trace::trace& tr, const collective_result& r, double ns) {
    const trace::collective_instance& ci = tr.collectives[r.instance];
    collective_row row;
    row.start_ns = static_cast<double>(r.start) * ns;
    row.end_ns = static_cast<double>(r.end) * ns;
    row.time_ns = row.end_ns - row.start_ns;
    row.ranks = static_cast<uint32_t>(ci.ranks.size());
    row.factor = coll::busbw_factor(ci.op, r.algo, row.ranks);
    row.algbw = row.time_ns > 0 ? static_cast<double>(ci.bytes) / row.time_ns : 0.0;  // B/ns
    return row;
}

/// The run's totals: bytes, first start and last end of its collectives.
struct run_totals {
    uint64_t bytes = 0;
    double first_ns = -1.0;
    double last_ns = 0.0;
    [[nodiscard]] double span_ns() const { return first_ns < 0 ? 0.0 : last_ns - first_ns; }
};

run_totals totals_of(const trace::trace& tr, const run_outcome& o, double ns) {
    run_totals t;
    for (const collective_result& r : o.collectives) {
        const collective_row row = row_of(tr, r, ns);
        t.first_ns = t.first_ns < 0 ? row.start_ns : std::min(t.first_ns, row.start_ns);
        t.last_ns = std::max(t.last_ns, row.end_ns);
        t.bytes += tr.collectives[r.instance].bytes;
    }
    return t;
}

/// report.json's node fields (node.gpus > 1 or a rail_fat_tree): the fabric's nodes, GPUs, HCAs,
/// rails, leaves and spines (inside the open fabric object), then per-GPU NVLink bytes and
/// utilisation and per-rail bytes and utilisation by tier.
void node_fabric_fields(const run_outcome& o, json_out& w) {
    const fabric_counts& fc = o.fabric;  // count_fabric: the numbers `config show` prints too
    w.field("nodes", fc.nodes);
    w.field("gpus_per_node", fc.gpus_per_node);
    w.field("gpus", fc.gpus);
    w.field("hcas_per_node", fc.hcas_per_node);
    w.field("hcas", fc.hosts);
    w.field("rails", fc.rails);
    w.field("leaves", fc.leaves);
    w.field("spines", fc.spines);
    if (fc.cores != 0) w.field("cores", fc.cores);
    w.field("levels", fc.levels);
}

void node_sections(const cfg::config& c, const run_outcome& o, json_out& w) {
    const fabric_counts& fc = o.fabric;
    const uint32_t gpus = fc.gpus_per_node;
    const uint32_t hcas = fc.hcas_per_node;
    const bool rail_topology = c.fabric.topology == "rail_fat_tree";
    const double span_s = static_cast<double>(std::max<uint64_t>(1, o.cycles)) *
                          static_cast<double>(o.tm.cycle_ps) * 1e-12;
    if (o.multi_gpu) {
        const double cap = o.node.nvlink_bytes_per_s * span_s;
        w.key("node");
        w.begin_object();
        w.field("nvlink_bandwidth_GBps", o.node.nvlink_bytes_per_s / 1e9);
        w.field("nvls", c.node.nvls);
        w.key("gpus");
        w.begin_array();
        for (std::size_t i = 0; i < o.node.gpu.size(); ++i) {
            const common::nvlink_gpu_stats& st = o.node.gpu[i];
            w.begin_object();
            w.field("node", i / gpus);
            w.field("gpu", i % gpus);
            w.field("hca", (i % gpus) * hcas / gpus);
            w.field("nvlink_tx_bytes", st.tx_bytes);
            w.field("nvlink_rx_bytes", st.rx_bytes);
            w.field("nvlink_tx_utilisation", static_cast<double>(st.tx_bytes) / cap);
            w.field("nvlink_rx_utilisation", static_cast<double>(st.rx_bytes) / cap);
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    // Per rail and tier: links (one per direction), bytes, mean utilisation.
    const uint32_t rails = rail_topology ? hcas : std::max<uint32_t>(1, hcas);
    const double span = static_cast<double>(std::max<uint64_t>(1, o.cycles));
    std::map<std::pair<int, uint32_t>, std::array<double, 2>> acc;  // (rail, tier) -> links, beats
    for (const link_sample_series& l : o.links) {
        const int r = rail_of(l.name, l.tier, rails, rail_topology, fc.leaves);
        if (r < 0) continue;
        auto& a = acc[{r, l.tier}];
        a[0] += 1.0;
        a[1] += static_cast<double>(l.total_beats);
    }
    w.key("rails");
    w.begin_array();
    for (uint32_t r = 0; r < rails; ++r) {
        w.begin_object();
        w.field("rail", r);
        w.key("tiers");
        w.begin_array();
        for (const auto& [key, a] : acc) {
            if (key.first != static_cast<int>(r)) continue;
            w.begin_object();
            w.field("tier", key.second);
            w.field("links", static_cast<uint64_t>(a[0]));
            w.field("bytes", static_cast<uint64_t>(a[1]) * o.tm.block_bytes);
            w.field("utilisation", a[1] / (a[0] * span));
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
}

void collectives_section(const trace::trace& tr, const run_outcome& o, double ns, json_out& w) {
    w.key("collectives");
    w.begin_array();
    for (const collective_result& r : o.collectives) {
        write_collective(w, tr, r, ns, tr.collectives[r.instance].comm);
    }
    w.end_array();
}

/// cc.enabled (InfiniBand): FECN/BECN counts and the CCT index of the sources (docs/congestion.md).
void cc_json(const run_outcome& o, json_out& w) {
    const common::hca_stats& h = o.hca;
    uint64_t switch_marked = 0;
    for (const switch_summary& s : o.switch_stats) switch_marked += s.stats.fecn_marked;
    uint32_t ccti_max = 0;
    uint64_t sum = 0;
    uint64_t packets = 0;
    for (std::size_t i = 0; i < h.ccti_max.size(); ++i) {
        ccti_max = std::max(ccti_max, h.ccti_max[i]);
        sum += h.ccti_sum[i];
        packets += h.ccti_packets[i];
    }
    w.key("cc");
    w.begin_object();
    w.field("fecn_marked", switch_marked);
    w.field("fecn_received", h.fecn_received);
    w.field("becn_sent", h.becn_sent);
    w.field("becn_received", h.becn_received);
    w.field("ccti_max", ccti_max);
    w.field("ccti_mean",
            packets == 0 ? 0.0 : static_cast<double>(sum) / static_cast<double>(packets));
    w.key("ccti_max_per_host");
    w.begin_array();
    for (uint32_t v : h.ccti_max) w.value(v);
    w.end_array();
    w.key("ccti_mean_per_host");
    w.begin_array();
    for (std::size_t i = 0; i < h.ccti_max.size(); ++i) {
        w.value(h.ccti_packets[i] == 0
                    ? 0.0
                    : static_cast<double>(h.ccti_sum[i]) / static_cast<double>(h.ccti_packets[i]));
    }
    w.end_array();
    w.end_object();
}

void hca_section(const cfg::config& c, const run_outcome& o, double ns, json_out& w) {
    const common::hca_stats& h = o.hca;
    w.key("hca");
    w.begin_object();
    w.field("messages_posted", h.messages_posted);
    w.field("messages_delivered", h.messages_delivered);
    w.field("data_packets_sent", h.data_packets_sent);
    w.field("retransmitted_packets", h.retransmitted_packets);
    w.field("timeouts", h.timeouts);
    w.field("naks_sent", h.naks_sent);
    w.field("acks_sent", h.acks_sent);
    w.field("icrc_drops", h.icrc_drops);
    w.field("out_of_order_drops", h.out_of_order_drops);
    if (c.routing.mode == "adaptive" || common::out_of_order_placement(c)) {
        w.field("out_of_order_placed", h.out_of_order_placed);
    }
    w.field("payload_bytes_delivered", h.payload_bytes_delivered);
    uint64_t host_stall = 0;
    for (uint64_t s : h.credit_stall_cycles) host_stall += s;
    w.field("credit_stall_cycles", host_stall);
    if (c.fabric.technology == "roce") {
        w.key("roce");
        w.begin_object();
        w.field("ecn_marked_received", h.ecn_marked_received);
        w.field("cnps_sent", h.cnps_sent);
        w.field("cnps_received", h.cnps_received);
        w.field("pfc", pfc_json(o.hca_pfc, c.sw.vls, ns));
        w.end_object();
    }
    if (common::cc_active(c)) cc_json(o, w);
    w.end_object();
}

void links_section(const run_outcome& o, json_out& w) {
    const double span = static_cast<double>(std::max<uint64_t>(1, o.cycles));
    w.key("links");
    w.begin_array();
    for (const link_sample_series& l : o.links) {
        float peak = 0.0F;
        for (float u : l.utilisation) peak = std::max(peak, u);
        w.begin_object();
        w.field("link", l.name);
        w.field("tier", l.tier);
        w.field("bytes", l.total_beats * o.tm.block_bytes);
        w.field("utilisation", static_cast<double>(l.total_beats) / span);
        w.field("peak_utilisation", static_cast<double>(peak));
        w.end_object();
    }
    w.end_array();
}

/// fault.link_down (only when set): per cable, when it went down, when the reroute was in
/// place and the packets lost; RC's recovery is counted in hca (retransmitted_packets, ...).
void link_faults_section(const run_outcome& o, json_out& w) {
    if (o.link_faults.empty()) return;
    w.key("link_faults");
    w.begin_array();
    for (const link_fault_summary& x : o.link_faults) {
        w.begin_object();
        w.field("link", x.link);
        w.field("down_ns", static_cast<double>(x.down_ps) / 1000.0);
        w.field("reroute_ns", static_cast<double>(x.reroute_ps) / 1000.0);
        w.field("packets_lost", x.packets_lost);
        w.end_object();
    }
    w.end_array();
}

void switches_section(const cfg::config& c, const run_outcome& o, double ns, json_out& w) {
    w.key("switches");
    w.begin_array();
    for (const switch_summary& s : o.switch_stats) {
        uint64_t stall = 0;
        w.begin_object();
        w.field("switch", s.id);
        w.field("level", s.level);
        w.key("buffer_occupancy");
        w.begin_array();
        for (std::size_t vl = 0; vl < s.stats.buffer.size(); ++vl) {
            w.begin_object();
            w.field("vl", vl);
            w.field("max_blocks", s.stats.buffer[vl].max_blocks);
            w.field("mean_blocks", s.stats.buffer[vl].mean_blocks);
            w.end_object();
            stall += s.stats.credit_stall_cycles[vl];
        }
        w.end_array();
        w.field("credit_stall_cycles", stall);
        w.key("credit_stall_cycles_per_vl");
        w.begin_array();
        for (uint64_t v : s.stats.credit_stall_cycles) w.value(v);
        w.end_array();
        w.field("fc_packets", s.stats.fc_packets);
        w.field("sl2vl_drops", s.stats.sl2vl_drops);
        if (c.routing.mode == "adaptive") w.field("ar_moved_packets", s.stats.ar_moved);
        if (common::cc_active(c)) w.field("fecn_marked", s.stats.fecn_marked);
        if (c.fabric.technology == "roce" && c.routing.ecmp_mode == "flowlet") {
            w.field("ecmp_new_flowlets", s.stats.ecmp_new_flowlets);
        }
        if (c.fabric.technology == "roce") {
            w.field("roce", switch_roce_json(s.stats, c.sw.vls, ns));
        }
        w.end_object();
    }
    w.end_array();
}

/// SHARP: trees and, per tree level, ALU utilisation, OST occupancy, aggregation latency.
void sharp_section(const run_outcome& o, json_out& w) {
    const double ns = static_cast<double>(o.tm.cycle_ps) / 1000.0;
    const double span = static_cast<double>(std::max<uint64_t>(1, o.cycles));
    // busy, chunks, agg cycles, max ost, n, ost waits
    std::map<uint32_t, std::array<double, 6>> per_level;
    for (const sharp_node_summary& n : o.sharp_nodes) {
        if (n.stats.chunks_reduced == 0) continue;
        auto& a = per_level[n.level];
        a[0] += static_cast<double>(n.stats.alu_busy_cycles);
        a[1] += static_cast<double>(n.stats.chunks_reduced);
        a[2] += static_cast<double>(n.stats.aggregation_cycles);
        a[3] = std::max(a[3], static_cast<double>(n.stats.max_osts_in_use));
        a[4] += 1.0;
        a[5] += static_cast<double>(n.stats.ost_waits);
    }
    w.key("sharp");
    w.begin_object();
    w.key("trees");
    w.begin_array();
    for (const std::string& t : o.sharp_trees) w.value(t);
    w.end_array();
    w.key("levels");
    w.begin_array();
    for (const auto& [lvl, a] : per_level) {
        w.begin_object();
        w.field("level", lvl);
        w.field("aggregation_nodes", static_cast<uint64_t>(a[4]));
        w.field("chunks_reduced", static_cast<uint64_t>(a[1]));
        w.field("alu_utilisation", a[0] / (span * a[4]));
        w.field("max_osts_in_use", static_cast<uint64_t>(a[3]));
        w.field("ost_waits", static_cast<uint64_t>(a[5]));
        w.field("mean_aggregation_latency_ns", a[1] > 0 ? a[2] / a[1] * ns : 0.0);
        w.end_object();
    }
    w.end_array();
    w.end_object();
}

}  // namespace

void write_collective(json_out& w, const trace::trace& tr, const collective_result& r, double ns,
                      uint32_t comm) {
    const trace::collective_instance& ci = tr.collectives[r.instance];
    const collective_row row = row_of(tr, r, ns);
    w.begin_object();
    w.field("op", coll::name(ci.op));
    w.field("bytes", ci.bytes);
    w.field("ranks", row.ranks);
    w.field("algo", coll::name(r.algo));
    w.field("algo_requested", coll::name(ci.algo));
    w.field("proto", coll::name(r.proto));
    w.field("proto_requested", coll::name(ci.proto));
    w.field("comm", comm);
    w.field("seq", ci.seq);
    w.field("start_ns", row.start_ns);
    w.field("end_ns", row.end_ns);
    w.field("time_ns", row.time_ns);
    w.field("algbw_GBps", row.algbw);
    w.field("busbw_GBps", row.algbw * row.factor);
    w.field("busbw_factor", row.factor);
    w.field("transfers", r.transfers);
    // nccl.pxn: of those, sends that left from a relay's HCA (each after its NVLink hop)
    if (r.relayed != 0) w.field("pxn_relayed", r.relayed);
    // a ring unfolded step by step (issue #19 item 2): the most transfers held at once
    if (r.held_peak != 0) w.field("transfers_held_peak", r.held_peak);
    if (r.tuner) {  // host.stack nccl: NCCL's cost model of what ran, beside time_ns
        w.key("tuner");
        w.begin_object();
        w.field("algo", coll::name(r.tuner->algo));
        w.field("proto", coll::name(r.tuner->proto));
        w.field("latency_us", r.tuner->latency_us);
        w.field("bw_GBps", r.tuner->bw_GBps);
        w.field("estimate_ns", r.tuner->time_us * 1000.0);
        w.end_object();
    }
    if (r.sharp_tree >= 0) {
        w.key("sharp");
        w.begin_object();
        w.field("tree", r.sharp_tree);
        w.field("levels", r.sharp_levels);
        w.field("data_checked", r.data_checked);
        w.end_object();
    }
    if (!r.fallback.empty()) w.field("fallback", r.fallback);
    w.end_object();
}

void write_run_report(json_out& w, const cfg::config& c, const trace::trace& tr,
                      const run_outcome& o, const run_report_notes& notes) {
    const double ns = static_cast<double>(o.tm.cycle_ps) / 1000.0;
    w.begin_object();
    w.key("ndrsim");
    w.begin_object();
    w.field("command", "run");
    w.field("report_version", 1);
    w.end_object();
    w.field("config", config_json(c));
    w.key("trace");
    w.begin_object();
    w.field("path", tr.path);
    w.field("name", tr.name);
    w.field("nranks", tr.nranks);
    w.field("records", tr.records.size());
    w.field("collectives", tr.collectives.size());
    w.end_object();
    const bool node_fields = o.multi_gpu || c.fabric.topology == "rail_fat_tree";
    w.key("fabric");
    w.begin_object();
    w.field("topology", o.topology);
    w.field("hosts", o.hosts);
    w.field("switches", o.switches);
    if (node_fields) node_fabric_fields(o, w);
    w.end_object();
    if (node_fields) node_sections(c, o, w);
    w.key("sim");
    w.begin_object();
    w.field("cycles", o.cycles);
    w.field("cycle_ns", ns);
    w.field("sim_time_ns", static_cast<double>(o.cycles) * ns);
    w.field("wall_s", o.wall_s);
    w.field("cycles_per_wall_s", o.wall_s > 0 ? static_cast<double>(o.cycles) / o.wall_s : 0.0);
    // The period of the timeline's utilisation counters at the end of the run
    // (report.utilisation_interval, link_sampler.h).
    w.field("utilisation_interval_ns", static_cast<double>(o.sample_cycles) * ns);
    if (notes.tlm) w.field("level", "tlm");
    if (!notes.tlm_burst_note.empty()) w.field("tlm_burst_note", notes.tlm_burst_note);
    if (!notes.tlm_sharp_burst_note.empty()) {
        w.field("tlm_sharp_burst_note", notes.tlm_sharp_burst_note);
    }
    if (!notes.level_choice.is_null()) w.field("level_choice", notes.level_choice);
    w.end_object();
    collectives_section(tr, o, ns, w);
    const run_totals t = totals_of(tr, o, ns);
    w.key("totals");
    w.begin_object();
    w.field("collectives", o.collectives.size());
    w.field("bytes", t.bytes);
    w.field("span_ns", t.span_ns());
    w.field("end_ns", static_cast<double>(o.cycles) * ns);
    w.end_object();
    hca_section(c, o, ns, w);
    links_section(o, w);
    link_faults_section(o, w);
    switches_section(c, o, ns, w);
    sharp_section(o, w);
    if (notes.extra) notes.extra(w);
    w.end_object();
}

nlohmann::json run_report_json(const cfg::config& c, const trace::trace& tr, const run_outcome& o) {
    json_tree t;
    write_run_report(t, c, tr, o);
    return std::move(t.result());
}

std::string run_table(const trace::trace& tr, const run_outcome& o) {
    const double ns = static_cast<double>(o.tm.cycle_ps) / 1000.0;
    std::string s = fmt::format("{:<15} {:>12} {:>6} {:<6} {:>12} {:>11} {:>11}\n", "op", "bytes",
                                "ranks", "algo", "time us", "algbw GB/s", "busbw GB/s");
    for (const collective_result& r : o.collectives) {
        const trace::collective_instance& ci = tr.collectives[r.instance];
        const collective_row row = row_of(tr, r, ns);
        s += fmt::format("{:<15} {:>12} {:>6} {:<6} {:>12.3f} {:>11.2f} {:>11.2f}\n",
                         coll::name(ci.op), ci.bytes, row.ranks, coll::name(r.algo),
                         row.time_ns / 1000.0, row.algbw, row.algbw * row.factor);
    }
    const run_totals t = totals_of(tr, o, ns);
    s += fmt::format(
        "total: {} collectives, {} bytes, {:.3f} us from first start to last end; "
        "{} retransmitted packets\n",
        o.collectives.size(), t.bytes, t.span_ns() / 1000.0, o.hca.retransmitted_packets);
    for (const link_fault_summary& x : o.link_faults) {
        s += fmt::format(
            "link fault {}: down at {:.3f} us, rerouted at {:.3f} us, {} packets lost\n", x.link,
            static_cast<double>(x.down_ps) / 1e6, static_cast<double>(x.reroute_ps) / 1e6,
            x.packets_lost);
    }
    return s;
}

}  // namespace ndr::tb
