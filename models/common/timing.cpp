#include "common/timing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "config/config_error.h"
#include "golden/credit_fc.h"
#include "golden/vl_buffer_pool.h"

namespace ndr::common {

uint32_t ps_to_cycles(uint64_t ps, uint64_t cycle_ps, uint32_t min_cycles) {
    const uint64_t c = (ps + cycle_ps - 1) / cycle_ps;
    return static_cast<uint32_t>(std::max<uint64_t>(c, min_cycles));
}

timing derive_timing(const cfg::config& c) {
    timing t;
    const uint64_t width = c.sw.datapath_width.count;
    // cycle = width*8 bits / rate; in ps, rounded to nearest.
    const long double ps =
        static_cast<long double>(width) * 8.0L * 1e12L / static_cast<long double>(c.link.rate.bps);
    t.cycle_ps = static_cast<uint64_t>(ps + 0.5L);
    if (t.cycle_ps == 0) {
        // Bad input, named like every config error (exit 2): both keys and the bound.
        throw cfg::config_error(
            cfg::config_source::merged(), "link.rate",
            fmt::format("too high for switch.datapath_width {} B: one beat would take under 0.5 ps "
                        "(at most {} bits per second with this width)",
                        width, static_cast<uint64_t>(static_cast<long double>(width) * 16e12L)));
    }
    t.block_bytes = static_cast<uint32_t>(width);
    const uint64_t cable_ps = c.link.cable_length.mm * c.link.propagation_per_m.ps / 1000;
    t.link_cycles = ps_to_cycles(c.link.fec_latency.ps + cable_ps, t.cycle_ps, 1);
    t.switch_cycles = ps_to_cycles(c.sw.latency.ps, t.cycle_ps, 2);
    t.fc_cycles = ps_to_cycles(c.link.fc_processing.ps, t.cycle_ps, 0) + t.link_cycles;
    t.refresh_cycles = ps_to_cycles(c.link.fc_refresh_period.ps, t.cycle_ps, 1);
    t.fc_min_interval_cycles = ps_to_cycles(c.link.fc_min_interval.ps, t.cycle_ps, 0);
    t.rx_proc_cycles = ps_to_cycles(c.endpoint.rx_processing.ps, t.cycle_ps, 0);
    const auto blocks = [&](uint64_t bytes) {
        return static_cast<uint32_t>(bytes / golden::CREDIT_BLOCK_BYTES);
    };
    t.buffer_blocks = blocks(c.sw.buffer_per_vl.count);
    t.ep_buffer_blocks = blocks(c.endpoint.rx_buffer_per_vl.count);
    if (c.sw.buffer_model == "shared" && c.fabric.technology != "roce") {
        t.sw_pool_blocks = c.sw.vls * t.buffer_blocks;
        // A reservation of a VL's whole share (or more) leaves no pool: the static buffer.
        t.sw_reserved_blocks = std::min(blocks(c.sw.vl_reserved.count), t.buffer_blocks);
        t.sw_credit_blocks = t.sw_reserved_blocks;
        t.sw_vl_max_blocks = golden::vl_buffer_pool{t.sw_pool_blocks, t.sw_reserved_blocks,
                                                    c.sw.pool_alpha, t.buffer_blocks}
                                 .one_vl_capacity(c.sw.vls);
    } else {
        t.sw_credit_blocks = t.buffer_blocks;
        t.sw_vl_max_blocks = t.buffer_blocks;
    }
    const uint32_t pipe = t.switch_cycles - 1U;  // >= 1
    t.egress_cycles =
        static_cast<uint32_t>(std::lround((1.0 - c.sw.latency_split) * static_cast<double>(pipe)));
    t.egress_cycles = std::min(t.egress_cycles, pipe - 1U);  // the ingress keeps >= 1 cycle
    t.ingress_cycles = pipe - t.egress_cycles;
    t.outbuf_beats = static_cast<uint32_t>(c.sw.output_buffer.count / width);
    t.speedup = c.sw.speedup;
    return t;
}

}  // namespace ndr::common
