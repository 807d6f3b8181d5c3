// Immediate Data extended header (ImmDt), 4 bytes, big-endian (docs/domain.md §1.5). SystemC-free.
// Carried by the "with immediate" SEND and RDMA WRITE opcodes.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ndr::golden {

struct immdt {
    static constexpr size_t SIZE = 4;  ///< bytes on the wire

    uint32_t data = 0;  ///< 32 bits: immediate data, opaque to the fabric

    /// All fields use their full type width; kept for a uniform header API.
    void validate() const {}
    void encode(uint8_t* out) const;
    static immdt decode(const uint8_t* in);

    bool operator==(const immdt& o) const { return data == o.data; }
    bool operator!=(const immdt& o) const { return !(*this == o); }
};

}  // namespace ndr::golden
