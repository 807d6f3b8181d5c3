#include "traffic_sim.h"

#include "common/delivery_record.h"

#include <fmt/format.h>

#include <chrono>

#include "common/invariant_error.h"
#include "cycle/engine_driver.h"
#include "cycle/ib_switch.h"
#include "fabric_plan.h"

namespace ndr::tb {

traffic_outcome run_traffic(const cfg::config& c) {
    traffic_outcome out;
    out.tm = common::derive_timing(c);
    const common::timing& tm = out.tm;
    cycle::packet_pool pool;
    // Endpoint p hangs off switch port p and owns LID p + 1 (fabric_plan.h).
    const fabric_plan plan = plan_traffic_switch(c);
    cycle::ib_switch sw(c, tm, pool, plan.lfts[0]);
    traffic_endpoints eps(c, tm, pool);
    for (const plan_hop& h : plan.hops) {
        if (h.from.host) {
            eps.connect(static_cast<uint16_t>(h.from.node),
                        cycle::link_peer{&sw, h.to.port, h.link_cycles}, h.credits);
        } else {
            sw.connect(h.from.port,
                       cycle::link_peer{&eps, static_cast<uint16_t>(h.to.node), h.link_cycles},
                       h.credits);
        }
    }
    cycle::sim_status status;
    cycle::engine_driver d_sw("switch", sw, tm.cycle_ps, status);
    cycle::engine_driver d_ep("endpoints", eps, tm.cycle_ps, status);

    const cycle_t ws = c.sim.warmup_cycles;
    const cycle_t we = ws + c.sim.measure_cycles;
    sw.start(0);
    eps.start(0);
    sw.set_window(ws, we);
    eps.set_window(ws, we);

    const auto t0 = std::chrono::steady_clock::now();
    // One cycle past the window so its closing events (statistics) are processed.
    cycle::sc_run_until(we + 1, tm.cycle_ps, status);
    const cycle_t limit = we + 1 + c.sim.drain_cycles;
    cycle_t now = we + 1;
    const cycle_t chunk = 2'000;
    while (eps.tagged_outstanding() > 0 && now < limit) {
        now = std::min(limit, now + chunk);
        cycle::sc_run_until(now, tm.cycle_ps, status);
    }
    eps.flush_arrivals(now - 1);  // arrivals of the cycles run (sources generate lazily)
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    out.sw = sw.stats();
    out.ep = eps.stats();
    finish_latency_hist(out.ep);
    if (const cycle::pfc_ports* pfc = eps.pfc()) out.ep_pfc = pfc->stats();
    out.cycles = now;
    out.window_cycles = c.sim.measure_cycles;
    // Packets still somewhere in the model (source queues, links, switch): counted, not derived.
    account_packets(out, pool.live() + eps.queued_packets(), sw.packets_inside(),
                    c.sim.check_invariants);
    return out;
}

void account_packets(traffic_outcome& out, uint64_t live, uint64_t in_switch, bool check) {
    out.in_flight = live;
    out.dropped = out.ep.created - out.ep.delivered - out.in_flight;
    out.switch_buffered = in_switch;
    // The only packets a switch may drop: those its SL2VL table maps to VL15 (counted).
    if (check && out.dropped != out.sw.sl2vl_drops) {
        throw common::invariant_error(fmt::format(
            "packet conservation: {} created, {} delivered, {} in flight, {} dropped by SL2VL: "
            "{} lost",
            out.ep.created, out.ep.delivered, out.in_flight, out.sw.sl2vl_drops,
            static_cast<int64_t>(out.dropped - out.sw.sl2vl_drops)));
    }
}

}  // namespace ndr::tb
