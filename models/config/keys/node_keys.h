// The `node` section: what one compute node holds (GPUs, HCAs, the NVLink/NVSwitch fabric
// between its GPUs, the PCIe path from a GPU to its HCA). node.gpus = 1, the default, is
// today's one-rank-one-host-one-HCA model and leaves every result unchanged.
// Each parameter is one field here, with its default as the initialiser, and one row in
// node_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// One compute node (docs/domain.md §14 'DGX/HGX-class nodes'). The NVLink defaults are an
/// H100-class node's; they only act when node.gpus > 1.
struct node_config {
    uint32_t gpus = 1;  ///< GPUs (ranks) per node; 1 = one rank per host, as before
    uint32_t hcas = 0;  ///< HCAs per node; 0 = as many as node.gpus (one per GPU)
    /// NVLink bandwidth of one GPU per direction (§14: NVLink 4, 900 GB/s total = 450 each way)
    rate_bps_t nvlink_bandwidth{3'600'000'000'000};
    uint32_t nvlink_links = 18;  ///< NVLink links per GPU (§14: 18 on H100)
    /// Data fraction of the NVLink rate a GPU-to-GPU copy reaches (NCCL's SM90_NVLINK_BW
    /// 20.6 GB/s per link of NVLink 4's 25 GB/s each way, §14)
    double nvlink_efficiency = 0.824;
    uint32_t nvswitch_ports = 144;      ///< NVSwitch ports facing the GPUs (§14: 8 x 18)
    time_ps_t nvlink_latency{936'250};  ///< one NVLink transfer's latency (§14, soft)
    time_ps_t pcie_latency{150'000};    ///< GPU <-> HCA through the PCIe switch (§14, soft)
    bool nvls = false;                  ///< NVLink SHARP: reductions inside NVSwitch
    /// NVLS member flows run at most at this fraction of the data rate (NCCL's nvlsEfficiency
    /// 0.85 on Hopper, §14; soft)
    double nvls_efficiency = 0.85;
};

namespace detail {

/// The rows of the `node` section; `s` is a section_keys<node_config>
/// (config/keys/key_builders.h).
template <class Rows>
void node_rows(Rows& s) {
    s.uint_key("node.gpus", &node_config::gpus, 1, 64,
               "GPUs per node, one trace rank each: rank r on node r / gpus, GPU r % gpus unless "
               "the trace header gives a placement; 1 = one rank per host (docs/architecture.md "
               "'Node model')");
    s.uint_key("node.hcas", &node_config::hcas, 0, 64,
               "HCAs per node (host k of a node is its rail k); GPU g uses HCA g * hcas / gpus "
               "(the HCA behind its PCIe switch); 0 = as many as node.gpus; docs/domain.md §14");
    s.unit_key("node.nvlink_bandwidth", &node_config::nvlink_bandwidth, "> 0", positive,
               "NVLink bandwidth of one GPU per direction, shared by all its concurrent "
               "transfers; docs/domain.md §14 (NVLink 4: 450 GB/s each way, NVLink 3: 300)");
    s.uint_key("node.nvlink_links", &node_config::nvlink_links, 1, 64,
               "NVLink links per GPU (node.nvlink_bandwidth is their sum); docs/domain.md §14 "
               "(H100: 18, A100: 12)");
    s.real_key("node.nvlink_efficiency", &node_config::nvlink_efficiency,
               real_bounds{0.0, false, 1.0, true, "0 < x <= 1"},
               "fraction of node.nvlink_bandwidth that GPU-to-GPU data reaches: NCCL's usable "
               "bandwidth per NVLink link over its raw rate per direction; docs/domain.md §14 "
               "(H100: SM90_NVLINK_BW 20.6 / 25 GB/s = 0.824; A100: 20.0 / 25 = 0.8)");
    s.uint_key("node.nvswitch_ports", &node_config::nvswitch_ports, 1, 4096,
               "NVSwitch ports facing the GPUs: a GPU uses min(node.nvlink_links, ports / gpus) "
               "links, and the switches carry at most ports links' worth at once; "
               "docs/domain.md §14 (H100 baseboard: 8 x 18)");
    s.unit_key("node.nvlink_latency", &node_config::nvlink_latency, LATENCY_RANGE, latency,
               "latency of one GPU-to-GPU transfer over NVSwitch, before its bytes flow; "
               "docs/domain.md §14 (936.25 ns fitted by ASTRA-sim on HGX-H100; soft)");
    s.unit_key("node.pcie_latency", &node_config::pcie_latency, LATENCY_RANGE, latency,
               "GPUDirect RDMA: one crossing of the PCIe switch between a GPU and its HCA, "
               "paid at the sender and at the receiver of every inter-node transfer (the "
               "bandwidth is hca.pcie_rate); docs/domain.md §14 (soft)");
    s.bool_key("node.nvls", &node_config::nvls,
               "NVLink SHARP: NVSwitch reduces an allreduce of GPUs of one node (algo nvls); "
               "docs/domain.md §14 (H100-class NVSwitch; not on A100)");
    s.real_key("node.nvls_efficiency", &node_config::nvls_efficiency,
               real_bounds{0.0, false, 1.0, true, "0 < x <= 1"},
               "an NVLS member's data moves at most at this fraction of its GPU's NVLink data "
               "rate (the NVSwitch's multimem reduction rate); docs/domain.md §14 (NCCL's "
               "nvlsEfficiency for Hopper, 0.85; no hardware figure is published: soft)");
}

}  // namespace detail
}  // namespace ndr::cfg
