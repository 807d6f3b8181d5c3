#include "traffic_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "config/config_dump.h"
#include "roce_report.h"
#include "traffic_ci.h"

namespace ndr::tb {

using nlohmann::json;

uint64_t percentile_hist(const std::vector<uint64_t>& hist, double p) {
    uint64_t n = 0;
    for (uint64_t c : hist) n += c;
    if (n == 0) return 0;
    const auto rank = std::clamp<uint64_t>(
        static_cast<uint64_t>(std::ceil(p * static_cast<double>(n) - 1e-9)), 1, n);
    uint64_t seen = 0;
    for (std::size_t v = 0; v < hist.size(); ++v) {
        seen += hist[v];
        if (seen >= rank) return v;
    }
    return hist.size() - 1;
}

json latency_summary(const std::vector<uint64_t>& h, double cycle_ns) {
    uint64_t samples = 0;
    uint64_t total = 0;
    uint64_t lo = 0;
    uint64_t hi = 0;
    for (std::size_t v = 0; v < h.size(); ++v) {
        if (h[v] == 0) continue;
        if (samples == 0) lo = v;
        hi = v;
        samples += h[v];
        total += h[v] * v;
    }
    const auto ns = [&](uint64_t cycles) { return static_cast<double>(cycles) * cycle_ns; };
    // Without samples (nothing measured was delivered) every latency is null, not 0.
    const auto lat = [&](double v) { return samples ? json(v) : json(nullptr); };
    return json{
        {"mean",
         lat(samples ? static_cast<double>(total) / static_cast<double>(samples) * cycle_ns : 0.0)},
        {"min", lat(ns(lo))},
        {"p50", lat(ns(percentile_hist(h, 0.50)))},
        {"p99", lat(ns(percentile_hist(h, 0.99)))},
        {"p999", lat(ns(percentile_hist(h, 0.999)))},
        {"max", lat(ns(hi))},
        {"samples", samples},
    };
}

json config_json(const cfg::config& c) {
    json j = json::object();
    for (const auto& [k, v] : cfg::flatten(c)) j[k] = v;
    return j;
}

json traffic_point_json(const cfg::config& c, const traffic_outcome& o) {
    const double cycle_ns = static_cast<double>(o.tm.cycle_ps) / 1000.0;
    const uint32_t ports = c.sw.ports;
    const uint32_t vls = c.sw.vls;
    const double win = static_cast<double>(o.window_cycles);
    const double line_gbps = static_cast<double>(c.link.rate.bps) / 1e9;
    const traffic_ci ci =
        traffic_intervals(o.ep, c.sim.warmup_cycles, o.window_cycles, ports, cycle_ns);
    json j;
    j["sim"] = {
        {"cycles", o.cycles},
        {"cycle_ns", cycle_ns},
        {"sim_time_ns", static_cast<double>(o.cycles) * cycle_ns},
        {"warmup_cycles", c.sim.warmup_cycles},
        {"window_cycles", o.window_cycles},
        {"seed", c.sim.seed},
        {"wall_s", o.wall_s},
        {"cycles_per_wall_s", o.wall_s > 0 ? static_cast<double>(o.cycles) / o.wall_s : 0.0},
        {"packets_per_wall_s", o.wall_s > 0 ? static_cast<double>(o.ep.delivered) / o.wall_s : 0.0},
        {"batches", batch_record::batches},
        {"batch_cycles", ci.batch_cycles},
    };
    const double capacity = static_cast<double>(ports) * win;  // beats the ports could carry
    uint64_t delivered_beats = 0;
    for (uint64_t b : o.ep.port_delivered_beats) delivered_beats += b;
    j["traffic"] = {
        {"pattern", c.traffic.pattern},
        {"configured_load", c.traffic.load},
        {"offered_load", static_cast<double>(o.ep.window_created_beats) / capacity},
        {"accepted_load", static_cast<double>(delivered_beats) / capacity},
        {"accepted_load_ci95", ci.accepted_load_ci95},
        {"size", c.traffic.size},
        {"sl", c.traffic.sl},
    };
    j["packets"] = {
        {"injected", o.ep.created},
        {"delivered", o.ep.delivered},
        {"dropped", o.dropped},
        {"in_flight", o.in_flight},
        {"measured", o.ep.window_created},
        {"measured_delivered", o.ep.tagged_delivered},
        {"delivered_in_window", o.ep.window_delivered},
        {"max_source_queue", o.ep.max_source_queue},
    };
    j["latency_ns"] = latency_summary(o.ep.latency_hist, cycle_ns);
    j["latency_ns"]["complete"] = o.ep.tagged_delivered == o.ep.window_created;
    j["latency_ns"]["mean_ci95"] = ci.latency_mean_ci95;
    j["latency_ns"]["ci_batches"] = ci.latency_batches;
    j["warmup_check"] = ci.warmup_check;
    json jp = json::array();
    double sum = 0.0;
    double sum2 = 0.0;
    uint32_t active = 0;
    for (uint32_t p = 0; p < ports; ++p) {
        const double acc = static_cast<double>(o.ep.port_delivered_beats[p]) / win;
        const double off = static_cast<double>(o.ep.port_offered_beats[p]) / win;
        jp.push_back({{"port", p},
                      {"offered_load", off},
                      {"accepted_load", acc},
                      {"throughput_Gbps", acc * line_gbps},
                      {"egress_busy", static_cast<double>(o.sw.out_busy_cycles[p]) / win}});
        if (o.ep.port_delivered_beats[p] > 0) {
            sum += acc;
            sum2 += acc * acc;
            ++active;
        }
    }
    j["ports"] = jp;
    j["fairness"] = {{"jain_index_receivers",
                      sum2 > 0 ? (sum * sum) / (static_cast<double>(active) * sum2) : 1.0}};
    json jv = json::array();
    json jb = json::array();
    uint64_t vl_total = 0;
    for (uint64_t b : o.ep.vl_delivered_beats) vl_total += b;
    uint64_t stall_sw = 0;
    uint64_t stall_ep = 0;
    for (uint32_t vl = 0; vl < vls; ++vl) {
        jv.push_back({{"vl", vl},
                      {"delivered_beats", o.ep.vl_delivered_beats[vl]},
                      {"delivered_bytes", o.ep.vl_delivered_bytes[vl]},
                      {"share", vl_total ? static_cast<double>(o.ep.vl_delivered_beats[vl]) /
                                               static_cast<double>(vl_total)
                                         : 0.0},
                      {"share_ci95", ci.vl_share_ci95[vl]},
                      {"latency_ns", latency_summary(o.ep.vl_latency_hist[vl], cycle_ns)}});
        jb.push_back({{"vl", vl},
                      {"capacity_blocks", o.tm.sw_vl_max_blocks},
                      {"max_blocks", o.sw.buffer[vl].max_blocks},
                      {"mean_blocks", o.sw.buffer[vl].mean_blocks},
                      {"max_bytes", o.sw.buffer[vl].max_blocks * 64ULL},
                      {"mean_bytes", o.sw.buffer[vl].mean_blocks * 64.0}});
        stall_sw += o.sw.credit_stall_cycles[vl];
        stall_ep += o.ep.credit_stall_cycles[vl];
    }
    j["vls"] = jv;
    j["buffer_occupancy"] = jb;
    j["credit_stall_cycles"] = {
        {"switch_outputs", stall_sw},   {"switch_outputs_per_vl", o.sw.credit_stall_cycles},
        {"endpoints", stall_ep},        {"endpoints_per_vl", o.ep.credit_stall_cycles},
        {"total", stall_sw + stall_ep},
    };
    j["switch"] = {{"xbar_transfers", o.sw.xbar_transfers},
                   {"fc_packets", o.sw.fc_packets},
                   {"sl2vl_drops", o.sw.sl2vl_drops}};
    if (c.fabric.technology == "roce") {
        j["roce"] = switch_roce_json(o.sw, c.sw.vls, cycle_ns);
        j["roce"]["endpoints_pfc"] = pfc_json(o.ep_pfc, c.sw.vls, cycle_ns);
    }
    return j;
}

json traffic_report_json(const cfg::config& base, const std::vector<json>& points) {
    json j;
    j["ndrsim"] = {{"command", "traffic"}, {"report_version", 1}};
    j["config"] = config_json(base);
    if (points.size() == 1) {
        for (auto it = points[0].begin(); it != points[0].end(); ++it) j[it.key()] = it.value();
    }
    j["points"] = points;
    return j;
}

std::string traffic_table(const std::vector<json>& points) {
    std::string s = fmt::format("{:>7} {:>8} {:>8} | {:>9} {:>9} {:>9} {:>9} {:>9} | {:>10}\n",
                                "load", "offered", "accepted", "mean ns", "p50 ns", "p99 ns",
                                "p999 ns", "max ns", "stall cyc");
    const auto cell = [](const json& v) {
        return v.is_null() ? fmt::format("{:>9}", "-") : fmt::format("{:>9.1f}", v.get<double>());
    };
    for (const json& p : points) {
        const json& l = p["latency_ns"];
        s += fmt::format("{:>7.3f} {:>8.4f} {:>8.4f} | {} {} {} {} {} | {:>10}{}\n",
                         p["traffic"]["configured_load"].get<double>(),
                         p["traffic"]["offered_load"].get<double>(),
                         p["traffic"]["accepted_load"].get<double>(), cell(l["mean"]),
                         cell(l["p50"]), cell(l["p99"]), cell(l["p999"]), cell(l["max"]),
                         p["credit_stall_cycles"]["total"].get<uint64_t>(),
                         l["complete"].get<bool>()
                             ? ""
                             : "  (not every measured packet was delivered by the end of the "
                               "drain: above saturation, or sim.drain_cycles too short)");
    }
    return s;
}

}  // namespace ndr::tb
