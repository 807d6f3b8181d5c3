// What one trace replay produced, at any level (run_sim.h, run_sim_tlm.h): the input of
// report.json, the stdout table and timeline.json (run_report.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/hca_stats.h"
#include "common/nvlink_fabric.h"
#include "common/pfc_port_stats.h"
#include "common/sharp_an.h"
#include "common/switch_stats.h"
#include "common/timing.h"
#include "config/sim_config.h"
#include "fabric_counts.h"
#include "replay.h"

namespace ndr::tb {

struct link_sample_series {
    std::string name;
    uint32_t tier = 0;
    uint64_t total_beats = 0;
    std::vector<float> utilisation;  ///< per sample interval, 0..1
};

struct switch_summary {
    uint32_t id = 0;
    uint32_t level = 0;
    common::switch_stats stats;
};

struct sharp_node_summary {
    uint32_t sw = 0;
    uint32_t level = 0;
    common::sharp_an_stats stats;
};

/// fault.link_down: one cable taken down, and what it cost.
struct link_fault_summary {
    std::string link;           ///< as named in fault.link_down
    uint64_t down_ps = 0;       ///< time it went down
    uint64_t reroute_ps = 0;    ///< time the rerouted LFTs were in place
    uint64_t packets_lost = 0;  ///< packets whose header reached either end after it went down
};

struct run_outcome {
    common::timing tm;
    std::string topology;  ///< description
    uint32_t hosts = 0;
    uint32_t switches = 0;
    fabric_counts fabric;  ///< nodes, GPUs, HCAs, rails, switches per level (count_fabric)
    uint64_t cycles = 0;   ///< simulated until the last record finished
    double wall_s = 0.0;
    std::vector<collective_result> collectives;
    std::vector<rank_slice> slices;
    std::vector<transfer_slice> transfers;  ///< report.timeline transfers|packets only
    common::hca_stats hca;
    std::vector<common::pfc_port_stats> hca_pfc;  ///< RoCE: per (host, priority), whole run
    std::vector<switch_summary> switch_stats;
    std::vector<link_sample_series> links;
    std::vector<link_fault_summary> link_faults;  ///< fault.link_down, in config order
    uint64_t sample_cycles = 0;                   ///< cycles per utilisation sample
    pair_traffic pair_bytes;                      ///< payload per (src host, dst host)
    std::vector<std::string> sharp_trees;         ///< description per SHARP tree
    std::vector<sharp_node_summary> sharp_nodes;  ///< per switch aggregation node
    /// Node model (node.gpus > 1; empty otherwise): the layout and NVLink counters.
    struct node_summary {
        uint32_t nodes = 0;
        uint32_t gpus = 0;                          ///< per node
        uint32_t hcas = 0;                          ///< per node (rails)
        double nvlink_bytes_per_s = 0;              ///< B of one GPU per direction
        std::vector<common::nvlink_gpu_stats> gpu;  ///< node-major
        std::vector<uint32_t> rank_node;            ///< per rank: its node (timeline tracks)
    };
    bool multi_gpu = false;
    node_summary node;
    std::string pcap_link;      ///< --pcap: captured link (interface 0; its reverse is 1)
    uint64_t pcap_records = 0;  ///< --pcap: packets written
    /// TLM: SHARP bursts (sim.tlm_sharp_burst) a switch output's VL arbiter sent while traffic
    /// of another VL waited for that output (their share of it is overstated).
    uint64_t sharp_bursts_contended = 0;
};

struct run_options {
    std::string pcap_path;  ///< empty: no capture
    std::string pcap_link;  ///< link name, e.g. "host0->sw0.p0"; empty: host 0's uplink
};

}  // namespace ndr::tb
