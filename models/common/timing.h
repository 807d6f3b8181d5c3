// Everything the cycle and TLM models need from the config, converted once to integer cycles and
// 64-byte blocks; both levels use this one derivation, so they round every latency identically.
// One cycle = one datapath beat: datapath_width / link rate (64 B at 400 Gb/s = 1.28 ns, i.e.
// 781.25 MHz). Latencies round UP to whole cycles (a 300 ns switch latency is 235 cycles =
// 300.8 ns); docs/architecture.md lists every rounding.
#pragma once
#include <cstdint>

#include "config/sim_config.h"

namespace ndr::common {

struct timing {
    uint64_t cycle_ps = 0;                ///< one beat
    uint32_t block_bytes = 64;            ///< credit block and beat size
    uint32_t link_cycles = 0;             ///< FEC + cable: first beat sent -> first beat received
    uint32_t switch_cycles = 0;           ///< header in -> header out at zero load (>= 2)
    uint32_t fc_cycles = 0;               ///< buffer freed -> FCCL known at the sender
    uint32_t refresh_cycles = 0;          ///< forced FC refresh period
    uint32_t fc_min_interval_cycles = 0;  ///< at most one FC packet per (port, VL) per this
    uint32_t rx_proc_cycles = 0;          ///< endpoint tail arrival -> credits freed
    uint32_t buffer_blocks = 0;           ///< switch input buffer per port per VL
    /// switch.buffer_model = shared (IB only): blocks per port shared by its data VLs (vls x
    /// buffer_blocks), each VL reserving sw_reserved_blocks; 0 = static per-VL buffers.
    uint32_t sw_pool_blocks = 0;
    uint32_t sw_reserved_blocks = 0;
    /// The credits a switch input advertises per VL at link-up (what its partner's connect
    /// gets): the reservation when shared, the whole per-VL buffer when static.
    uint32_t sw_credit_blocks = 0;
    /// The most one VL of a switch input may hold (the others idle): the pool's fixed point
    /// (golden::vl_buffer_pool::one_vl_capacity) when shared, buffer_blocks when static.
    uint32_t sw_vl_max_blocks = 0;
    /// switch.latency_split: header in -> eligible for the crossbar (ingress pipeline, holding
    /// input-buffer blocks) and crossbar -> wire (egress pipeline); ingress + egress + 1 =
    /// switch_cycles (the allocation cycle).
    uint32_t ingress_cycles = 0;
    uint32_t egress_cycles = 0;
    uint32_t ep_buffer_blocks = 0;  ///< endpoint receive buffer per VL
    uint32_t outbuf_beats = 0;      ///< switch egress staging per output, in beats
    double speedup = 1.0;
};

/// ceil(ps / cycle_ps), at least `min_cycles`.
uint32_t ps_to_cycles(uint64_t ps, uint64_t cycle_ps, uint32_t min_cycles = 0);

timing derive_timing(const cfg::config& c);

}  // namespace ndr::common
