#include "config/validate.h"

#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "config/config_error.h"
#include "config/config_schema.h"
#include "config/unit_parse.h"
#include "config/weighted_list.h"
#include "golden/credit_fc.h"
#include "golden/ib_cc_table.h"
#include "golden/sl2vl.h"
#include "golden/sl2vl_ports.h"
#include "golden/vl_arb.h"

namespace ndr::cfg {
namespace {

[[noreturn]] void fail(const std::string& key, const std::string& reason) {
    throw config_error(config_source::merged(), key, reason);
}

/// Drops a `sl2vl: ` style prefix from a golden-library message (the key already names it).
std::string without_prefix(const std::string& msg, const std::string& prefix) {
    return msg.rfind(prefix, 0) == 0 ? msg.substr(prefix.size()) : msg;
}

void check_holds_mtu_packet(const std::string& key, bytes_t buffer, const config& c) {
    const uint64_t need = mtu_packet_buffer_bytes(c.sw.mtu.count);
    if (buffer.count < need)
        fail(key, fmt::format("must hold one MTU packet: switch.mtu {}B + {}B headers rounded up "
                              "to 64-byte blocks = {}B ({} blocks), got {}",
                              c.sw.mtu.count, MAX_PACKET_OVERHEAD_BYTES, need,
                              need / golden::CREDIT_BLOCK_BYTES, format_bytes(buffer)));
}

void check_tables(const config& c) {
    try {
        golden::sl2vl_table::parse(c.sw.sl2vl, c.sw.vls);
    } catch (const std::invalid_argument& e) {
        fail("switch.sl2vl", without_prefix(e.what(), "sl2vl: "));
    }
    try {
        golden::sl2vl_ports::parse(golden::sl2vl_table::parse(c.sw.sl2vl, c.sw.vls),
                                   c.sw.sl2vl_ports, c.sw.ports, c.sw.vls);
    } catch (const std::invalid_argument& e) {
        fail("switch.sl2vl_ports", without_prefix(e.what(), "sl2vl_ports: "));
    }
    const auto limit = static_cast<uint8_t>(c.sw.vl_arb_limit_of_high);
    try {
        golden::vl_arb_table::parse(c.sw.vl_arb_high, "", limit, c.sw.vls);
    } catch (const std::invalid_argument& e) {
        fail("switch.vl_arb_high", e.what());
    }
    try {
        golden::vl_arb_table::parse(c.sw.vl_arb_high, c.sw.vl_arb_low, limit, c.sw.vls);
    } catch (const std::invalid_argument& e) {
        fail("switch.vl_arb_low", e.what());
    }
}

/// One beat (switch.datapath_width bytes at link.rate) must last at least 0.5 ps, or the
/// cycle period rounds to 0 ps (the same rounding as common::derive_timing).
void check_beat_time(const config& c) {
    const long double width = static_cast<long double>(c.sw.datapath_width.count);
    const long double ps = width * 8.0L * 1e12L / static_cast<long double>(c.link.rate.bps);
    if (ps + 0.5L < 1.0L)
        fail("link.rate",
             fmt::format("too high for switch.datapath_width {} B: one beat would take under "
                         "0.5 ps (at most {} bits per second with this width)",
                         c.sw.datapath_width.count, static_cast<uint64_t>(width * 16e12L)));
}

void check_traffic(const config& c) {
    for (const weighted_value& wv : parse_weighted_list(c.traffic.size, 1, UINT64_MAX)) {
        if (wv.value > c.sw.mtu.count)
            fail("traffic.size",
                 fmt::format("payload {}B exceeds switch.mtu {}B", wv.value, c.sw.mtu.count));
    }
    if (c.traffic.hot_port >= c.sw.ports)
        fail("traffic.hot_port", fmt::format("must be a port of the switch, < switch.ports {}, "
                                             "got {}",
                                             c.sw.ports, c.traffic.hot_port));
    if (c.traffic.incast_sources > c.sw.ports - 1)
        fail("traffic.incast_sources", fmt::format("must be at most switch.ports - 1 = {}, got {}",
                                                   c.sw.ports - 1, c.traffic.incast_sources));
    const uint32_t p = c.sw.ports;
    if (c.traffic.pattern == "bitcomp" && (p & (p - 1)) != 0)
        fail("traffic.pattern",
             fmt::format("bitcomp needs a power-of-two switch.ports, got {} ports", p));
}

}  // namespace

uint64_t mtu_packet_buffer_bytes(uint64_t mtu_bytes) {
    const uint64_t block = golden::CREDIT_BLOCK_BYTES;
    return (mtu_bytes + MAX_PACKET_OVERHEAD_BYTES + block - 1) / block * block;
}

void validate(const config& c) {
    for (const config_key& k : config_schema()) {
        const std::string why = k.check(c);
        if (!why.empty()) fail(k.key, why);
    }
    check_holds_mtu_packet("switch.buffer_per_vl", c.sw.buffer_per_vl, c);
    check_holds_mtu_packet("switch.output_buffer", c.sw.output_buffer, c);
    if (c.sw.buffer_model == "shared") {
        check_holds_mtu_packet("switch.vl_reserved", c.sw.vl_reserved, c);
    }
    check_holds_mtu_packet("endpoint.rx_buffer_per_vl", c.endpoint.rx_buffer_per_vl, c);
    check_tables(c);
    check_beat_time(c);
    check_traffic(c);
    if (c.sharp.sat_chunk.count > c.hca.mtu.count) {
        fail("sharp.sat_chunk", fmt::format("a SAT chunk is one packet: at most hca.mtu {}B, got "
                                            "{}B",
                                            c.hca.mtu.count, c.sharp.sat_chunk.count));
    }
    if (c.ecn.kmin.count > c.ecn.kmax.count) {
        fail("ecn.kmin",
             fmt::format("must be <= ecn.kmax {}B, got {}B", c.ecn.kmax.count, c.ecn.kmin.count));
    }
    if (c.cc.ccti_min > c.cc.ccti_limit) {
        fail("cc.ccti_min",
             fmt::format("must be <= cc.ccti_limit {}, got {}", c.cc.ccti_limit, c.cc.ccti_min));
    }
    if (const std::size_t n = golden::cct_parse(c.cc.cct).size(); c.cc.ccti_limit >= n) {
        fail("cc.ccti_limit",
             fmt::format("must index cc.cct: < its {} entries, got {}", n, c.cc.ccti_limit));
    }
    if (c.dcqcn.min_rate.bps > c.link.rate.bps) {
        fail("dcqcn.min_rate", fmt::format("must be <= link.rate {} b/s, got {} b/s",
                                           c.link.rate.bps, c.dcqcn.min_rate.bps));
    }
    if (c.sharp.osts_per_tree > c.sharp.osts) {
        fail("sharp.osts_per_tree", fmt::format("a tree cannot use more than the node's sharp.osts "
                                                "{}, got {}",
                                                c.sharp.osts, c.sharp.osts_per_tree));
    }
}

}  // namespace ndr::cfg
