// The `cc` section: InfiniBand congestion control (IBTA Annex A10), fabric.technology = ib.
// Switch side (SwitchCongestionSetting): Threshold, Marking_Rate, Packet_Size; CA side
// (CACongestionSetting, one entry per SL; here one for the data SL): CCTI_Increase, CCTI_Limit,
// CCTI_Min, CCTI_Timer, and the CongestionControlTable (CCT). Each parameter is one field here,
// with its default as the initialiser, and one row in cc_rows() below. docs/congestion.md.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"
#include "golden/ib_cc_table.h"

namespace ndr::cfg {

/// InfiniBand congestion control (IBTA Annex A10), fabric.technology = ib.
struct cc_config {
    bool enabled = false;              ///< OpenSM congestion_control FALSE
    uint32_t threshold = 8;            ///< 0 none, 1 loose .. 15 aggressive (*soft*)
    uint32_t marking_rate = 1;         ///< eligible packets skipped between two marks (*soft*)
    uint32_t packet_size = 0;          ///< smallest packet marked, 64 B credits (*soft*)
    uint32_t ccti_increase = 1;        ///< CCTI added per BECN (*soft*)
    uint32_t ccti_limit = 127;         ///< largest CCTI: the default table's last index
    uint32_t ccti_min = 0;             ///< smallest CCTI (no delay at the default 0)
    time_ps_t ccti_timer{4'096'000};   ///< CCTI drops by one every period (*soft*: 4 x 1.024 us)
    time_ps_t ird_unit{10'000};        ///< one CCT multiplier step of delay (*soft*: 10 ns)
    std::string cct = "";              ///< `shift:multiplier,...`; empty: linear 0:0 .. 0:127
    std::string victim_mask = "none";  ///< ports marking as victims: none|ca|all (OpenSM: none)
};

namespace detail {

inline std::string cct_syntax(const std::string& t) {
    return golden::cct_check(t);
}

/// The rows of the `cc` section; `s` is a section_keys<cc_config> (config/keys/key_builders.h).
template <class Rows>
void cc_rows(Rows& s) {
    s.bool_key("cc.enabled", &cc_config::enabled,
               "ib: congestion control (IBTA Annex A10): switches mark FECN, the destination "
               "returns a BECN in a CNP, the source QP delays its packets by CCT[CCTI] (OpenSM "
               "congestion_control, default FALSE); docs/congestion.md");
    s.uint_key("cc.threshold", &cc_config::threshold, 0, 15,
               "ib switch Threshold: 0 marks nothing, 1 (loose) .. 15 (aggressive); an output VL "
               "is congested when more than (16 - T)/16 x switch.buffer_per_vl is queued for it "
               "(the mapping is the model's, A10 leaves it to the implementation; soft: 8)");
    s.uint_key("cc.marking_rate", &cc_config::marking_rate, 0, 65535,
               "ib switch Marking_Rate: eligible packets left unmarked between two marked ones "
               "(0: every eligible packet; soft: 1, every other one)");
    s.uint_key("cc.packet_size", &cc_config::packet_size, 0, 255,
               "ib switch Packet_Size: packets smaller than this many 64 B credits are not "
               "marked (OpenSM units: credits; soft: 0, every data packet)");
    s.uint_key("cc.ccti_increase", &cc_config::ccti_increase, 0, 255,
               "ib HCA CCTI_Increase: added to the QP's CCT index per BECN (soft: 1)");
    s.uint_key("cc.ccti_limit", &cc_config::ccti_limit, 0, 16383,
               "ib HCA CCTI_Limit: the largest CCT index; < the table's entries (OpenSM sets it "
               "to the table's last index: 127 for the default table)");
    s.uint_key("cc.ccti_min", &cc_config::ccti_min, 0, 255,
               "ib HCA CCTI_Min: the index never drops below it, a minimum delay (soft: 0)");
    s.unit_key("cc.ccti_timer", &cc_config::ccti_timer, "> 0", positive,
               "ib HCA CCTI_Timer: every period the CCT index drops by one, down to ccti_min "
               "(A10 counts it in 1.024 us units; soft: 4 units, so that a BECN every "
               "(marking_rate + 1) x N MTU packets holds an N <= 24-way incast; "
               "docs/congestion.md)");
    s.unit_key("cc.ird_unit", &cc_config::ird_unit, "any", nullptr,
               "ib: the injection-rate delay of CCT entry shift:multiplier is multiplier x "
               "2^shift x ird_unit (soft: 10 ns)");
    s.text_key("cc.cct", &cc_config::cct, "shift:multiplier,...", cct_syntax,
               "ib HCA CongestionControlTable: comma-separated shift:multiplier entries (OpenSM "
               "cc_cct syntax; shift 0..3, multiplier 0..16383); empty = the linear table 0:i "
               "for i = 0..127");
    s.choice_key("cc.victim_mask", &cc_config::victim_mask, {"none", "ca", "all"},
                 "ib switch Victim_Mask: the ports that mark FECN even when they are victims "
                 "of congestion (link idle, waiting for credits), not roots: none (OpenSM's "
                 "default, an empty mask), ca = the ports facing an HCA, all; "
                 "docs/congestion.md");
}

}  // namespace detail
}  // namespace ndr::cfg
