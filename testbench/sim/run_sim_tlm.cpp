#include "run_sim_tlm.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "config/config_error.h"
#include "fabric_tlm.h"
#include "link_sampler.h"
#include "replay_loop.h"
#include "sharp_manager.h"

namespace ndr::tb {

run_outcome run_trace_tlm(const cfg::config& c, const trace::trace& tr) {
    if (sc_core::sc_get_status() != sc_core::SC_ELABORATION) {
        throw std::logic_error("run_trace_tlm: one simulation per process");
    }
    const common::node_layout layout = layout_of(c, tr);
    const uint32_t hosts = hosts_of(c, tr, layout);
    fabric_tlm f(c, hosts);
    run_outcome out;
    out.tm = f.timing();
    out.topology = f.topology().name;
    out.hosts = hosts;
    out.switches = static_cast<uint32_t>(f.switches().size());
    out.fabric = count_fabric(c, f.topology(), layout.multi_gpu() ? layout.nodes() : 0);
    sharp_manager sharp(c, f.topology(), out.tm.cycle_ps,
                        [&f](uint32_t sw, uint32_t osts, uint32_t ost_bytes, uint32_t alu,
                             common::sharp_payloads* p, uint8_t vl) -> common::sharp_an& {
                            return f.switches()[sw]->enable_sharp(osts, ost_bytes, alu, p, vl);
                        });
    for (auto& sw : f.switches()) sw->open_window(0);
    replay rp(c, tr, f.hcas(), &sharp);
    f.hcas().set_host(&rp);
    rp.start();

    const uint64_t cycle_ps = out.tm.cycle_ps;
    link_sampler<fabric_tlm> sampler(f, out.links, cycle_ps, c.report.utilisation_interval.ps);
    const uint64_t limit = c.sim.run_time_limit.ps / cycle_ps;
    const auto run_until = [&](uint64_t cyc) {
        const sc_core::sc_time target(static_cast<double>(cyc * cycle_ps), sc_core::SC_PS);
        if (target > sc_core::sc_time_stamp()) sc_core::sc_start(target - sc_core::sc_time_stamp());
        f.status().rethrow();
    };
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t now = run_replay_loop(rp, sampler, limit, run_until);
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sampler.finish();
    out.sample_cycles = sampler.interval();
    out.collectives = rp.results();
    common::cycle_t end = 0;
    for (const auto& r : out.collectives) end = std::max(end, r.end);
    for (const auto& s : rp.slices()) end = std::max(end, s.end);
    out.cycles = end;
    out.slices = rp.slices();
    out.transfers = rp.transfers();
    out.hca = f.hcas().stats();
    out.pair_bytes = rp.pair_bytes();
    fill_node_summary(out, rp, cycle_ps);
    for (std::size_t i = 0; i < f.links().size(); ++i) {
        out.links[i].total_beats = f.link_beats(f.links()[i]);
    }
    for (const sharp_tree& st : sharp.trees()) out.sharp_trees.push_back(st.describe());
    for (std::size_t s = 0; s < f.switches().size(); ++s) {
        tlmm::ib_switch_tlm& sw = *f.switches()[s];
        sw.close_window(window_close_cycle(now, end, sampler.interval()));
        out.sharp_bursts_contended += sw.sharp_bursts_contended();
        out.switch_stats.push_back(
            switch_summary{static_cast<uint32_t>(s), f.topology().switches[s].level, sw.stats()});
        if (const common::sharp_an* an = f.switches()[s]->sharp()) {
            out.sharp_nodes.push_back(
                {static_cast<uint32_t>(s), f.topology().switches[s].level, an->stats()});
        }
    }
    return out;
}

}  // namespace ndr::tb
