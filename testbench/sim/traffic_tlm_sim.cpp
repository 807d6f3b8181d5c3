#include "traffic_tlm_sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "common/delivery_record.h"
#include "common/invariant_error.h"
#include "common/timing.h"
#include "fabric_plan.h"
#include "ib_switch_tlm.h"
#include "link_tlm.h"
#include "traffic_endpoints_tlm.h"

namespace ndr::tb {

traffic_outcome run_traffic_tlm(const cfg::config& c, const tlm_run_hooks& hooks) {
    if (sc_core::sc_get_status() != sc_core::SC_ELABORATION) {
        throw std::logic_error("run_traffic_tlm: one simulation per process");
    }
    traffic_outcome out;
    out.tm = common::derive_timing(c);
    const common::timing& tm = out.tm;
    tlmm::run_status status;
    // Endpoint p hangs off switch port p and owns LID p + 1 (fabric_plan.h).
    const fabric_plan plan = plan_traffic_switch(c);
    tlmm::ib_switch_tlm sw("switch", c, tm, plan.lfts[0], status);
    traffic_endpoints_tlm eps("endpoints", c, tm, status);
    std::vector<std::unique_ptr<tlmm::link_tlm>> links;
    for (const plan_hop& h : plan.hops) {
        auto w =
            std::make_unique<tlmm::link_tlm>(fmt::format("{}_{}", h.from.host ? "up" : "down",
                                                         h.from.host ? h.from.node : h.from.port)
                                                 .c_str(),
                                             h.link_cycles, tm.cycle_ps, status);
        if (h.from.host) {
            // Endpoint p -> switch input p; FC of the switch input buffer back to the endpoint.
            (*eps.tx[h.from.node]).bind(w->tx);
            w->rx.bind(*sw.in[h.to.port]);
            (*sw.fc_out[h.to.port]).bind(w->fc_in);
            w->fc_out.bind(*eps.fc_in[h.from.node]);
            eps.connect(static_cast<uint16_t>(h.from.node), h.credits);
        } else {
            // Switch output p -> endpoint p; FC of the endpoint receive buffer back to the switch.
            (*sw.out[h.from.port]).bind(w->tx);
            w->rx.bind(*eps.rx[h.to.node]);
            (*eps.fc_out[h.to.node]).bind(w->fc_in);
            w->fc_out.bind(*sw.fc_in[h.from.port]);
            sw.connect(h.from.port, h.credits);
        }
        links.push_back(std::move(w));
    }
    if (hooks.on_inject) eps.set_inject_observer(hooks.on_inject);
    if (hooks.on_egress) sw.set_egress_observer(hooks.on_egress);
    sw.inject_drop(hooks.drop_packet_id);

    const uint64_t ws = c.sim.warmup_cycles;
    const uint64_t we = ws + c.sim.measure_cycles;
    eps.start();
    sw.set_window(ws, we);
    eps.set_window(ws, we);
    const auto run_until = [&](uint64_t cyc) {
        const sc_core::sc_time target(static_cast<double>(cyc * tm.cycle_ps), sc_core::SC_PS);
        if (target > sc_core::sc_time_stamp()) sc_core::sc_start(target - sc_core::sc_time_stamp());
        status.rethrow();
    };
    const auto t0 = std::chrono::steady_clock::now();
    run_until(we + 1);
    const uint64_t limit = we + 1 + c.sim.drain_cycles;
    uint64_t now = we + 1;
    const uint64_t chunk = 2'000;
    while (eps.tagged_outstanding() > 0 && now < limit) {
        now = std::min(limit, now + chunk);
        run_until(now);
    }
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    out.sw = sw.stats();
    out.ep = eps.stats();
    finish_latency_hist(out.ep);
    out.cycles = now;
    out.window_cycles = c.sim.measure_cycles;
    // Packets alive: payloads of the endpoints' pool still referenced (queues, links, switch).
    account_packets(out, eps.live_packets(), sw.packets_inside(), c.sim.check_invariants);
    return out;
}

}  // namespace ndr::tb
