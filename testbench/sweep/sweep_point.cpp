#include "sweep_point.h"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/invariant_error.h"
#include "config/config_error.h"
#include "config/config_loader.h"
#include "output_files.h"
#include "run_report.h"
#include "run_sim.h"
#include "sim_level.h"
#include "trace/trace.h"
#include "traffic_report.h"
#include "traffic_sim.h"

namespace ndr::tb {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    if (!in) return {};
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// Writes path atomically: a temporary file in the same directory, then rename(2).
void write_atomic(const std::string& path, const std::string& text) {
    const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
    {
        std::ofstream out(tmp);
        out << text;
        out.flush();
        if (!out) throw std::runtime_error("cannot write '" + tmp + "'");
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "'");
    }
}

double num(const json& j, const char* a, const char* b) {
    if (!j.contains(a) || !j[a].contains(b) || j[a][b].is_null()) return 0.0;
    return j[a][b].get<double>();
}

}  // namespace

std::string point_dir(const std::string& work_dir, const std::string& point_key) {
    return (fs::path(work_dir) / "points" / point_key).string();
}

void prepare_point_dir(const std::string& dir, const sweep_spec& s, const sweep_point& p) {
    fs::create_directories(dir);
    fs::remove(fs::path(dir) / "result.json");
    const json j = {{"sweep_id", s.name}, {"point_key", p.key}, {"kind", s.kind},
                    {"trace", p.trace},   {"params", p.params}, {"seed", p.seed},
                    {"config", p.config}};
    write_atomic((fs::path(dir) / "point.json").string(), j.dump(2) + "\n");
}

json read_result(const std::string& dir) {
    const std::string text = read_text((fs::path(dir) / "result.json").string());
    if (text.empty()) return nullptr;
    try {
        return json::parse(text);
    } catch (const std::exception&) {
        return nullptr;
    }
}

json headline_metrics(const std::string& kind, const json& r) {
    json m = json::object();
    m["sim_cycles"] = r["sim"]["cycles"];
    if (kind == "traffic") {
        m["offered_load"] = r["traffic"]["offered_load"];
        m["accepted_load"] = r["traffic"]["accepted_load"];
        const json& l = r["latency_ns"];
        m["lat_mean_ns"] = l["mean"];
        m["lat_p50_ns"] = l["p50"];
        m["lat_p99_ns"] = l["p99"];
        m["lat_p999_ns"] = l["p999"];
        m["lat_max_ns"] = l["max"];
        m["lat_samples"] = l["samples"];
        m["lat_complete"] = l["complete"];
        // The point's own batch-means half-widths (docs/report.md): error bars of one repeat.
        m["lat_mean_ns_ci95"] = l.value("mean_ci95", json(nullptr));
        m["accepted_load_ci95"] = r["traffic"].value("accepted_load_ci95", json(nullptr));
        m["credit_stall_cycles"] = r["credit_stall_cycles"]["total"];
        m["jain_index"] = r["fairness"]["jain_index_receivers"];
        const std::string pattern = r["traffic"]["pattern"].get<std::string>();
        if (pattern == "hotspot" || pattern == "incast") {
            const auto hot = std::stoul(r["config"]["traffic.hot_port"].get<std::string>());
            double others = 0.0;
            std::size_t n = 0;
            for (const json& p : r["ports"]) {
                if (p["port"].get<std::size_t>() == hot) {
                    m["hot_accepted_load"] = p["accepted_load"];
                } else {
                    others += p["accepted_load"].get<double>();
                    ++n;
                }
            }
            m["others_accepted_load"] = n ? others / static_cast<double>(n) : 0.0;
        }
        json shares = json::array();
        for (const json& v : r["vls"]) shares.push_back(v["share"]);
        m["vl_share"] = shares;
        for (const json& v : r["vls"]) {  // per-VL tail latency, e.g. vl1_lat_p99_ns
            if (v.contains("latency_ns")) {
                m[fmt::format("vl{}_lat_p99_ns", v["vl"].get<int>())] = v["latency_ns"]["p99"];
                m[fmt::format("vl{}_lat_mean_ns", v["vl"].get<int>())] = v["latency_ns"]["mean"];
            }
        }
        if (!shares.empty()) m["vl0_share"] = shares[0];
        if (shares.size() > 1) m["vl1_share"] = shares[1];
        for (const json& v : r["vls"]) {
            m[fmt::format("vl{}_share_ci95", v["vl"].get<int>())] =
                v.value("share_ci95", json(nullptr));
        }
    } else {
        m["span_us"] = num(r, "totals", "span_ns") / 1000.0;
        m["collectives"] = r["totals"]["collectives"];
        m["bytes"] = r["totals"]["bytes"];
        m["retransmits"] = r["hca"]["retransmitted_packets"];
        json per = json::array();
        double alg = 0.0;
        double bus = 0.0;
        for (const json& c : r["collectives"]) {
            per.push_back({{"op", c["op"]},
                           {"bytes", c["bytes"]},
                           {"ranks", c["ranks"]},
                           {"algo", c["algo"]},
                           {"time_us", c["time_ns"].get<double>() / 1000.0},
                           {"algbw_GBps", c["algbw_GBps"]},
                           {"busbw_GBps", c["busbw_GBps"]}});
            alg += c["algbw_GBps"].get<double>();
            bus += c["busbw_GBps"].get<double>();
        }
        const double n = static_cast<double>(per.size());
        m["mean_algbw_GBps"] = per.empty() ? json(nullptr) : json(alg / n);
        m["mean_busbw_GBps"] = per.empty() ? json(nullptr) : json(bus / n);
        m["per_collective"] = per;
    }
    return m;
}

int run_point_dir(const std::string& dir) {
    const auto t0 = std::chrono::steady_clock::now();
    {
        std::ofstream log((fs::path(dir) / "launches.log"), std::ios::app);
        log << fmt::format("pid {} host {}\n", ::getpid(),
                           std::getenv("HOSTNAME") ? std::getenv("HOSTNAME") : "?");
    }
    json result;
    const std::string text = read_text((fs::path(dir) / "point.json").string());
    if (text.empty()) throw std::runtime_error("cannot read '" + dir + "/point.json'");
    const json p = json::parse(text);
    result["point_key"] = p["point_key"];
    try {
        std::vector<std::string> sets;
        for (auto it = p["config"].begin(); it != p["config"].end(); ++it) {
            sets.push_back(it.key() + "=" + it.value().get<std::string>());
        }
        const cfg::config c = cfg::load_config("", sets);
        const std::string kind = p["kind"].get<std::string>();
        json report;
        if (kind == "traffic") {
            json pt = traffic_point_json(c, run_traffic_at_level(c));
            const sim_level lv = traffic_level(c);
            if (lv != sim_level::cycle) pt["sim"]["level"] = level_name(lv);
            pt["sim"]["peak_rss_MiB"] = peak_rss_mib();
            report = traffic_report_json(c, {pt});
        } else {
            trace::trace tr;
            try {
                tr = trace::load_trace(p["trace"].get<std::string>());
            } catch (const trace::trace_error& e) {
                throw cfg::config_error(e.what());
            }
            const sim_level lv = choose_replay_level(c, tr).level;
            report = run_report_json(c, tr, run_trace_at(lv, c, tr));
            if (lv != sim_level::cycle) report["sim"]["level"] = level_name(lv);
        }
        write_file(dir, "report.json", report.dump(2) + "\n");
        result["status"] = "done";
        result["metrics"] = headline_metrics(kind, report);
    } catch (const common::invariant_error& e) {
        result["status"] = "failed";
        result["error"] = std::string("invariant violated: ") + e.what();
    } catch (const std::exception& e) {
        result["status"] = "failed";
        result["error"] = e.what();
    }
    result["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    write_atomic((fs::path(dir) / "result.json").string(), result.dump(2) + "\n");
    return result["status"] == "done" ? 0 : 1;
}

}  // namespace ndr::tb
