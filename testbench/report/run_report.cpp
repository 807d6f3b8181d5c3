#include "run_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "collective/coll_types.h"
#include "roce_report.h"
#include "traffic_report.h"

namespace ndr::tb {

using nlohmann::json;

namespace {

std::string op_label(const trace::trace& tr, const trace::op_record& r) {
    if (r.compute) return "compute";
    (void)tr;
    return std::string(coll::name(r.op));
}

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

/// report.json's node fields (node.gpus > 1 or a rail_fat_tree): the fabric's nodes, GPUs, HCAs,
/// rails, leaves and spines, per-GPU NVLink bytes and utilisation, per-rail bytes and
/// utilisation by tier.
void node_json(const cfg::config& c, const run_outcome& o, json& j) {
    const fabric_counts& fc = o.fabric;  // count_fabric: the numbers `config show` prints too
    const uint32_t gpus = fc.gpus_per_node;
    const uint32_t hcas = fc.hcas_per_node;
    const bool rail_topology = c.fabric.topology == "rail_fat_tree";
    json& f = j["fabric"];
    f["nodes"] = fc.nodes;
    f["gpus_per_node"] = gpus;
    f["gpus"] = fc.gpus;
    f["hcas_per_node"] = hcas;
    f["hcas"] = fc.hosts;
    f["rails"] = fc.rails;
    f["leaves"] = fc.leaves;
    f["spines"] = fc.spines;
    if (fc.cores != 0) f["cores"] = fc.cores;
    f["levels"] = fc.levels;
    const double span_s = static_cast<double>(std::max<uint64_t>(1, o.cycles)) *
                          static_cast<double>(o.tm.cycle_ps) * 1e-12;
    if (o.multi_gpu) {
        json g = json::array();
        const double cap = o.node.nvlink_bytes_per_s * span_s;
        for (std::size_t i = 0; i < o.node.gpu.size(); ++i) {
            const common::nvlink_gpu_stats& st = o.node.gpu[i];
            g.push_back({{"node", i / gpus},
                         {"gpu", i % gpus},
                         {"hca", (i % gpus) * hcas / gpus},
                         {"nvlink_tx_bytes", st.tx_bytes},
                         {"nvlink_rx_bytes", st.rx_bytes},
                         {"nvlink_tx_utilisation", static_cast<double>(st.tx_bytes) / cap},
                         {"nvlink_rx_utilisation", static_cast<double>(st.rx_bytes) / cap}});
        }
        j["node"] = {{"nvlink_bandwidth_GBps", o.node.nvlink_bytes_per_s / 1e9},
                     {"nvls", c.node.nvls},
                     {"gpus", g}};
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
    json rl = json::array();
    for (uint32_t r = 0; r < rails; ++r) {
        json tiers = json::array();
        for (const auto& [key, a] : acc) {
            if (key.first != static_cast<int>(r)) continue;
            tiers.push_back({{"tier", key.second},
                             {"links", static_cast<uint64_t>(a[0])},
                             {"bytes", static_cast<uint64_t>(a[1]) * o.tm.block_bytes},
                             {"utilisation", a[1] / (a[0] * span)}});
        }
        rl.push_back({{"rail", r}, {"tiers", tiers}});
    }
    j["rails"] = rl;
}

}  // namespace

json run_report_json(const cfg::config& c, const trace::trace& tr, const run_outcome& o) {
    const double ns = static_cast<double>(o.tm.cycle_ps) / 1000.0;
    json j;
    j["ndrsim"] = {{"command", "run"}, {"report_version", 1}};
    j["config"] = config_json(c);
    j["trace"] = {{"path", tr.path},
                  {"name", tr.name},
                  {"nranks", tr.nranks},
                  {"records", tr.records.size()},
                  {"collectives", tr.collectives.size()}};
    j["fabric"] = {{"topology", o.topology}, {"hosts", o.hosts}, {"switches", o.switches}};
    if (o.multi_gpu || c.fabric.topology == "rail_fat_tree") node_json(c, o, j);
    j["sim"] = {
        {"cycles", o.cycles},
        {"cycle_ns", ns},
        {"sim_time_ns", static_cast<double>(o.cycles) * ns},
        {"wall_s", o.wall_s},
        {"cycles_per_wall_s", o.wall_s > 0 ? static_cast<double>(o.cycles) / o.wall_s : 0.0},
        // The period of the timeline's utilisation counters at the end of the run
        // (report.utilisation_interval, link_sampler.h).
        {"utilisation_interval_ns", static_cast<double>(o.sample_cycles) * ns}};
    json cs = json::array();
    double first = -1.0;
    double last = 0.0;
    uint64_t total_bytes = 0;
    for (const collective_result& r : o.collectives) {
        const trace::collective_instance& ci = tr.collectives[r.instance];
        const double start = static_cast<double>(r.start) * ns;
        const double end = static_cast<double>(r.end) * ns;
        const double t = end - start;
        const auto nranks = static_cast<uint32_t>(ci.ranks.size());
        const double factor = coll::busbw_factor(ci.op, r.algo, nranks);
        const double algbw = t > 0 ? static_cast<double>(ci.bytes) / t : 0.0;  // B/ns = GB/s
        cs.push_back({{"op", coll::name(ci.op)},
                      {"bytes", ci.bytes},
                      {"ranks", nranks},
                      {"algo", coll::name(r.algo)},
                      {"algo_requested", coll::name(ci.algo)},
                      {"comm", ci.comm},
                      {"seq", ci.seq},
                      {"start_ns", start},
                      {"end_ns", end},
                      {"time_ns", t},
                      {"algbw_GBps", algbw},
                      {"busbw_GBps", algbw * factor},
                      {"busbw_factor", factor},
                      {"transfers", r.transfers}});
        if (r.sharp_tree >= 0) {
            cs.back()["sharp"] = {{"tree", r.sharp_tree},
                                  {"levels", r.sharp_levels},
                                  {"data_checked", r.data_checked}};
        }
        if (!r.fallback.empty()) cs.back()["fallback"] = r.fallback;
        first = first < 0 ? start : std::min(first, start);
        last = std::max(last, end);
        total_bytes += ci.bytes;
    }
    j["collectives"] = cs;
    j["totals"] = {{"collectives", o.collectives.size()},
                   {"bytes", total_bytes},
                   {"span_ns", first < 0 ? 0.0 : last - first},
                   {"end_ns", static_cast<double>(o.cycles) * ns}};
    const common::hca_stats& h = o.hca;
    j["hca"] = {{"messages_posted", h.messages_posted},
                {"messages_delivered", h.messages_delivered},
                {"data_packets_sent", h.data_packets_sent},
                {"retransmitted_packets", h.retransmitted_packets},
                {"timeouts", h.timeouts},
                {"naks_sent", h.naks_sent},
                {"acks_sent", h.acks_sent},
                {"icrc_drops", h.icrc_drops},
                {"out_of_order_drops", h.out_of_order_drops},
                {"payload_bytes_delivered", h.payload_bytes_delivered}};
    uint64_t host_stall = 0;
    for (uint64_t s : h.credit_stall_cycles) host_stall += s;
    j["hca"]["credit_stall_cycles"] = host_stall;
    if (c.fabric.technology == "roce") {
        j["hca"]["roce"] = {{"ecn_marked_received", h.ecn_marked_received},
                            {"cnps_sent", h.cnps_sent},
                            {"cnps_received", h.cnps_received},
                            {"pfc", pfc_json(o.hca_pfc, c.sw.vls, ns)}};
    }
    json links = json::array();
    const double span = static_cast<double>(std::max<uint64_t>(1, o.cycles));
    for (const link_sample_series& l : o.links) {
        float peak = 0.0F;
        for (float u : l.utilisation) peak = std::max(peak, u);
        links.push_back({{"link", l.name},
                         {"tier", l.tier},
                         {"bytes", l.total_beats * o.tm.block_bytes},
                         {"utilisation", static_cast<double>(l.total_beats) / span},
                         {"peak_utilisation", peak}});
    }
    j["links"] = links;
    json sws = json::array();
    for (const switch_summary& s : o.switch_stats) {
        json buf = json::array();
        uint64_t stall = 0;
        for (std::size_t vl = 0; vl < s.stats.buffer.size(); ++vl) {
            buf.push_back({{"vl", vl},
                           {"max_blocks", s.stats.buffer[vl].max_blocks},
                           {"mean_blocks", s.stats.buffer[vl].mean_blocks}});
            stall += s.stats.credit_stall_cycles[vl];
        }
        sws.push_back({{"switch", s.id},
                       {"level", s.level},
                       {"buffer_occupancy", buf},
                       {"credit_stall_cycles", stall},
                       {"credit_stall_cycles_per_vl", s.stats.credit_stall_cycles},
                       {"fc_packets", s.stats.fc_packets},
                       {"sl2vl_drops", s.stats.sl2vl_drops}});
        if (c.fabric.technology == "roce") {
            sws.back()["roce"] = switch_roce_json(s.stats, c.sw.vls, ns);
        }
    }
    j["switches"] = sws;
    // SHARP: trees and, per tree level, ALU utilisation, OST occupancy, aggregation latency.
    json sh;
    sh["trees"] = o.sharp_trees;
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
    json levels = json::array();
    for (const auto& [lvl, a] : per_level) {
        levels.push_back({{"level", lvl},
                          {"aggregation_nodes", static_cast<uint64_t>(a[4])},
                          {"chunks_reduced", static_cast<uint64_t>(a[1])},
                          {"alu_utilisation", a[0] / (span * a[4])},
                          {"max_osts_in_use", static_cast<uint64_t>(a[3])},
                          {"ost_waits", static_cast<uint64_t>(a[5])},
                          {"mean_aggregation_latency_ns", a[1] > 0 ? a[2] / a[1] * ns : 0.0}});
    }
    sh["levels"] = levels;
    j["sharp"] = sh;
    return j;
}

std::string run_table(const json& r) {
    std::string s = fmt::format("{:<15} {:>12} {:>6} {:<6} {:>12} {:>11} {:>11}\n", "op", "bytes",
                                "ranks", "algo", "time us", "algbw GB/s", "busbw GB/s");
    for (const json& c : r["collectives"]) {
        s += fmt::format("{:<15} {:>12} {:>6} {:<6} {:>12.3f} {:>11.2f} {:>11.2f}\n",
                         c["op"].get<std::string>(), c["bytes"].get<uint64_t>(),
                         c["ranks"].get<uint32_t>(), c["algo"].get<std::string>(),
                         c["time_ns"].get<double>() / 1000.0, c["algbw_GBps"].get<double>(),
                         c["busbw_GBps"].get<double>());
    }
    const json& t = r["totals"];
    s += fmt::format(
        "total: {} collectives, {} bytes, {:.3f} us from first start to last end; "
        "{} retransmitted packets\n",
        t["collectives"].get<uint64_t>(), t["bytes"].get<uint64_t>(),
        t["span_ns"].get<double>() / 1000.0, r["hca"]["retransmitted_packets"].get<uint64_t>());
    return s;
}

json run_timeline_json(const trace::trace& tr, const run_outcome& o) {
    const double us = static_cast<double>(o.tm.cycle_ps) / 1e6;  // cycles -> microseconds
    json ev = json::array();
    ev.push_back(
        {{"ph", "M"}, {"pid", 1}, {"name", "process_name"}, {"args", {{"name", "ranks"}}}});
    ev.push_back(
        {{"ph", "M"}, {"pid", 2}, {"name", "process_name"}, {"args", {{"name", "links"}}}});
    // With node.gpus > 1, one track (process) per node holding its ranks: pid 100 + node.
    const auto pid_of = [&](uint32_t r) -> uint32_t {
        return o.multi_gpu && r < o.node.rank_node.size() ? 100 + o.node.rank_node[r] : 1;
    };
    if (o.multi_gpu) {
        for (uint32_t n = 0; n < o.node.nodes; ++n) {
            ev.push_back({{"ph", "M"},
                          {"pid", 100 + n},
                          {"name", "process_name"},
                          {"args", {{"name", fmt::format("node {}", n)}}}});
        }
    }
    for (uint32_t r = 0; r < tr.nranks; ++r) {
        ev.push_back({{"ph", "M"},
                      {"pid", pid_of(r)},
                      {"tid", r},
                      {"name", "thread_name"},
                      {"args", {{"name", fmt::format("rank {}", r)}}}});
    }
    for (const rank_slice& s : o.slices) {
        const trace::op_record& rec = tr.records[s.record];
        json args = {{"line", rec.line}};
        if (!rec.compute) {
            args["count"] = rec.count;
            args["comm"] = rec.comm;
            args["seq"] = rec.seq;
        }
        ev.push_back({{"ph", "X"},
                      {"pid", pid_of(s.rank)},
                      {"tid", s.rank},
                      {"name", op_label(tr, rec)},
                      {"ts", static_cast<double>(s.start) * us},
                      {"dur", static_cast<double>(s.end - s.start) * us},
                      {"args", args}});
    }
    // Link counters: host uplinks and inter-switch links, at most 512 series.
    std::size_t shown = 0;
    for (const link_sample_series& l : o.links) {
        if (shown++ == 512) break;
        for (std::size_t k = 0; k < l.utilisation.size(); ++k) {
            ev.push_back({{"ph", "C"},
                          {"pid", 2},
                          {"name", l.name},
                          {"ts", static_cast<double>(k * o.sample_cycles) * us},
                          {"args", {{"utilisation", l.utilisation[k]}}}});
        }
    }
    return json{{"traceEvents", ev}, {"displayTimeUnit", "ns"}};
}

}  // namespace ndr::tb
