#include "run_sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "config/config_error.h"
#include "fabric.h"
#include "link_capture.h"
#include "link_sampler.h"
#include "replay_loop.h"
#include "sharp_manager.h"

namespace ndr::tb {

run_outcome run_trace(const cfg::config& c, const trace::trace& tr, const run_options& opt) {
    const common::node_layout layout = layout_of(c, tr);
    const uint32_t hosts = hosts_of(c, tr, layout);
    fabric f(c, hosts);
    // Packet capture of one cable (--pcap); destroyed before the fabric it taps.
    std::unique_ptr<link_capture> capture;
    if (!opt.pcap_path.empty()) {
        capture = std::make_unique<link_capture>(f, opt.pcap_path, opt.pcap_link);
    }
    run_outcome out;
    out.tm = f.timing();
    out.topology = f.topology().name;
    out.hosts = hosts;
    out.switches = static_cast<uint32_t>(f.switches().size());
    out.fabric = count_fabric(c, f.topology(), layout.multi_gpu() ? layout.nodes() : 0);
    sharp_manager sharp(c, f);
    replay rp(c, tr, f.hcas(), &sharp);
    f.hcas().set_host(&rp);
    f.hcas().start(0);
    for (auto& s : f.switches()) {
        s->start(0);
        s->open_window(0);
    }
    rp.start();

    // Utilisation samples (link_sampler.h): report.utilisation_interval, or from 1 us, coarser
    // as the run grows.
    const uint64_t cycle_ps = out.tm.cycle_ps;
    link_sampler<fabric> sampler(f, out.links, cycle_ps, c.report.utilisation_interval.ps);
    const uint64_t limit = c.sim.run_time_limit.ps / cycle_ps;
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t now = run_replay_loop(rp, sampler, limit, [&](uint64_t until) {
        cycle::sc_run_until(until, cycle_ps, f.status());
        if (capture) capture->flush_before(until);
    });
    if (capture) {
        capture->finish();
        out.pcap_link = capture->link_name();
        out.pcap_records = capture->records();
    }
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    sampler.finish();
    out.sample_cycles = sampler.interval();
    out.collectives = rp.results();
    cycle_t end = 0;
    for (const auto& r : out.collectives) end = std::max(end, r.end);
    for (const auto& s : rp.slices()) end = std::max(end, s.end);
    out.cycles = end;
    out.slices = rp.slices();
    out.transfers = rp.transfers();
    out.hca = f.hcas().stats();
    if (const cycle::pfc_ports* pfc = f.hcas().pfc()) out.hca_pfc = pfc->stats();
    out.pair_bytes = rp.pair_bytes();
    fill_node_summary(out, rp, cycle_ps);
    for (std::size_t i = 0; i < f.links().size(); ++i) {
        out.links[i].total_beats = f.link_beats(f.links()[i]);
    }
    for (const plan_fault& x : f.faults().faults) {
        out.link_faults.push_back({x.link, x.down_ps, x.reroute_ps, f.fault_drops(x)});
    }
    for (const sharp_tree& st : sharp.trees()) out.sharp_trees.push_back(st.describe());
    for (std::size_t s = 0; s < f.switches().size(); ++s) {
        if (const common::sharp_an* an = f.switches()[s]->sharp()) {
            out.sharp_nodes.push_back(
                {static_cast<uint32_t>(s), f.topology().switches[s].level, an->stats()});
        }
        f.switches()[s]->close_window(now);
        out.switch_stats.push_back(switch_summary{
            static_cast<uint32_t>(s), f.topology().switches[s].level, f.switches()[s]->stats()});
    }
    return out;
}

}  // namespace ndr::tb
