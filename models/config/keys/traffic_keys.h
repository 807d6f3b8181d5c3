// The `traffic` section: synthetic traffic of `ndrsim traffic`.
// Each parameter is one field here, with its default as the initialiser, and one row in
// traffic_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Synthetic traffic (`ndrsim traffic`).
struct traffic_config {
    std::string pattern = "uniform";     ///< uniform|permutation|hotspot|incast|bitcomp
    std::string arrivals = "bernoulli";  ///< `bernoulli` (open loop at `load`) | `backlogged`
                                         ///< (every source always has a packet waiting)
    double load = 0.5;                   ///< offered load, fraction of line rate, 0 < load <= 1
    std::string size = "4096";           ///< payload bytes: `N` or `N@w,M@w,...` (weighted mix)
    std::string sl = "0";                ///< SLs used: `s` or `s@w,t@w` (weighted mix)
    double hotspot_fraction = 0.2;       ///< hotspot: share of traffic to the hot port
    uint32_t hot_port = 0;               ///< hotspot/incast destination
    uint32_t incast_sources = 0;         ///< incast: senders (0 = all other ports)
};

namespace detail {

/// The rows of the `traffic` section; `s` is a section_keys<traffic_config>
/// (config/keys/key_builders.h).
template <class Rows>
void traffic_rows(Rows& s) {
    s.choice_key("traffic.pattern", &traffic_config::pattern,
                 {"uniform", "permutation", "hotspot", "incast", "bitcomp"},
                 "destination pattern: uniform random, fixed random permutation, hotspot, incast, "
                 "bit complement (needs a power-of-two switch.ports)");
    s.choice_key(
        "traffic.arrivals", &traffic_config::arrivals, {"bernoulli", "backlogged"},
        "bernoulli: each source creates packets at `load` (geometric gaps); backlogged: every "
        "source always has a packet waiting (saturation throughput; load is ignored)");
    s.real_key("traffic.load", &traffic_config::load,
               real_bounds{0.0, false, 1.0, true, "0 < x <= 1"},
               "offered load per source, fraction of the link rate");
    s.text_key("traffic.size", &traffic_config::size, "'N' or 'N@w,M@w,...', N 1..switch.mtu",
               weighted(1, 4096),
               "payload bytes per packet, one size or a weighted mix; default one MTU, "
               "docs/domain.md §13 'MTU / largest packet'");
    s.text_key(
        "traffic.sl", &traffic_config::sl, "'s' or 's@w,t@w,...', s 0..15", weighted(0, 15),
        "service levels used, one SL or a weighted mix (SL2VL picks the VL, docs/domain.md §3)");
    s.real_key("traffic.hotspot_fraction", &traffic_config::hotspot_fraction,
               real_bounds{0.0, true, 1.0, true, "0 <= x <= 1"},
               "hotspot: share of each source's traffic sent to traffic.hot_port");
    s.uint_key("traffic.hot_port", &traffic_config::hot_port, 0, U32_MAX,
               "hotspot/incast destination port", "< switch.ports");
    s.uint_key("traffic.incast_sources", &traffic_config::incast_sources, 0, U32_MAX,
               "incast: number of sending ports, 0 = all other ports", "0..switch.ports-1");
}

}  // namespace detail
}  // namespace ndr::cfg
