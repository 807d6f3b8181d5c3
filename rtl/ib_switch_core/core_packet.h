// A packet as the harness of rtl/ib_switch_core sends it: identity fields (those the TLM
// scoreboard compares, tlm/scoreboard.h) and the payload words of its beats. One beat = one
// 64-byte block; the core carries 64 payload bits per beat (DataW = 64), filled as
//   beat 0: the packet id;
//   beat 1: flow_seq | src << 32 | dst << 36 | sl << 40 | vl << 44 | wire_bytes << 48;
//   beat k >= 2: a hash of (id, k).
// So the delivered beats alone identify the packet, and any corrupted beat is seen.
#pragma once
#include <cstdint>

namespace ndr::verify {

struct core_packet {
    uint64_t id = 0;
    uint64_t created = 0;   ///< cycle the source created it
    uint32_t flow_seq = 0;  ///< sequence within (src, dst, SL)
    uint16_t wire_bytes = 64;
    uint16_t blocks = 1;  ///< 64-byte blocks = beats
    uint8_t src = 0;      ///< input port
    uint8_t dst = 0;      ///< output port
    uint8_t sl = 0;
    uint8_t vl = 0;
};

/// Payload word of beat k (layout above).
inline uint64_t payload_word(const core_packet& p, unsigned k) {
    if (k == 0) return p.id;
    if (k == 1) {
        return uint64_t{p.flow_seq} | (uint64_t{p.src} & 0xFU) << 32 |
               (uint64_t{p.dst} & 0xFU) << 36 | (uint64_t{p.sl} & 0xFU) << 40 |
               (uint64_t{p.vl} & 0xFU) << 44 | uint64_t{p.wire_bytes} << 48;
    }
    uint64_t z = p.id * 0x9E3779B97F4A7C15ULL + k;  // splitmix64 finaliser
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/// Fields decoded from beat 1 (for packets of >= 2 beats).
inline core_packet decode_word1(core_packet p, uint64_t w) {
    p.flow_seq = static_cast<uint32_t>(w);
    p.src = static_cast<uint8_t>((w >> 32) & 0xFU);
    p.dst = static_cast<uint8_t>((w >> 36) & 0xFU);
    p.sl = static_cast<uint8_t>((w >> 40) & 0xFU);
    p.vl = static_cast<uint8_t>((w >> 44) & 0xFU);
    p.wire_bytes = static_cast<uint16_t>(w >> 48);
    return p;
}

}  // namespace ndr::verify
