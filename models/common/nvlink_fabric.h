// The NVLink/NVSwitch fabric inside the nodes (docs/architecture.md "Node model"), level-neutral:
// the host-side engine (testbench/host/replay) drives it identically whichever level (cycle or
// TLM) models the InfiniBand fabric. SystemC-free.
//
// Model (fluid, max-min fair): every GPU has an NVLink egress and an ingress of
// B = node.nvlink_bandwidth * min(node.nvlink_links, node.nvswitch_ports / node.gpus) /
// node.nvlink_links bytes per second each (a GPU with fewer NVSwitch ports than links gets
// fewer links; with that, the NVSwitch can carry every GPU's B at once, so it is not a
// bottleneck of its own). A GPU-to-GPU transfer is a flow through its source's egress and its
// destination's ingress; the rates of the flows of a node are the max-min fair share of those
// resources, recomputed whenever a flow starts or ends (a GPU's bandwidth is shared by all its
// concurrent transfers). An NVLS (NVLink SHARP) member is one flow through its GPU's egress and
// ingress at once, of the bytes its link carries each way (the caller sizes it: NCCL's NVLS
// allreduce moves S + S/n per GPU and direction, testbench/host/replay.cpp), the switch
// reducing in between. The latency (node.nvlink_latency) is paid by the caller before start().
// Times are cycles (common::timing); progress is kept in bytes as doubles, a finish is rounded up
// to the next whole cycle.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "common/cycles.h"

namespace ndr::common {

/// Per-GPU NVLink counters.
struct nvlink_gpu_stats {
    uint64_t tx_bytes = 0;  ///< bytes this GPU sent over NVLink (NVLS: its contributions)
    uint64_t rx_bytes = 0;  ///< bytes it received (NVLS: the results)
};

class nvlink_fabric {
public:
    static constexpr cycle_t NEVER = std::numeric_limits<cycle_t>::max();
    /// As start()'s src or dst: the flow uses only the other GPU's ingress (src NO_GPU) or
    /// egress (dst NO_GPU): one direction of an NVLS reduce-scatter or multicast, whose other
    /// end is the NVSwitch (testbench/host/replay_hier.cpp).
    static constexpr uint32_t NO_GPU = std::numeric_limits<uint32_t>::max();

    /// `bytes_per_cycle`: B of one GPU per direction; `nodes` x `gpus` GPUs.
    nvlink_fabric(uint32_t nodes, uint32_t gpus, double bytes_per_cycle);

    /// A transfer of `bytes` from GPU src to GPU dst of `node` starts at `now` (>= the node's
    /// last event). `tag` comes back from advance(). src == dst is an NVLS member flow; src or
    /// dst NO_GPU (not both) a one-way flow.
    /// `max_share` (0 < x <= 1) caps the flow's rate at that fraction of B (the NVSwitch's
    /// NVLS reduction rate, node.nvls_efficiency); the rest of the link stays for others.
    void start(cycle_t now, uint32_t node, uint32_t src, uint32_t dst, uint64_t bytes, uint64_t tag,
               double max_share = 1.0);
    /// The cycle the next flow of `node` finishes, NEVER if none is active.
    cycle_t next_finish(uint32_t node) const;
    /// Advances `node` to `now` and returns the tags of the flows finished by then, in start
    /// order.
    std::vector<uint64_t> advance(cycle_t now, uint32_t node);

    double bytes_per_cycle() const { return bpc_; }
    uint32_t gpus() const { return gpus_; }
    /// Counters of every GPU, node-major (node * gpus + gpu).
    const std::vector<nvlink_gpu_stats>& stats() const { return stats_; }

private:
    struct flow {
        uint32_t src = 0;
        uint32_t dst = 0;
        double left = 0;  ///< bytes still to move
        double rate = 0;  ///< bytes per cycle
        double cap = 0;   ///< most bytes per cycle it may get (max_share x B)
        uint64_t tag = 0;
    };
    struct node_state {
        std::vector<flow> flows;  ///< active, in start order
        cycle_t last = 0;         ///< cycle of the last advance
        cycle_t next = NEVER;     ///< cached next_finish
    };
    void progress(node_state& n, cycle_t now) const;
    void share(node_state& n);  ///< max-min fair rates, then the next finish

    uint32_t gpus_;
    double bpc_;
    std::vector<node_state> nodes_;
    std::vector<nvlink_gpu_stats> stats_;
    // share()'s scratch, kept between calls (it runs at every flow start and finish).
    std::vector<double> cap_;
    std::vector<uint32_t> users_;
    std::vector<char> fixed_;
    std::vector<std::size_t> first_;
    std::vector<std::size_t> fill_;
    std::vector<uint32_t> by_res_;
};

}  // namespace ndr::common
