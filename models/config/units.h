// Unit-bearing value types for configuration. Values are integers in the base unit, so a
// config never holds a bare number whose unit the reader must guess.
#pragma once
#include <cstdint>

namespace ndr::cfg {

/// A size in bytes. Written in config as `64B`, `32KiB`, `1MiB`, `4096` (bytes), `2KB` (=2000).
struct bytes_t {
    uint64_t count = 0;
};
/// A duration in picoseconds. Written as `300ns`, `4.096us`, `1.28ns`, `5ps`, `2ms`, `1s`.
struct time_ps_t {
    uint64_t ps = 0;
};
/// A data rate in bits per second. Written as `400Gbps`, `200Gbps`, `100Mbps`, `50GBps` (bytes).
struct rate_bps_t {
    uint64_t bps = 0;
};
/// A length in millimetres. Written as `3m`, `250cm`, `30m`.
struct length_mm_t {
    uint64_t mm = 0;
};

}  // namespace ndr::cfg
