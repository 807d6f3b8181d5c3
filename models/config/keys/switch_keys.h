// The `switch` section: the switch ASIC; the C++ member is `sw`.
// Each parameter is one field here, with its default as the initialiser, and one row in
// switch_rows() below (key, range, help with its source), in the order `ndrsim config keys` lists
// them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// The switch ASIC.
struct switch_config {
    uint32_t ports = 64;                  ///< radix, 2..64
    uint32_t vls = 2;                     ///< data VLs (VL0..vls-1), 1..15; VL15 extra (§3)
    bytes_t buffer_per_vl{32 * 1024};     ///< input buffer per port per data VL (§13)
    std::string buffer_model = "shared";  ///< `shared` (reserved per VL + port pool) | `static`
    bytes_t vl_reserved{8 * 1024};        ///< shared: blocks each VL can always claim
    double pool_alpha = 8.0;              ///< shared: dynamic threshold of a VL's pool share
    time_ps_t latency{300'000};           ///< port-to-port, header in -> header out, zero load
    double latency_split = 1.0;           ///< share of `latency` before the crossbar (0..1)
    bool cut_through = true;              ///< false = store-and-forward
    std::string queueing = "voq";         ///< `voq` | `fifo`
    std::string allocator = "islip";      ///< `islip` | `rr`
    uint32_t islip_iterations = 2;        ///< 1..8
    double speedup = 1.25;                ///< crossbar speed-up over link rate, 1.0..4.0
    uint32_t xbar_priority_blocks = 1;    ///< packets of <= this many blocks interleave, 0..64
    bytes_t output_buffer{8 * 1024};      ///< egress staging per output port, >= 1 MTU packet
    bytes_t datapath_width{64};           ///< bytes per core-clock beat; cycle = width / rate
    bytes_t mtu{4096};                    ///< payload MTU: 256/512/1024/2048/4096
    std::string vl_arb_high = "";         ///< high table "vl:weight,..." (weights 64 B units)
    std::string vl_arb_low = "";          ///< low table; empty = every data VL weight 64
    uint32_t vl_arb_limit_of_high = 0;    ///< LimitOfHighPriority, 0..255
    std::string sl2vl = "";               ///< 16 comma-separated VLs; empty = SL mod vls
    std::string sl2vl_ports = "";         ///< per (in, out) port overrides of sl2vl (§3)
};

namespace detail {

/// The rows of the `switch` section; `s` is a section_keys<switch_config>
/// (config/keys/key_builders.h).
template <class Rows>
void switch_rows(Rows& s) {
    s.uint_key("switch.ports", &switch_config::ports, 2, 64,
               "switch radix (ports simulated); docs/domain.md §13 'Ports / aggregate' (Quantum-2: "
               "64 x 400G)");
    s.uint_key("switch.vls", &switch_config::vls, 1, 15,
               "data VLs VL0..vls-1 (VL15 comes on top); docs/domain.md §13 'Data VLs' (2: bulk + "
               "SHARP, §3)");
    s.unit_key("switch.buffer_per_vl", &switch_config::buffer_per_vl, CREDIT_RANGE, credit_buffer,
               "input buffer per port per data VL; docs/domain.md §13 'Input buffer per port per "
               "VL' (32 KiB = 512 blocks)");
    s.choice_key("switch.buffer_model", &switch_config::buffer_model, {"shared", "static"},
                 "input buffer organisation per port: static = switch.buffer_per_vl per data VL, "
                 "shared = the same vls x buffer_per_vl blocks as switch.vl_reserved per VL plus "
                 "a pool any busy VL may claim (IB credits stay per VL; RoCE is always static); "
                 "docs/domain.md §13 'Input buffer organisation' (soft)");
    s.unit_key("switch.vl_reserved", &switch_config::vl_reserved, CREDIT_RANGE, credit_buffer,
               "shared buffer: blocks each data VL can always claim (its initial credits); at or "
               "above switch.buffer_per_vl no pool is left (= static); docs/domain.md §13 'Input "
               "buffer organisation' (8 KiB = two "
               "MTU packets, soft)");
    s.real_key("switch.pool_alpha", &switch_config::pool_alpha,
               real_bounds{0.0, false, 64.0, true, "0 < x <= 64"},
               "shared buffer: a busy VL may hold pool blocks up to alpha x the pool blocks "
               "still unclaimed (dynamic threshold, Choudhury & Hahne 1998): one busy VL gets "
               "alpha / (1 + alpha) of the pool; docs/domain.md §13 'Input buffer organisation' "
               "(8, soft)");
    s.unit_key("switch.latency", &switch_config::latency, "any", nullptr,
               "port-to-port latency, header in to header out, zero load, no FEC/cable; "
               "docs/domain.md §13 'Switch port-to-port latency' (300 ns; sweep 130-400 ns)");
    s.real_key("switch.latency_split", &switch_config::latency_split,
               real_bounds{0.0, true, 1.0, true, "0 <= x <= 1"},
               "share of switch.latency spent before the crossbar, holding input-buffer blocks "
               "(ingress pipeline); the rest is an egress pipeline after it; docs/domain.md §13 "
               "'Switch port-to-port latency' (1.0: all ingress, soft)");
    s.bool_key("switch.cut_through", &switch_config::cut_through,
               "true = cut-through, false = store-and-forward; docs/domain.md §13 'Switch "
               "port-to-port latency' (cut-through)");
    s.choice_key("switch.queueing", &switch_config::queueing, {"voq", "fifo"},
                 "input queues: voq = one virtual output queue per output and VL, fifo = one FIFO "
                 "per VL (head-of-line blocking, docs/domain.md §4); model choice");
    s.choice_key(
        "switch.allocator", &switch_config::allocator, {"islip", "rr"},
        "crossbar allocator: islip = iterative SLIP, rr = round-robin per output; model choice");
    s.uint_key("switch.islip_iterations", &switch_config::islip_iterations, 1, 8,
               "iSLIP request-grant-accept iterations per cycle; model choice");
    s.real_key(
        "switch.speedup", &switch_config::speedup,
        real_bounds{1.0, true, 4.0, true, "1.0 <= x <= 4.0"},
        "crossbar speed-up over the link rate; docs/domain.md §13 'Crossbar speed-up' (1.25x)");
    s.uint_key("switch.xbar_priority_blocks", &switch_config::xbar_priority_blocks, 0, 64,
               "packets of at most this many 64 B blocks (ACK, NAK, CNP, READ request: 1) cross "
               "the crossbar first, in cell slots interleaved with the transfers their input and "
               "output carry, instead of waiting for both to be free (voq only); 0 = every packet "
               "waits; model choice (cell crossbars interleave, docs/architecture.md 'The switch "
               "pipeline' step 5)");
    s.unit_key("switch.output_buffer", &switch_config::output_buffer, ">= 1 MTU packet", nullptr,
               "egress staging buffer per output port; model choice (two 4 KiB-MTU packets)");
    s.unit_key("switch.datapath_width", &switch_config::datapath_width, "16B|32B|64B|128B|256B",
               one_of({16, 32, 64, 128, 256}, "B"),
               "bytes per core-clock beat; cycle = width / link rate (64 B at 400 Gb/s = 1.28 ns); "
               "docs/domain.md §13 'Core clock x datapath'",
               true);
    s.unit_key("switch.mtu", &switch_config::mtu, "256B|512B|1024B|2048B|4096B",
               one_of({256, 512, 1024, 2048, 4096}, "B"),
               "payload MTU; docs/domain.md §13 'MTU / largest packet' (4096 B, §1)", true);
    s.text_key("switch.vl_arb_high", &switch_config::vl_arb_high,
               "'vl:weight,...', vl < vls, weight 0..255", nullptr,
               "high-priority VL arbitration table (weights in 64 B units); empty = no high table; "
               "docs/domain.md §13 'VL arbitration' (low table only, §3)");
    s.text_key("switch.vl_arb_low", &switch_config::vl_arb_low,
               "'vl:weight,...', vl < vls, weight 0..255", nullptr,
               "low-priority VL arbitration table (weights in 64 B units); empty = weight 64 for "
               "every data VL; docs/domain.md §13 'VL arbitration' (§3)");
    s.uint_key("switch.vl_arb_limit_of_high", &switch_config::vl_arb_limit_of_high, 0, 255,
               "LimitOfHighPriority in 4 KiB units (255 = unbounded, 0 = one packet); "
               "docs/domain.md §13 'VL arbitration' (high limit unused, §3)");
    s.text_key("switch.sl2vl", &switch_config::sl2vl, "16 VLs, each < vls or 15", nullptr,
               "SL-to-VL table: 16 comma-separated VLs, entry i for SL i (15 = drop); empty = SL "
               "mod vls; docs/domain.md §3");
    s.text_key("switch.sl2vl_ports", &switch_config::sl2vl_ports,
               "IN:OUT=16 VLs;... (IN, OUT a port or *)", nullptr,
               "SL-to-VL tables per (input port, output port), overriding switch.sl2vl for those "
               "pairs, later entries winning, e.g. \"0:1=15,15,15,15,15,15,15,15,15,15,15,15,15,"
               "15,15,15\"; an SL mapped to 15 is dropped at the switch and counted "
               "(sl2vl_drops); empty = switch.sl2vl everywhere; docs/domain.md §3");
}

}  // namespace detail
}  // namespace ndr::cfg
