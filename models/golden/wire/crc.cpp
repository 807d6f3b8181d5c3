#include "golden/wire/crc.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "golden/wire/bth.h"
#include "golden/wire/grh.h"
#include "golden/wire/ib_field.h"
#include "golden/wire/lrh.h"

namespace ndr::golden {
namespace {

constexpr uint32_t CRC32_POLY_REFLECTED = 0xEDB88320u;  // 0x04C11DB7 bit-reversed
constexpr uint16_t CRC16_POLY_REFLECTED = 0xD008u;      // 0x100B bit-reversed

constexpr std::array<uint32_t, 256> make_crc32_table() {
    std::array<uint32_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
        uint32_t c = n;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1u) != 0 ? (c >> 1) ^ CRC32_POLY_REFLECTED : c >> 1;
        }
        t[n] = c;
    }
    return t;
}

constexpr std::array<uint16_t, 256> make_crc16_table() {
    std::array<uint16_t, 256> t{};
    for (uint32_t n = 0; n < 256; ++n) {
        uint32_t c = n;
        for (int k = 0; k < 8; ++k) {
            c = (c & 1u) != 0 ? (c >> 1) ^ CRC16_POLY_REFLECTED : c >> 1;
        }
        t[n] = static_cast<uint16_t>(c);
    }
    return t;
}

constexpr std::array<uint32_t, 256> CRC32_TABLE = make_crc32_table();
constexpr std::array<uint16_t, 256> CRC16_TABLE = make_crc16_table();

// Raw register update (no seed, no final XOR).
uint32_t crc32_update(uint32_t reg, const uint8_t* data, size_t len) {
    for (size_t i = 0; i < len; ++i) {
        reg = CRC32_TABLE[(reg ^ data[i]) & 0xFFu] ^ (reg >> 8);
    }
    return reg;
}

uint16_t crc16_update(uint16_t reg, const uint8_t* data, size_t len) {
    for (size_t i = 0; i < len; ++i) {
        reg = static_cast<uint16_t>(CRC16_TABLE[(reg ^ data[i]) & 0xFFu] ^ (reg >> 8));
    }
    return reg;
}

}  // namespace

uint32_t crc32_ieee(const uint8_t* data, size_t len) {
    return ~crc32_update(0xFFFFFFFFu, data, len);
}

uint16_t crc16_ib(const uint8_t* data, size_t len) {
    return static_cast<uint16_t>(~crc16_update(0xFFFFu, data, len));
}

uint32_t icrc(const uint8_t* pkt, size_t len_without_crcs) {
    if (len_without_crcs < lrh::SIZE) {
        throw std::invalid_argument("icrc: packet of " + std::to_string(len_without_crcs) +
                                    " bytes is shorter than an LRH");
    }
    const uint8_t lnh = pkt[1] & 0x03;
    if (lnh != LNH_IBA_LOCAL && lnh != LNH_IBA_GLOBAL) {
        throw std::invalid_argument("icrc: lrh.lnh = " + std::to_string(lnh) +
                                    " is a raw packet, which has no ICRC");
    }
    const bool global = lnh == LNH_IBA_GLOBAL;
    const size_t hdr = lrh::SIZE + (global ? grh::SIZE : 0) + bth::SIZE;
    if (len_without_crcs < hdr) {
        throw std::invalid_argument("icrc: packet of " + std::to_string(len_without_crcs) +
                                    " bytes is shorter than its LRH/GRH/BTH (" +
                                    std::to_string(hdr) + " bytes)");
    }
    // Masked copy of the variant-bearing headers (at most 60 bytes, on the stack).
    std::array<uint8_t, lrh::SIZE + grh::SIZE + bth::SIZE> m{};
    std::copy(pkt, pkt + hdr, m.begin());
    if (global) {
        std::fill(m.begin(), m.begin() + lrh::SIZE, uint8_t{0xFF});  // whole LRH
        uint8_t* g = m.data() + lrh::SIZE;
        g[0] |= 0x0F;  // TClass[7:4]
        g[1] = 0xFF;   // TClass[3:0], FlowLabel[19:16]
        g[2] = 0xFF;   // FlowLabel[15:8]
        g[3] = 0xFF;   // FlowLabel[7:0]
        g[7] = 0xFF;   // HopLmt
    } else {
        m[0] |= 0xF0;  // LRH.VL
    }
    m[hdr - bth::SIZE + 4] = 0xFF;  // BTH FECN, BECN, reserved 6 (Resv8a)
    uint32_t reg = crc32_update(0xFFFFFFFFu, m.data(), hdr);
    reg = crc32_update(reg, pkt + hdr, len_without_crcs - hdr);
    return ~reg;
}

uint16_t vcrc(const uint8_t* pkt, size_t len_through_icrc) {
    return crc16_ib(pkt, len_through_icrc);
}

void put_icrc(uint8_t* out, uint32_t crc) {
    detail::put_le(out, crc, ICRC_SIZE);
}
void put_vcrc(uint8_t* out, uint16_t crc) {
    detail::put_le(out, crc, VCRC_SIZE);
}
uint32_t get_icrc(const uint8_t* in) {
    return static_cast<uint32_t>(detail::get_le(in, 4));
}
uint16_t get_vcrc(const uint8_t* in) {
    return static_cast<uint16_t>(detail::get_le(in, 2));
}

}  // namespace ndr::golden
