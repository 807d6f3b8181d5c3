#include "sim_level.h"

#include <fmt/format.h>

#include "config/config_error.h"
#include "config/config_source.h"
#include "run_sim_tlm.h"
#include "traffic_rtl_sim.h"
#include "traffic_tlm_sim.h"

namespace ndr::tb {

namespace {

cfg::config_error level_error(const std::string& reason) {
    return cfg::config_error(cfg::config_source::merged(), "sim.level", reason);
}

}  // namespace

std::string_view level_name(sim_level l) {
    switch (l) {
        case sim_level::tlm:
            return "tlm";
        case sim_level::rtl:
            return "rtl";
        case sim_level::cycle:
            break;
    }
    return "cycle";
}

sim_level replay_level(const cfg::config& c, uint32_t trace_ranks, bool pcap) {
    const bool roce = c.fabric.technology == "roce";
    const std::string& l = c.sim.level;
    if (l == "rtl") {
        throw level_error(
            "rtl: trace replay needs HCAs, which exist at the cycle and tlm levels only; the RTL "
            "level runs synthetic traffic (ndrsim traffic --level rtl)");
    }
    if (l == "auto") {
        const uint32_t hosts = c.fabric.hosts != 0 ? c.fabric.hosts : trace_ranks;
        // RoCE (PFC, ECN, DCQCN, ECMP) and captures exist at the cycle level only: auto never
        // picks TLM for them.
        const bool tlm = !roce && !pcap && c.fault.link_down.empty() &&
                         c.sim.tlm_above_hosts != 0 && hosts > c.sim.tlm_above_hosts;
        return tlm ? sim_level::tlm : sim_level::cycle;
    }
    if (l == "tlm") {
        if (roce) {
            throw level_error(
                "tlm: fabric.technology roce (PFC, ECN, DCQCN) is modelled at the cycle level "
                "only: use --level cycle");
        }
        if (pcap) throw level_error("tlm: packet capture (--pcap) needs --level cycle");
        if (!c.fault.link_down.empty()) {
            // The TLM HCA has no RC retransmission to recover the lost packets.
            throw cfg::config_error(cfg::config_source::merged(), "fault.link_down",
                                    "link faults are modelled at the cycle level only (the TLM "
                                    "HCA has no RC retransmission): use --level cycle");
        }
        return sim_level::tlm;
    }
    return sim_level::cycle;
}

level_choice choose_replay_level(const cfg::config& c, const trace::trace& tr, bool pcap) {
    level_choice ch;
    ch.level = replay_level(c, tr.nranks, pcap);  // validates; the hosts rule for auto
    if (c.sim.level != "auto") {
        ch.rule = "explicit";
        ch.reason = fmt::format("sim.level {}", c.sim.level);
        return ch;
    }
    if (c.fabric.technology == "roce" || pcap || !c.fault.link_down.empty()) {
        ch.rule = "cycle only";
        ch.reason = c.fabric.technology == "roce"
                        ? "fabric.technology roce is modelled at the cycle level only"
                    : pcap ? "packet capture (--pcap) needs the cycle level"
                           : "fault.link_down is modelled at the cycle level only";
        return ch;
    }
    const uint32_t hosts = c.fabric.hosts != 0 ? c.fabric.hosts : tr.nranks;
    if (c.sim.level_auto == "hosts") {
        ch.rule = "hosts";
        ch.reason = fmt::format("{} hosts {} sim.tlm_above_hosts {}", hosts,
                                ch.level == sim_level::tlm ? ">" : "<=", c.sim.tlm_above_hosts);
        return ch;
    }
    ch.rule = "cost";
    ch.estimated = true;
    ch.estimate = estimate_replay(c, tr, hosts);
    const level_estimate& e = ch.estimate;
    const double floor_s = c.sim.level_auto_cycle_below_s;
    const bool cheaper = e.tlm_cpu_s < e.cycle_cpu_s;
    ch.level = cheaper && e.cycle_cpu_s >= floor_s ? sim_level::tlm : sim_level::cycle;
    ch.reason = fmt::format(
        "estimated CPU time {:.3g} s at the cycle level, {:.3g} s at the TLM level ({:.4g} "
        "transfers, {:.4g} packets, {:.4g} TLM transactions, {:.4g} SHARP packets, {:.4g} TLM "
        "SHARP transactions, {} hosts){}",
        e.cycle_cpu_s, e.tlm_cpu_s, e.counts.transfers, e.counts.packets, e.counts.transactions,
        e.counts.sharp_packets, e.counts.sharp_transactions, hosts,
        cheaper && ch.level == sim_level::cycle
            ? fmt::format("; below sim.level_auto_cycle_below_s {:g} s the cycle level runs",
                          floor_s)
            : "");
    return ch;
}

nlohmann::json level_choice_json(const level_choice& ch) {
    nlohmann::json j{{"level", level_name(ch.level)}, {"rule", ch.rule}, {"reason", ch.reason}};
    if (ch.estimated) {
        const replay_counts& k = ch.estimate.counts;
        j["estimated_cpu_s"] = {{"cycle", ch.estimate.cycle_cpu_s}, {"tlm", ch.estimate.tlm_cpu_s}};
        j["counts"] = {{"hosts", k.hosts},
                       {"path_links", k.path_links},
                       {"transfers", k.transfers},
                       {"packets", k.packets},
                       {"tlm_transactions", k.transactions},
                       {"sharp_packets", k.sharp_packets},
                       {"tlm_sharp_transactions", k.sharp_transactions},
                       {"sharp_data_bytes", k.sharp_data_bytes},
                       {"links", k.links},
                       {"span_us", k.span_us},
                       {"fc_refreshes", k.fc_refreshes},
                       {"utilisation_samples", k.samples}};
    }
    return j;
}

sim_level traffic_level(const cfg::config& c) {
    if (c.fault.icrc_error_rate != 0.0) {
        // Synthetic traffic has no RC transport to recover a loss: the key would be ignored.
        throw cfg::config_error(cfg::config_source::merged(), "fault.icrc_error_rate",
                                "synthetic traffic has no RC transport to recover losses; "
                                "fault injection needs ndrsim run (HCAs)");
    }
    if (!c.fault.link_down.empty()) {
        throw cfg::config_error(cfg::config_source::merged(), "fault.link_down",
                                "synthetic traffic has no RC transport to recover losses; "
                                "link faults need ndrsim run (HCAs)");
    }
    const std::string& l = c.sim.level;
    if (l == "auto" || l == "cycle") return sim_level::cycle;
    if (c.fabric.technology == "roce") {
        throw level_error(l +
                          ": fabric.technology roce (PFC, ECN, DCQCN) is modelled at the cycle "
                          "level only: use --level cycle");
    }
    if (l == "rtl" && !c.sw.sl2vl_ports.empty()) {
        throw cfg::config_error(cfg::config_source::merged(), "switch.sl2vl_ports",
                                "the RTL switch core has one SL2VL table and no VL15 drop: use "
                                "--level cycle or tlm");
    }
    return l == "tlm" ? sim_level::tlm : sim_level::rtl;
}

run_outcome run_trace_at_level(const cfg::config& c, const trace::trace& tr,
                               const run_options& ro) {
    return run_trace_at(choose_replay_level(c, tr, !ro.pcap_path.empty()).level, c, tr, ro);
}

run_outcome run_trace_at(sim_level level, const cfg::config& c, const trace::trace& tr,
                         const run_options& ro) {
    return level == sim_level::tlm ? run_trace_tlm(c, tr) : run_trace(c, tr, ro);
}

traffic_outcome run_traffic_at_level(const cfg::config& c) {
    switch (traffic_level(c)) {
        case sim_level::tlm:
            return run_traffic_tlm(c);
        case sim_level::rtl:
            return run_traffic_rtl(c);
        case sim_level::cycle:
            break;
    }
    return run_traffic(c);
}

}  // namespace ndr::tb
