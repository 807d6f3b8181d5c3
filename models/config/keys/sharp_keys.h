// The `sharp` section: SHARP in-network reduction.
// Each parameter is one field here, with its default as the initialiser, and one row in
// sharp_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// SHARP in-network reduction (docs/domain.md §7).
struct sharp_config {
    uint32_t vl = 1;                   ///< VL of SHARP traffic (§13: VL1 SHARP/priority)
    bytes_t ost_bytes{2048};           ///< payload per OST (§7: 2048 B on Quantum)
    uint32_t osts = 256;               ///< OSTs per aggregation node (*choice*)
    uint32_t osts_per_tree = 64;       ///< OSTs one tree may hold per node (host window)
    bytes_t sat_threshold{16 * 1024};  ///< larger messages use streaming aggregation (§7)
    bytes_t sat_chunk{4096};           ///< SAT chunk payload (one MTU packet)
    uint32_t max_trees = 511;          ///< trees per subnet (§7: <= 511 LLT)
    time_ps_t alu_latency{50'000};     ///< ALU pipeline latency per reduction (*choice*)
    rate_bps_t alu_bandwidth{25'600'000'000'000ULL};  ///< ALU input bytes/s per node (soft)
    uint32_t sat_per_port = 1;     ///< active streaming aggregations per port (§7)
    uint32_t sat_per_switch = 64;  ///< active streaming aggregations per switch (soft)
    std::string data = "auto";     ///< carry real values: on|off|auto (auto: <= 1 MiB)
};

namespace detail {

/// The rows of the `sharp` section; `s` is a section_keys<sharp_config>
/// (config/keys/key_builders.h).
template <class Rows>
void sharp_rows(Rows& s) {
    s.uint_key(
        "sharp.vl", &sharp_config::vl, 0, 14,
        "VL of SHARP packets; docs/domain.md §13 'Data VLs' (VL1 SHARP), must be < switch.vls");
    s.unit_key(
        "sharp.ost_bytes", &sharp_config::ost_bytes, "1B..1MiB",
        [](uint64_t v) -> std::string {
            return v >= 1 && v <= (1U << 20) ? "" : "must be in 1B..1MiB";
        },
        "payload of one outstanding transaction (OST); docs/domain.md §7 (2048 B on "
        "Quantum; Quantum-2 unconfirmed)");
    s.uint_key("sharp.osts", &sharp_config::osts, 1, 1048576,
               "OSTs per aggregation node (buffers of sharp.ost_bytes); a choice");
    s.uint_key("sharp.osts_per_tree", &sharp_config::osts_per_tree, 2, 1048576,
               "OSTs one tree may use in a node at once: the hosts' window of chunks in flight "
               "(docs/domain.md §7: each group gets at least 2)");
    s.unit_key("sharp.sat_threshold", &sharp_config::sat_threshold, "any", nullptr,
               "messages larger than this use streaming aggregation (SAT), smaller ones "
               "low-latency trees (LLT); docs/domain.md §7 (UCC: 16 KiB)");
    s.unit_key("sharp.sat_chunk", &sharp_config::sat_chunk, "> 0", positive,
               "payload of one SAT chunk (one packet; <= hca.mtu)");
    s.uint_key(
        "sharp.max_trees", &sharp_config::max_trees, 1, 1022,
        "reduction trees per subnet; docs/domain.md §7 (Quantum-2: up to 511 LLT + 511 SAT)");
    s.unit_key("sharp.alu_latency", &sharp_config::alu_latency, "any", nullptr,
               "aggregation ALU pipeline latency per reduction step; a choice");
    s.unit_key("sharp.alu_bandwidth", &sharp_config::alu_bandwidth, "> 0", positive,
               "contribution bytes per second the aggregation ALU of one switch reduces, shared "
               "by all its trees and chunks; docs/domain.md §7 (soft: line rate on all 64 NDR "
               "ports, 64 x 400 Gb/s)");
    s.uint_key("sharp.sat_per_port", &sharp_config::sat_per_port, 1, 1024,
               "streaming aggregations (SAT collectives) active at once through one switch port; "
               "a SAT collective whose tree finds a port or switch full waits; docs/domain.md §7 "
               "(Quantum-2: one active tree per port)");
    s.uint_key("sharp.sat_per_switch", &sharp_config::sat_per_switch, 1, 1024,
               "streaming aggregations active at once in one switch's aggregation node; "
               "docs/domain.md §7 (soft: Quantum-2 runs several, the number is not public)");
    s.choice_key("sharp.data", &sharp_config::data, {"auto", "on", "off"},
                 "carry real element values and check every result against the golden reduction "
                 "(auto: for collectives of at most 1 MiB)");
}

}  // namespace detail
}  // namespace ndr::cfg
