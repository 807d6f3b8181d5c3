// ACK Extended Transport Header (AETH), 4 bytes, big-endian (docs/domain.md §1.5). SystemC-free.
//   byte 0: Syndrome   byte 1-3: MSN
// Carried by ACK/NAK packets and RDMA READ responses (first, last, only).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

/// AETH NAK syndromes (docs/domain.md §1.5, Linux include/rdma/ib_hdrs.h).
inline constexpr uint8_t AETH_NAK_RNR = 0x20;              ///< receiver not ready (+ timer)
inline constexpr uint8_t AETH_NAK_PSN_SEQ_ERROR = 0x60;    ///< PSN sequence error
inline constexpr uint8_t AETH_NAK_INVALID_REQUEST = 0x61;  ///< invalid request
inline constexpr uint8_t AETH_NAK_REMOTE_ACCESS = 0x62;    ///< remote access error
inline constexpr uint8_t AETH_NAK_REMOTE_OP = 0x63;        ///< remote operational error

struct aeth {
    static constexpr size_t SIZE = 4;  ///< bytes on the wire

    uint8_t syndrome = 0;  ///< 8 bits: ACK/RNR/NAK code and credit count or timer
    uint32_t msn = 0;      ///< 24 bits: message sequence number

    /// Throws std::invalid_argument naming the first field that exceeds its bit width.
    void validate() const;
    void encode(uint8_t* out) const;
    static aeth decode(const uint8_t* in);

    bool operator==(const aeth& o) const;
    bool operator!=(const aeth& o) const { return !(*this == o); }
};

}  // namespace ndr::golden
