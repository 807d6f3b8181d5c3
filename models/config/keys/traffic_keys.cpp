// The `traffic` section: synthetic traffic of `ndrsim traffic`. One row per key, in listing order;
// the defaults are the initialisers of `traffic_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_traffic_keys(std::vector<config_key>& keys) {
    section_keys<traffic_config> s(keys, &config::traffic);
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

}  // namespace ndr::cfg::detail
