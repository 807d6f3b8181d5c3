// Validation of a complete (merged) configuration: every key's range, then the rules that tie
// fields together (buffers hold one MTU packet, hot_port < ports, SL2VL and VL-arbitration
// tables against `switch.vls`, ...).
#pragma once
#include <cstdint>

#include "config/sim_config.h"

namespace ndr::cfg {

/// Header and trailer allowance of an IB packet: at most 126 B of LRH, GRH, BTH, extended
/// headers, ICRC and VCRC (docs/domain.md §1.1).
inline constexpr uint64_t MAX_PACKET_OVERHEAD_BYTES = 126;

/// Bytes of buffer one MTU-sized packet occupies: mtu + 126 B, rounded up to 64-byte credit
/// blocks (4224 B = 66 blocks at MTU 4096).
uint64_t mtu_packet_buffer_bytes(uint64_t mtu_bytes);

/// Throws `config_error` (merged source: `KEY: REASON`) naming the first invalid field.
void validate(const config& c);

}  // namespace ndr::cfg
