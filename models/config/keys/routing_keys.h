// The `routing` section: how InfiniBand switches pick an output port (static LFT or adaptive).
// Each parameter is one field here, with its default as the initialiser, and one row in
// routing_rows() below (key, range, help with its source), in the order `ndrsim config keys`
// lists them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Switch routing (docs/routing.md).
struct routing_config {
    std::string mode = "static";    ///< `static` (LFT, d-mod-k) | `adaptive` (AR per packet)
    std::string ar_group = "tree";  ///< AR group algorithm: `tree` (the up-ports of a fat tree)
    bytes_t ar_threshold{4096};     ///< leave the LFT port once this much is queued for it
    /// RoCE ECMP: `flow` (5-tuple hash) | `flowlet` (re-hash after a gap) | `spray` (per packet)
    std::string ecmp_mode = "flow";
    /// flowlet: an idle gap longer than this starts a new flowlet (16 us, *soft*: docs/roce.md)
    time_ps_t flowlet_gap{16'000'000};
    /// RoCE: `lft` (a lower switch over the LFT's cable) | `parallel` (ECMP over parallel cables)
    std::string ecmp_down = "lft";
};

namespace detail {

/// The rows of the `routing` section; `s` is a section_keys<routing_config>
/// (config/keys/key_builders.h).
template <class Rows>
void routing_rows(Rows& s) {
    s.choice_key("routing.mode", &routing_config::mode, {"static", "adaptive"},
                 "InfiniBand switch routing: static = the LFT port only (up/down d-mod-k), "
                 "adaptive = per packet (TLM: per transaction), a port of the destination's AR "
                 "group chosen by queued data and credits, HCAs placing packets out of order "
                 "(free AR; RoCE keeps ECMP); docs/domain.md §4 'Adaptive routing (AR)' (OpenSM "
                 "default ar_updn; the global default stays static: docs/routing.md 'Presets')");
    s.choice_key("routing.ar_group", &routing_config::ar_group, {"tree"},
                 "AR group algorithm of the subnet manager: tree = the ports with minimal hops "
                 "to the destination: every up-port toward the spine/core for a destination not "
                 "below the switch, else the parallel cables to the lower switch the LFT port "
                 "leads to; docs/domain.md §4 'Adaptive routing (AR)' (TREE, the fat-tree "
                 "algorithm)");
    s.unit_key(
        "routing.ar_threshold", &routing_config::ar_threshold, "0..16MiB",
        [](uint64_t v) -> std::string {
            return v > (uint64_t{16} << 20) ? "must be at most 16MiB" : std::string();
        },
        "adaptive: a packet keeps its LFT port while at most this many bytes are queued "
        "for that port and it has credits; beyond, the group port with the least queued "
        "blocks minus free credits (docs/routing.md); "
        "model choice (4 KiB = one MTU packet, soft: NVIDIA does not publish the "
        "switch's threshold)");
    s.choice_key("routing.ecmp_mode", &routing_config::ecmp_mode, {"flow", "flowlet", "spray"},
                 "RoCE switch ECMP over the up ports (fabric.technology roce; InfiniBand ignores "
                 "it as RoCE ignores routing.mode): flow = one port per 5-tuple hash (RFC 2992 "
                 "hash-threshold class), flowlet = the hash re-drawn with a flowlet counter when a "
                 "QP was idle at the switch longer than routing.flowlet_gap (CONGA, LetFlow; "
                 "Broadcom/Juniper DLB flowlet mode), spray = a seeded random up port per packet "
                 "(packet spraying); flowlet and spray make the NICs place packets out of order "
                 "as under InfiniBand AR; docs/roce.md 'ECMP modes'");
    s.unit_key(
        "routing.flowlet_gap", &routing_config::flowlet_gap, "100ns..32ms",
        [](uint64_t ps) {
            if (ps < 100'000) return std::string("must be at least 100ns");
            return std::string(ps > 32'000'000'000 ? "must be at most 32ms" : "");
        },
        "routing.ecmp_mode flowlet: the idle time of a QP at a switch after which its next "
        "packet starts a new flowlet; soft: 16us, the default flowlet inactivity interval of "
        "Juniper's flowlet load balancing (Junos CLI reference 'inactivity-interval', range "
        "16us..32ms; docs/domain.md §14.3b)");
    s.choice_key("routing.ecmp_down", &routing_config::ecmp_down, {"lft", "parallel"},
                 "RoCE: a packet going down to a lower switch it has parallel cables to: lft = the "
                 "LFT's cable (d-mod-k, one cable per destination), parallel = a member of those "
                 "cables chosen as routing.ecmp_mode chooses among up ports (each cable an "
                 "equal-cost next hop); model choice, lft keeps the published figures "
                 "(docs/roce.md 'ECMP modes')");
}

}  // namespace detail
}  // namespace ndr::cfg
