// SHARP aggregation node of one switch (docs/domain.md §7): for every reduction tree through the
// switch it collects the children's aggregation packets of a chunk in OST buffers, reduces them
// once all have arrived and sends the partial result to the parent, or, at the root, the result
// down to every child; result packets from the parent are replicated to the children.
// Resources (docs/architecture.md "SHARP aggregation node"): one ALU per node, shared by all its
// trees and chunks, consumes contribution bytes at sharp.alu_bandwidth (a fluid server: a chunk's
// work starts no earlier than its first contribution and the ALU's previous work, and ends no
// earlier than its last contribution) plus sharp.alu_latency of pipeline; a contribution that
// opens a chunk when the node has too few free OSTs waits, unconsumed (its sender's credits stay
// held), until a reduction frees them. Trees are configured by the
// aggregation manager (testbench/sharp_manager.h); packets never use the LFT.
// Data-carrying mode: contributions carry real bytes, reduced with the golden ALU
// (golden/reduce_op.h) in child-port order, so results are bit-exact and reproducible.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "common/cycles.h"
#include "golden/reduce_op.h"

namespace ndr::common {

/// One tree as seen by one switch.
struct sharp_tree_node {
    uint32_t tree = 0;
    uint32_t level = 0;                 ///< 0 = leaf switch
    std::vector<uint16_t> child_ports;  ///< hosts or child switches, in reduction order
    int parent_port = -1;               ///< -1 = this switch is the root
    /// For rooted ops (reduce): child port leading to each host of the tree (host -> port).
    std::unordered_map<uint32_t, uint16_t> port_of_host;
};

struct sharp_an_stats {
    uint64_t chunks_reduced = 0;
    double alu_busy_cycles = 0;  ///< cycles of ALU work: contribution bytes / sharp.alu_bandwidth
    uint64_t ost_waits = 0;      ///< contributions that had to wait for free OSTs
    double ost_wait_cycles = 0;  ///< sum over them: arrival -> taken by the node
    uint32_t max_osts_in_use = 0;
    uint64_t aggregation_cycles = 0;  ///< sum over chunks: first arrival -> result out
};

/// A packet the node wants sent: out port, when, and what.
struct sharp_emit {
    uint16_t port = 0;
    cycle_t at = 0;
    bool down = false;
    uint32_t tree = 0;
    uint32_t chunk = 0;
    uint32_t bytes = 0;
    uint32_t root_host = 0xFFFFFFFFU;  ///< rooted op: only towards this host
    uint32_t data = 0xFFFFFFFFU;       ///< data-mode payload slot (see sharp_payloads)
    uint64_t tag = 0;                  ///< the contributions' tag (on_packet)
};

/// Payload bytes of data-carrying SHARP packets, by slot (shared by HCAs and switches).
/// Wire bytes of a SHARP packet with `payload` bytes: LRH 8 + BTH 12 + DETH 8 + a 16-byte
/// SHARP aggregation header ([U]: the header is not public) + payload + ICRC 4 + VCRC 2.
uint32_t sharp_wire_bytes(uint32_t payload);

class sharp_payloads {
public:
    uint32_t store(std::vector<uint8_t> bytes);
    const std::vector<uint8_t>& get(uint32_t slot) const { return slots_[slot]; }
    void release(uint32_t slot);

private:
    std::vector<std::vector<uint8_t>> slots_;
    std::vector<uint32_t> free_;
};

class sharp_an {
public:
    sharp_an(uint32_t osts, uint32_t ost_bytes, uint32_t alu_cycles, sharp_payloads* payloads)
        : osts_(osts), ost_bytes_(ost_bytes), alu_cycles_(alu_cycles), payloads_(payloads) {}
    /// ALU throughput in contribution bytes per cycle, shared by every tree and chunk of this
    /// node (0: unlimited, the ALU only adds its pipeline latency).
    void set_alu_bytes_per_cycle(double bpc) { alu_bpc_ = bpc; }
    void add_tree(sharp_tree_node node) { trees_[node.tree] = std::move(node); }
    void set_reduction(uint32_t tree, golden::red_op op, golden::red_type type) {
        reduction_[tree] = {op, type};
    }
    bool has_tree(uint32_t tree) const { return trees_.count(tree) != 0; }
    /// A SHARP packet finished arriving (its last beat at cycle t) on input port `in`; `token`
    /// is the caller's handle of it; `tag` comes back on the chunk's results (the TLM level's
    /// burst shape: its high 32 bits, the chunks a burst stands for, count in the statistics;
    /// 0 = one; the members of a tree give equal tags). Appends the packets to send to `out` and
    /// the tokens of the packets the node has consumed to `taken` (the caller then frees their
    /// input buffer): this one, unless it waits for OSTs, and any waiting ones a reduction let in.
    void on_packet(cycle_t t, uint16_t in, bool down, uint32_t tree, uint32_t chunk, uint32_t bytes,
                   uint32_t root_host, uint32_t data, uint32_t beats, uint64_t token, uint64_t tag,
                   std::vector<sharp_emit>& out, std::vector<uint64_t>& taken);
    const sharp_an_stats& stats() const { return stats_; }
    uint32_t osts_in_use() const { return in_use_; }
    /// Contributions waiting for OSTs (held in their input buffers).
    std::size_t waiting() const { return waiting_.size(); }

private:
    struct chunk_state {
        uint32_t arrived = 0;
        uint32_t bytes = 0;
        cycle_t first = 0;
        cycle_t last = 0;
        uint32_t root_host = 0xFFFFFFFFU;
        uint32_t osts = 0;           ///< OSTs held
        uint64_t in_bytes = 0;       ///< contribution bytes the ALU reads
        cycle_t data_from = 0;       ///< first cycle a contribution's data was in (streaming)
        uint64_t tag = 0;            ///< its first contribution's tag
        std::vector<uint32_t> data;  ///< per child index: payload slot (data mode)
    };
    struct contribution {
        cycle_t t = 0;
        uint16_t in = 0;
        uint32_t tree = 0;
        uint32_t chunk = 0;
        uint32_t bytes = 0;
        uint32_t root_host = 0xFFFFFFFFU;
        uint32_t data = 0xFFFFFFFFU;
        uint32_t beats = 1;  ///< packet length: its data streamed in over these cycles
        uint64_t token = 0;
        uint64_t tag = 0;
    };
    /// Takes contribution `c` at cycle t, or returns false when it needs OSTs the node lacks.
    bool take(cycle_t t, const contribution& c, std::vector<sharp_emit>& out);
    void reduce(cycle_t t, uint64_t key, std::vector<sharp_emit>& out);
    uint32_t osts_for(uint32_t bytes) const {
        return bytes == 0 ? 1U : (bytes + ost_bytes_ - 1) / ost_bytes_;
    }
    void send_down(const sharp_tree_node& n, cycle_t at, uint32_t chunk, uint32_t bytes,
                   uint32_t root_host, uint32_t data, uint64_t tag, std::vector<sharp_emit>& out);

    uint32_t osts_;
    uint32_t ost_bytes_;
    uint32_t alu_cycles_;
    sharp_payloads* payloads_;
    uint32_t in_use_ = 0;
    double alu_bpc_ = 0;                 ///< ALU bytes per cycle (0 = unlimited)
    double alu_free_ = 0;                ///< cycle the ALU finishes the work it has taken
    std::vector<contribution> waiting_;  ///< contributions waiting for OSTs, in arrival order
    std::unordered_map<uint32_t, sharp_tree_node> trees_;
    std::unordered_map<uint32_t, std::pair<golden::red_op, golden::red_type>> reduction_;
    std::unordered_map<uint64_t, chunk_state> chunks_;  ///< key (tree << 32) | chunk
    sharp_an_stats stats_;
};

}  // namespace ndr::common
