// Cross-checks of related keys: settings that are valid one by one but together make a run
// behave badly (a send window that cannot cover its ACK round trip, an ACK timeout that queueing
// can exceed without any loss). They do not stop a run: each is one warning line naming the key
// and the reason (docs/configuration.md "Cross-checks").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/sim_config.h"

namespace ndr::cfg {

/// The zero-load ACK round trip of an RC stream on the longest host-to-host path the configured
/// fabric can have (single_switch: 1 switch, 2 links; fat_tree: 2 x levels - 1 switches,
/// 2 x levels links), estimated from the config alone: the oldest packet's first bit leaves,
/// `packets_per_ack` MTU packets follow it at link rate until the responder acknowledges
/// (hca.ack_coalesce, or the whole window when hca.max_outstanding is smaller: its last packet
/// asks for the ACK), the ACK comes back.
struct rc_round_trip {
    uint32_t switches = 0;
    uint32_t links = 0;
    double path_ns = 0;    ///< one way, first bit to first bit: links, switches (+ SAF)
    double packet_ns = 0;  ///< one MTU data packet on the wire (whole datapath beats)
    double ack_ns = 0;     ///< one ACK on the wire
    uint32_t packets_per_ack = 0;
    double ns() const { return 2.0 * path_ns + packets_per_ack * packet_ns + ack_ns; }
};
rc_round_trip rc_round_trip_of(const config& c);

/// hca.ack_timeout below this many zero-load round trips draws a warning: under load, ACKs
/// queue behind data, and without any loss the shipped traces at the defaults wait up to 13x
/// (sharp_compare_single) and 45x (sharp_compare_fat_tree, 32 ranks on one switch) the
/// zero-load round trip for an ACK (docs/configuration.md "Cross-checks").
inline constexpr double ACK_TIMEOUT_ROUND_TRIPS = 64.0;

/// The warnings for `c`, one line each, `KEY: REASON` (empty: nothing to say).
std::vector<std::string> cross_check(const config& c);

}  // namespace ndr::cfg
