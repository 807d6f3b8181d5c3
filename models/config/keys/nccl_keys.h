// The `nccl` section: how the NCCL-like collectives of a trace are laid out on the nodes.
// Each parameter is one field here, with its default as the initialiser, and one row in
// nccl_rows() below (key, range, help with its source), in the order `ndrsim config keys`
// lists them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// NCCL execution model (docs/architecture.md "Channels").
struct nccl_config {
    /// Ring channels (NCCL_MIN/MAX_NCHANNELS); 0 = auto: node.gpus on multi-GPU nodes, else 1.
    uint32_t channels = 0;
    /// Least bytes of a ring block per channel (a model choice; fewer channels below it).
    bytes_t channel_min_block{64 * 1024};
    std::string proto = "auto";       ///< NCCL_PROTO: auto, ll, ll128, simple
    std::string algo = "auto";        ///< NCCL_ALGO: the algorithm of trace records saying auto
    std::string gpu_arch = "hopper";  ///< the GPU generation the tuner's constants are for
    std::string cpu = "intel";        ///< the hosts' CPU vendor (tuner: LL bandwidth, net overhead)
    bool pxn = true;                  ///< PXN relays (NCCL_PXN_DISABLE=0): collective/pxn.h
    bool collnet = false;             ///< CollNet (NCCL_COLLNET_ENABLE, default 0): SHARP
    uint32_t p2p_channels = 32;       ///< p2pnChannels of the p2p alltoall (collective/p2p.cpp)
};

namespace detail {

/// The rows of the `nccl` section; `s` is a section_keys<nccl_config>
/// (config/keys/key_builders.h).
template <class Rows>
void nccl_rows(Rows& s) {
    s.uint_key(
        "nccl.channels", &nccl_config::channels, 0, 64,
        "ring channels of ring reduce_scatter, allgather and allreduce (NCCL_MIN_NCHANNELS = "
        "NCCL_MAX_NCHANNELS): the data is split over this many rings, channel c entering "
        "every node at local GPU c, so that on multi-GPU nodes the rings spread over all "
        "rails; 0 = auto: node.gpus when a node has more than one GPU, else 1 (a choice: "
        "NCCL picks 16-32 on 8-GPU H100 nodes; docs/domain.md §13 'Channels')",
        "0..64 (0 = auto)");
    s.unit_key("nccl.channel_min_block", &nccl_config::channel_min_block, "any", nullptr,
               "least bytes of a ring block's part on one channel: a collective whose smallest "
               "block (S / n) would be cut finer runs fewer channels (S / n / this, at least 1); "
               "0 = no floor (every channel). A model choice: below it a ring step is latency-"
               "bound and more rails change its time little while multiplying transfers; "
               "docs/architecture.md 'Channels'");
    s.choice_key("nccl.proto", &nccl_config::proto, {"auto", "ll", "ll128", "simple"},
                 "protocol of the host collectives whose trace record says proto auto "
                 "(NCCL_PROTO): auto = NCCL's tuner picks per collective and size under "
                 "host.stack nccl (simple otherwise); ll: 8 B of data per 16 B line, 32 KiB "
                 "steps; ll128: 120 B per 128 B line, 576,000 B steps; simple: no flags, "
                 "collective.chunk steps, a completion per step; docs/architecture.md "
                 "'Protocols', docs/domain.md §13");
    s.choice_key(
        "nccl.algo", &nccl_config::algo,
        {"auto", "ring", "tree", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"},
        "algorithm of the collectives whose trace record says algo auto (NCCL_ALGO, "
        "one algorithm): auto = NCCL's tuner picks under host.stack nccl (choose_algo "
        "otherwise); a name restricts the tuner to it, as the trace's algo does (an op "
        "it does not run keeps auto); docs/architecture.md 'NCCL's tuner'");
    s.choice_key("nccl.gpu_arch", &nccl_config::gpu_arch,
                 {"volta", "ampere", "hopper", "blackwell"},
                 "GPU generation whose constants NCCL's tuner uses (llMaxBws, per-channel "
                 "bandwidth caps, NVLS efficiency; NVIDIA/nccl src/graph/tuning.cc); "
                 "docs/domain.md §13 'NCCL's tuner'");
    s.choice_key("nccl.cpu", &nccl_config::cpu, {"intel", "amd"},
                 "CPU vendor of the hosts, as NCCL's tuner reads it (LL bandwidth cap and "
                 "network post overhead: 1 us Intel, 2 us AMD); docs/domain.md §13 'NCCL's "
                 "tuner'");
    s.bool_key("nccl.pxn", &nccl_config::pxn,
               "PXN (PCI x NVLink, NCCL 2.12+; NCCL_PXN_DISABLE default 0, so on): under "
               "host.stack nccl on a rail_fat_tree with node.gpus > 1, an alltoall, send or "
               "recv transfer between nodes whose sender's HCA is not on the destination's rail "
               "goes over NVLink to the GPU of the sender's node on that rail and leaves from "
               "its HCA; false = NCCL_PXN_DISABLE=1; docs/architecture.md 'PXN'");
    s.bool_key("nccl.collnet", &nccl_config::collnet,
               "CollNet (NCCL_COLLNET_ENABLE; NCCL's default 0, and it needs the SHARP plugin "
               "nccl-rdma-sharp-plugins): under host.stack nccl with node.gpus > 1 on a fabric "
               "that runs SHARP, NCCL's tuner also weighs collnet_direct, collnet_chain and "
               "(with node.nvls) nvls across nodes, each running one SHARP tree per rail; trace "
               "algo collnet_direct / collnet_chain need it; docs/architecture.md 'CollNet', "
               "docs/domain.md §13");
    s.uint_key("nccl.p2p_channels", &nccl_config::p2p_channels, 1, 64,
               "p2p channels of NCCL's alltoall (algo p2p; NCCL's p2pnChannels, the next power "
               "of two of min(nChannels, NCCL_MAX_P2P_NCHANNELS)): a rank runs this many "
               "batches of 8 peers at once, later batches wait for the batch before them on "
               "their channel; 32 = the 32 channels NCCL opens on 8-GPU H100 nodes (soft); "
               "docs/architecture.md 'All-to-all'",
               "1..64");
}

}  // namespace detail
}  // namespace ndr::cfg
