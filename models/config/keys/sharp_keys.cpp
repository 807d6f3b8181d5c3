// The `sharp` section: SHARP in-network reduction. One row per key, in listing order; the
// defaults are the initialisers of `sharp_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_sharp_keys(std::vector<config_key>& keys) {
    section_keys<sharp_config> s(keys, &config::sharp);
    s.uint_key(
        "sharp.vl", &sharp_config::vl, 0, 14,
        "VL of SHARP packets; docs/domain.md §13 'Data VLs' (VL1 SHARP), must be < switch.vls");
    s.unit_key("sharp.ost_bytes", &sharp_config::ost_bytes, "> 0", positive,
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
    s.choice_key("sharp.data", &sharp_config::data, {"auto", "on", "off"},
                 "carry real element values and check every result against the golden reduction "
                 "(auto: for collectives of at most 1 MiB)");
}

}  // namespace ndr::cfg::detail
