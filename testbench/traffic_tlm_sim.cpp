#include "traffic_tlm_sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "common/invariant_error.h"
#include "common/timing.h"
#include "delivery_record.h"
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
    golden::lft routes(static_cast<uint16_t>(c.sw.ports));
    for (uint32_t p = 0; p < c.sw.ports; ++p) {
        routes.set(static_cast<uint16_t>(p + 1), static_cast<uint8_t>(p));
    }
    tlmm::ib_switch_tlm sw("switch", c, tm, routes, status);
    traffic_endpoints_tlm eps("endpoints", c, tm, status);
    std::vector<std::unique_ptr<tlmm::link_tlm>> links;
    for (uint32_t p = 0; p < c.sw.ports; ++p) {
        // Endpoint p -> switch input p; FC of the switch input buffer back to the endpoint.
        auto up = std::make_unique<tlmm::link_tlm>(fmt::format("up_{}", p).c_str(), tm.link_cycles,
                                                   tm.cycle_ps, status);
        (*eps.tx[p]).bind(up->tx);
        up->rx.bind(*sw.in[p]);
        (*sw.fc_out[p]).bind(up->fc_in);
        up->fc_out.bind(*eps.fc_in[p]);
        // Switch output p -> endpoint p; FC of the endpoint receive buffer back to the switch.
        auto down = std::make_unique<tlmm::link_tlm>(fmt::format("down_{}", p).c_str(),
                                                     tm.link_cycles, tm.cycle_ps, status);
        (*sw.out[p]).bind(down->tx);
        down->rx.bind(*eps.rx[p]);
        (*eps.fc_out[p]).bind(down->fc_in);
        down->fc_out.bind(*sw.fc_in[p]);
        sw.connect(static_cast<uint16_t>(p), tm.ep_buffer_blocks);
        eps.connect(static_cast<uint16_t>(p), tm.buffer_blocks);
        links.push_back(std::move(up));
        links.push_back(std::move(down));
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
