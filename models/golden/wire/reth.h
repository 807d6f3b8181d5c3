// RDMA Extended Transport Header (RETH), 16 bytes, big-endian (docs/domain.md §1.5). SystemC-free.
//   byte 0-7: VA   byte 8-11: R_Key   byte 12-15: DMA length
// Carried by the first/only packet of an RDMA WRITE and by RDMA READ requests.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

struct reth {
    static constexpr size_t SIZE = 16;  ///< bytes on the wire

    uint64_t va = 0;       ///< 64 bits: remote virtual address
    uint32_t rkey = 0;     ///< 32 bits: remote key
    uint32_t dma_len = 0;  ///< 32 bits: DMA length in bytes (whole message)

    /// All fields use their full type width; kept for a uniform header API.
    void validate() const {}
    void encode(uint8_t* out) const;
    static reth decode(const uint8_t* in);

    bool operator==(const reth& o) const;
    bool operator!=(const reth& o) const { return !(*this == o); }
};

}  // namespace ndr::golden
