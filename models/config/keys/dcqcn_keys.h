// The `dcqcn` section: DCQCN rate control at the RoCE NIC, fabric.technology = roce.
// Each parameter is one field here, with its default as the initialiser, and one row in
// dcqcn_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// DCQCN rate control at the RoCE NIC (Zhu et al., SIGCOMM 2015), fabric.technology = roce.
/// Defaults: the NVIDIA ConnectX firmware defaults (ConnectX-4 and later), docs/roce.md.
struct dcqcn_config {
    bool enabled = true;
    double g = 5.0 / 1024;              ///< alpha gain: dce_tcp_g 1019 -> (1024 - 1019) / 1024
    time_ps_t cnp_interval{4'000'000};  ///< NP: min_time_between_cnps 4 us (*soft*)
    time_ps_t alpha_timer{1'000'000};   ///< alpha update period dce_tcp_rtt = 1 us
    time_ps_t rate_timer{300'000'000};  ///< rate-increase timer rpg_time_reset = 300 us
    bytes_t byte_counter{32767};        ///< rate-increase byte counter rpg_byte_reset (*soft*)
    uint32_t fast_recovery_steps = 1;   ///< F = rpg_threshold = 1
    rate_bps_t rate_ai{80'000'000};     ///< R_AI: rpg_ai_rate 5 Mb/s x 400G/25G (*soft*)
    rate_bps_t rate_hai{800'000'000};   ///< R_HAI: rpg_hai_rate 50 Mb/s x 400G/25G (*soft*)
    rate_bps_t min_rate{1'000'000};     ///< floor of the current rate: rpg_min_rate 1 Mb/s
};

namespace detail {

/// The rows of the `dcqcn` section; `s` is a section_keys<dcqcn_config>
/// (config/keys/key_builders.h).
template <class Rows>
void dcqcn_rows(Rows& s) {
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

}  // namespace detail
}  // namespace ndr::cfg
