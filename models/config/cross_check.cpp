#include "config/cross_check.h"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "golden/ib_packet.h"
#include "golden/opcode.h"
#include "golden/roce_packet.h"

namespace ndr::cfg {
namespace {

constexpr double PS_PER_NS = 1000.0;

/// Wire time of `wire` bytes in whole datapath beats at link.rate.
double wire_ns(const config& c, uint64_t wire) {
    const uint64_t width = c.sw.datapath_width.count;
    const uint64_t beats = (wire + width - 1) / width;
    return static_cast<double>(beats * width) * 8.0 * 1e9 / static_cast<double>(c.link.rate.bps);
}

double link_ns(const config& c, uint64_t cable_mm) {
    return static_cast<double>(c.link.fec_latency.ps +
                               cable_mm * c.link.propagation_per_m.ps / 1000) /
           PS_PER_NS;
}

std::string us(double ns) {
    const double v = ns / 1000.0;
    return v < 1000.0 ? fmt::format("{:.3g} us", v) : fmt::format("{:.0f} us", v);
}

std::string path_text(const rc_round_trip& r) {
    return fmt::format("longest path {} switch{}, {} links", r.switches,
                       r.switches == 1 ? "" : "es", r.links);
}

}  // namespace

rc_round_trip rc_round_trip_of(const config& c) {
    rc_round_trip r;
    const bool roce = c.fabric.technology == "roce";
    const auto mtu = static_cast<uint32_t>(c.hca.mtu.count);
    r.packet_ns = wire_ns(c, roce ? golden::roce_wire_bytes(mtu, golden::RC_RDMA_WRITE_MIDDLE)
                                  : golden::wire_bytes(mtu, golden::RC_RDMA_WRITE_MIDDLE, false));
    r.ack_ns = wire_ns(c, roce ? golden::roce_wire_bytes(0, golden::RC_ACKNOWLEDGE)
                               : golden::wire_bytes(0, golden::RC_ACKNOWLEDGE, false));
    const uint64_t tier_mm[3] = {c.link.cable_length.mm, c.fabric.tier1_cable_length.mm,
                                 c.fabric.tier2_cable_length.mm};
    const uint32_t levels =
        c.fabric.topology != "single_switch" ? std::min(c.fabric.levels, 3U) : 1U;
    r.switches = 2 * levels - 1;
    r.links = 2 * levels;
    for (uint32_t l = 0; l < levels; ++l) r.path_ns += 2.0 * link_ns(c, tier_mm[l]);
    const double per_switch =
        static_cast<double>(c.sw.latency.ps) / PS_PER_NS + (c.sw.cut_through ? 0.0 : r.packet_ns);
    r.path_ns += r.switches * per_switch;
    r.packets_per_ack = std::min(c.hca.ack_coalesce, c.hca.max_outstanding);
    return r;
}

std::vector<std::string> cross_check(const config& c) {
    std::vector<std::string> out;
    const rc_round_trip rtt = rc_round_trip_of(c);
    const uint32_t window = c.hca.max_outstanding;
    const double window_ns = window * rtt.packet_ns;
    if (window_ns < rtt.ns()) {
        const double share = 100.0 * window_ns / rtt.ns();
        if (window <= c.hca.ack_coalesce) {
            out.push_back(fmt::format(
                "hca.max_outstanding: a window of {} packet{} (<= hca.ack_coalesce {}) waits for "
                "the ACK its last packet requests: one {} round trip per {} x {} B ({}), at most "
                "{:.0f} % of link.rate per queue pair",
                window, window == 1 ? "" : "s", c.hca.ack_coalesce, us(rtt.ns()), window,
                c.hca.mtu.count, path_text(rtt), share));
        } else {
            out.push_back(fmt::format(
                "hca.max_outstanding: a window of {} packets ({} on the wire) does not cover its "
                "ACK round trip of {} (hca.ack_coalesce {} packets + 2 x {}, {}): at most {:.0f} % "
                "of link.rate per queue pair",
                window, us(window_ns), us(rtt.ns()), c.hca.ack_coalesce, us(rtt.path_ns),
                path_text(rtt), share));
        }
    }
    const double timeout_ns = static_cast<double>(c.hca.ack_timeout.ps) / PS_PER_NS;
    const double floor_ns = ACK_TIMEOUT_ROUND_TRIPS * rtt.ns();
    if (timeout_ns < floor_ns) {
        const std::string trip = fmt::format(
            "zero-load ACK round trip of {} ({} x {} B packets until the ACK + 2 x {}, {})",
            us(rtt.ns()), rtt.packets_per_ack, c.hca.mtu.count, us(rtt.path_ns), path_text(rtt));
        out.push_back(timeout_ns < rtt.ns()
                          ? fmt::format("hca.ack_timeout: {} is shorter than the {}: every window "
                                        "times out before its ACK arrives; use >= {}",
                                        us(timeout_ns), trip, us(floor_ns))
                          : fmt::format("hca.ack_timeout: {} is under {:.0f} x the {}: ACKs "
                                        "queued behind data can take longer, giving spurious "
                                        "timeouts without loss; use >= {}",
                                        us(timeout_ns), ACK_TIMEOUT_ROUND_TRIPS, trip,
                                        us(floor_ns)));
    }
    return out;
}

}  // namespace ndr::cfg
