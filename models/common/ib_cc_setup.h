// InfiniBand congestion control (cc.*, docs/congestion.md) resolved from the configuration for
// the switch and HCA models of both levels: the marking rule of a switch and the CCT rule of
// an HCA (golden/ib_cc_marker.h, golden/ib_cc_ccti.h). SystemC-free.
#pragma once
#include <cstddef>
#include <cstdint>

#include "config/sim_config.h"
#include "golden/ib_cc_ccti.h"
#include "golden/ib_cc_marker.h"

namespace ndr::common {

/// Whether the run applies congestion control: cc.enabled on an InfiniBand fabric.
bool cc_active(const cfg::config& c);
/// The marking rule of one switch with `queues` output VLs (ports x VLs).
golden::cc_marker cc_switch_marker(const cfg::config& c, std::size_t queues);
/// cc.victim_mask: whether a switch port whose peer is an HCA (`to_ca`) has its Victim_Mask
/// bit set.
bool cc_victim_mask(const cfg::config& c, bool to_ca);
/// The CA parameters: CCTI rule and the table's delays.
golden::cc_ca_params cc_ca(const cfg::config& c);

}  // namespace ndr::common
