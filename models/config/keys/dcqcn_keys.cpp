// The `dcqcn` section: DCQCN rate control at the RoCE NIC, fabric.technology = roce. One row per
// key, in listing order; the defaults are the initialisers of `dcqcn_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_dcqcn_keys(std::vector<config_key>& keys) {
    section_keys<dcqcn_config> s(keys, &config::dcqcn);
    s.bool_key("dcqcn.enabled", &dcqcn_config::enabled,
               "roce: DCQCN rate control per QP at the NIC (CNPs from the receiver)");
    s.real_key("dcqcn.g", &dcqcn_config::g, real_bounds{0.0, false, 1.0, true, "0 < x <= 1"},
               "roce: alpha gain g (ConnectX firmware dce_tcp_g 1019: 5/1024; DCQCN paper 1/256)");
    s.unit_key("dcqcn.cnp_interval", &dcqcn_config::cnp_interval, "any", nullptr,
               "roce: the receiver sends at most one CNP per flow per interval (firmware "
               "min_time_between_cnps, soft: 4 us; paper N 50 us)");
    s.unit_key("dcqcn.alpha_timer", &dcqcn_config::alpha_timer, "> 0", positive,
               "roce: alpha decays by (1 - g) every period without a CNP (firmware dce_tcp_rtt 1 "
               "us; paper K 55 us)");
    s.unit_key("dcqcn.rate_timer", &dcqcn_config::rate_timer, "> 0", positive,
               "roce: rate-increase timer (firmware rpg_time_reset 300 us; paper T 55 us)");
    s.unit_key(
        "dcqcn.byte_counter", &dcqcn_config::byte_counter, "> 0", positive,
        "roce: rate-increase byte counter (firmware rpg_byte_reset 32767, soft; paper B 10 MB)",
        true);
    s.uint_key("dcqcn.fast_recovery_steps", &dcqcn_config::fast_recovery_steps, 1, 1000,
               "roce: increase events of fast recovery before additive increase (firmware "
               "rpg_threshold 1; paper F 5)");
    s.unit_key("dcqcn.rate_ai", &dcqcn_config::rate_ai, "any", nullptr,
               "roce: additive-increase step R_AI (soft: firmware rpg_ai_rate 5 Mb/s x 400G/25G, "
               "the HPCC simulator's scaling; paper 40 Mb/s at 40G)");
    s.unit_key("dcqcn.rate_hai", &dcqcn_config::rate_hai, "any", nullptr,
               "roce: hyper-increase step R_HAI (soft: firmware rpg_hai_rate 50 Mb/s x 400G/25G)");
    s.unit_key("dcqcn.min_rate", &dcqcn_config::min_rate, "> 0", positive,
               "roce: the current rate never drops below this (firmware rpg_min_rate 1 Mb/s)");
}

}  // namespace ndr::cfg::detail
