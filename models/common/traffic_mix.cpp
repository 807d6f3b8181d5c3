#include "common/traffic_mix.h"

#include "golden/roce_packet.h"

#include <fmt/format.h>

#include "common/rng.h"
#include "config/config_error.h"
#include "golden/ib_packet.h"
#include "golden/opcode.h"

namespace ndr::tb {

traffic_mix::traffic_mix(const cfg::config& c, const common::timing& tm)
    : sizes(weighted_choice::parse(c.traffic.size, "traffic.size")),
      sls(weighted_choice::parse(c.traffic.sl, "traffic.sl")),
      sl2vl(golden::sl2vl_table::parse(c.sw.sl2vl, c.sw.vls)) {
    std::vector<double> beats;
    for (uint32_t payload : sizes.values) {
        if (payload > c.sw.mtu.count) {
            throw cfg::config_error(
                cfg::config_source{}, "traffic.size",
                fmt::format("payload {} B exceeds switch.mtu {} B", payload, c.sw.mtu.count));
        }
        // RoCE: Ethernet/IPv4/UDP framing plus preamble/IFG (golden/roce_packet.h).
        const uint32_t wire = c.fabric.technology == "roce"
                                  ? golden::roce_wire_bytes(payload, golden::RC_SEND_ONLY)
                                  : golden::wire_bytes(payload, golden::RC_SEND_ONLY, false);
        wire_of.push_back(wire);
        beats.push_back(static_cast<double>((wire + tm.block_bytes - 1) / tm.block_bytes));
    }
    for (uint32_t sl : sls.values) {
        if (sl > 15 || sl2vl.vl(static_cast<uint8_t>(sl)) >= c.sw.vls) {
            throw cfg::config_error(cfg::config_source{}, "traffic.sl",
                                    fmt::format("SL {} maps to no data VL", sl));
        }
    }
    rate = c.traffic.load / sizes.mean(beats);
    inv_log_q = rng::inv_log_q(rate);
}

}  // namespace ndr::tb
