// IB packet CRCs (docs/domain.md §1.6), SystemC-free, table-driven.
//
// ICRC (32 bit): Ethernet CRC-32 (poly 0x04C11DB7, processed LSB-first with the reflected
// constant 0xEDB88320, register seeded 0xFFFFFFFF, result XORed with 0xFFFFFFFF), computed
// from the first LRH byte up to, not including, the ICRC, with the variant fields taken as
// all ones (docs/domain.md §1.6; MindShare "InfiniBand Network Architecture" §25 "Packet CRCs"):
//   local packet (LRH.LNH = 2):  LRH.VL (byte 0 bits 7:4) and BTH byte 4 (FECN, BECN and
//                                the 6 reserved bits, the former Resv8a).
//   global packet (LRH.LNH = 3): all 8 LRH bytes (routers rewrite DLID/SLID/SL/VL), GRH
//                                TClass and FlowLabel (bytes 0-3 except IPVer, byte 0 bits
//                                7:4), GRH.HopLmt (byte 7), and BTH byte 4.
//   MindShare lists for global packets only IPVer, PayLen, NxtHdr, SGID, DGID of the GRH
//   plus BTH/ETHs/payload as covered, i.e. no LRH bit is covered. Linux soft-RoCE
//   (drivers/infiniband/sw/rxe/rxe_icrc.c) does the same: it seeds the CRC with 0xDEBB20E3,
//   the register after 8 bytes of 0xFF standing in for the LRH, masks the IPv6 traffic
//   class, flow label and hop limit, and ORs BTH byte 4 with 0xFF. docs/domain.md §1.6 tags the
//   GRH TClass/FlowLabel masking [U]; the rxe code is the implementation evidence for it.
//   Pad bytes are covered (they lie before the ICRC); the VCRC is not.
// ICRC wire byte order: the 32-bit CRC value is stored least-significant byte first (like the
// Ethernet FCS). rxe_icrc.c writes the host-order u32 `~crc` through a __be32 pointer with a
// __force cast (no swap, so LSB first on the little-endian hosts it interoperates on); scapy
// contrib/roce.py packs the ICRC as struct.pack("!I", crc)[::-1]; and a RoCEv2 CNP captured on
// a ConnectX-4 Lx (scapy test/contrib/roce.uts) carries ICRC bytes 82 fd 00 2a for CRC value
// 0x2A00FD82 (checked in tests/golden/crc_test.cpp).
//
// VCRC (16 bit): poly 0x100B (x^16+x^12+x^3+x+1), processed LSB-first (reflected constant
// 0xD008), seeded 0xFFFF, result inverted (docs/domain.md §1.6, Endace dagcrc.c
// dagcrc_infiniband_vcrc16_r), computed over every byte from the first LRH byte through the
// ICRC. Wire byte order [U]: least-significant byte first, the rule for any CRC computed
// LSB-first (Linux lib/crc32defs.h: "use cpu_to_le32() to append") and the order confirmed
// for the ICRC; no public capture was found that settles it for the VCRC.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

inline constexpr size_t ICRC_SIZE = 4;  ///< bytes
inline constexpr size_t VCRC_SIZE = 2;  ///< bytes

/// Plain Ethernet CRC-32 (CRC-32/ISO-HDLC) of `len` bytes; crc32_ieee("123456789") = 0xCBF43926.
uint32_t crc32_ieee(const uint8_t* data, size_t len);

/// IB CRC-16 as used for the VCRC (and, [U], the FC packet LPCRC) over `len` bytes.
uint16_t crc16_ib(const uint8_t* data, size_t len);

/// ICRC of an IBA packet: `pkt` starts at the first LRH byte, `len_without_crcs` counts the
/// bytes up to (not including) the ICRC. Masking per LRH.LNH, see the file comment. Throws
/// std::invalid_argument for a raw packet (LNH 0 or 1, which carry no ICRC) or when
/// `len_without_crcs` is shorter than LRH [+GRH] + BTH.
uint32_t icrc(const uint8_t* pkt, size_t len_without_crcs);

/// VCRC over the first `len_through_icrc` bytes of `pkt` (first LRH byte through the ICRC).
uint16_t vcrc(const uint8_t* pkt, size_t len_through_icrc);

/// Stores `crc` at `out` in wire order (LSB first, see the file comment).
void put_icrc(uint8_t* out, uint32_t crc);
void put_vcrc(uint8_t* out, uint16_t crc);
/// Reads a CRC stored in wire order.
uint32_t get_icrc(const uint8_t* in);
uint16_t get_vcrc(const uint8_t* in);

}  // namespace ndr::golden
