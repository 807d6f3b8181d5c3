#include "traffic_rtl_sim.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "common/delivery_record.h"
#include "common/rng.h"
#include "common/timing.h"
#include "common/traffic_mix.h"
#include "common/traffic_pattern.h"
#include "config/config_error.h"
#include "golden/credit_fc.h"

#ifdef NDR_HAVE_RTL_CORE
#include "ib_switch_core/switch_core_bench.h"
#endif

namespace ndr::tb {

#ifndef NDR_HAVE_RTL_CORE

traffic_outcome run_traffic_rtl(const cfg::config&) {
    throw cfg::config_error(cfg::config_source::flag("--level"), "",
                            "--level rtl needs the Verilated switch core: this ndrsim was built "
                            "without Verilator");
}

#else

namespace {

using verify::core_geometry;
using verify::core_packet;
using verify::switch_core_bench;

void check_fits(const cfg::config& c, const common::timing& tm, const traffic_mix& mix,
                const core_geometry& g) {
    const auto bad = [](const char* flag, const char* key, std::string why) {
        return cfg::config_error(cfg::config_source::flag(flag), key, std::move(why));
    };
    if (c.sw.ports > g.ports) {
        throw bad("--ports", "switch.ports",
                  fmt::format("--level rtl: the Verilated switch core has {} ports, got {} "
                              "(use --ports 2..{})",
                              g.ports, c.sw.ports, g.ports));
    }
    if (c.sw.vls > g.vls) {
        throw bad("--level", "switch.vls",
                  fmt::format("--level rtl: the Verilated switch core has {} data VLs, got {}",
                              g.vls, c.sw.vls));
    }
    if (tm.block_bytes != 64 || c.sw.datapath_width.count != 64) {
        throw bad("--level", "switch.datapath_width",
                  "--level rtl: the switch core moves one 64 B block per beat (64B datapath)");
    }
    for (uint32_t wire : mix.wire_of) {
        const uint32_t blocks = golden::blocks_for_bytes(wire);
        if (blocks > std::min(g.buf_blocks, g.max_blocks)) {
            throw bad("--size", "traffic.size",
                      fmt::format("--level rtl: a {} B packet ({} blocks) exceeds the core's "
                                  "input buffer of {} blocks per VL",
                                  wire, blocks, g.buf_blocks));
        }
    }
}

}  // namespace

traffic_outcome run_traffic_rtl(const cfg::config& c) {
    traffic_outcome out;
    out.tm = common::derive_timing(c);
    const common::timing& tm = out.tm;
    const core_geometry g = switch_core_bench::geometry();
    const traffic_mix mix(c, tm);
    check_fits(c, tm, mix, g);
    out.tm.buffer_blocks = g.buf_blocks;  // the core's input buffer, not switch.buffer_per_vl
    const uint32_t ports = c.sw.ports;
    const uint32_t vls = c.sw.vls;
    const traffic_pattern pattern(c, ports);
    const bool backlogged = c.traffic.arrivals == "backlogged";

    verify::bench_params bp;
    bp.seed = c.sim.seed;
    bp.islip = c.sw.allocator == "islip";
    bp.down_blocks = tm.ep_buffer_blocks;
    switch_core_bench bench(bp);

    endpoint_stats& ep = out.ep;
    ep.port_delivered_beats.assign(ports, 0);
    ep.port_offered_beats.assign(ports, 0);
    ep.vl_delivered_beats.assign(vls, 0);
    ep.vl_delivered_bytes.assign(vls, 0);
    ep.credit_stall_cycles.assign(vls, 0);
    ep.vl_latency_hist.assign(vls, {});
    std::vector<rng> gen;
    std::vector<uint64_t> next_gen(ports, 0);
    std::vector<uint64_t> waiting(ports, 0);  // created, header not yet in the core
    for (uint32_t e = 0; e < ports; ++e) {
        gen.emplace_back(c.sim.seed, e);
        next_gen[e] = gen[e].geometric_gap(mix.inv_log_q);
    }
    std::vector<uint32_t> send_seq(std::size_t{ports} * ports * 16, 0);
    std::vector<uint32_t> recv_seq(std::size_t{ports} * ports * 16, 0);
    std::vector<uint8_t> tagged;  // by packet id
    const uint64_t ws = c.sim.warmup_cycles;
    const uint64_t we = ws + c.sim.measure_cycles;
    uint64_t next_id = 0;
    uint64_t fc_at_window_end = 0;

    bench.on_header_in = [&](uint64_t, const core_packet& p) { --waiting[p.src]; };
    bench.on_delivery = [&](const verify::core_delivery& d) {
        delivered p;
        p.id = d.pkt.id;
        p.created = d.pkt.created;
        p.flow_seq = d.pkt.flow_seq;
        p.wire_bytes = d.pkt.wire_bytes;
        p.beats = d.pkt.blocks;
        p.src = d.pkt.src;
        p.dst = d.pkt.dst;
        p.sl = d.pkt.sl;
        p.vl = d.pkt.vl;
        p.tagged = tagged[d.pkt.id] != 0;
        // Delivered the cycle after the tail beat (docs/report.md).
        record_delivery(ep, recv_seq, ports, c.sim.check_invariants, ws, we, d.eop_cycle + 1,
                        d.port, p);
    };

    const auto create = [&](uint32_t e, uint64_t t) {
        if (!pattern.is_source(e)) return;
        rng& r = gen[e];
        const std::size_t si = mix.sizes.pick_index(r);
        const auto sl = static_cast<uint8_t>(mix.sls.pick(r));
        const auto dst = static_cast<uint8_t>(pattern.dest(e, r));
        core_packet p;
        p.id = next_id++;
        p.created = t;
        p.wire_bytes = static_cast<uint16_t>(mix.wire_of[si]);
        p.blocks = static_cast<uint16_t>(golden::blocks_for_bytes(mix.wire_of[si]));
        p.src = static_cast<uint8_t>(e);
        p.dst = dst;
        p.sl = sl;
        p.vl = mix.sl2vl.vl(sl);
        p.flow_seq = send_seq[(std::size_t{e} * ports + dst) * 16 + sl]++;
        const bool in_window = t >= ws && t < we;
        tagged.push_back(in_window ? 1 : 0);
        ++ep.created;
        if (in_window) {
            ++ep.window_created;
            ep.window_created_beats += p.blocks;
            ep.port_offered_beats[e] += p.blocks;
        }
        ++waiting[e];
        ep.max_source_queue = std::max(ep.max_source_queue, waiting[e]);
        bench.push(p);
    };

    const auto t0 = std::chrono::steady_clock::now();
    const auto cycle_once = [&](uint64_t t) {
        if (t == ws) bench.reset_stats();
        for (uint32_t e = 0; e < ports; ++e) {
            if (!pattern.is_source(e) || mix.rate <= 0.0) continue;
            if (backlogged) {
                while (waiting[e] < 2) create(e, t);
            } else {
                while (next_gen[e] <= t) {
                    create(e, t);
                    next_gen[e] += gen[e].geometric_gap(mix.inv_log_q);
                }
            }
        }
        bench.step();
        if (const auto& m = bench.first_mismatch()) {
            throw std::runtime_error(fmt::format(
                "--level rtl: the switch core failed a check at cycle {}, port {}, VL {}: {}: "
                "expected {}, got {}",
                m->cycle, m->port, m->vl, m->what, m->expected, m->got));
        }
        if (t + 1 == we) {
            // Window counters end here.
            const verify::core_stats& s = bench.stats();
            out.sw.out_busy_cycles = s.out_beats;
            out.sw.out_blocks = s.out_beats;
            out.sw.xbar_transfers = 0;
            for (uint64_t n : s.out_packets) out.sw.xbar_transfers += n;
            out.sw.credit_stall_cycles = s.out_zero_credit;
            out.sw.buffer.resize(vls);
            for (uint32_t v = 0; v < vls; ++v) {
                out.sw.buffer[v].max_blocks = s.vl_occ_max[v];
                out.sw.buffer[v].mean_blocks =
                    static_cast<double>(s.vl_occ_sum[v]) /
                    (static_cast<double>(ports) * static_cast<double>(c.sim.measure_cycles));
                ep.credit_stall_cycles[v] = s.src_credit_stall[v];
            }
            fc_at_window_end = s.fc_packets;
        }
    };
    uint64_t t = 0;
    for (; t <= we; ++t) cycle_once(t);  // one cycle past the window, as run_traffic
    const uint64_t limit = we + 1 + c.sim.drain_cycles;
    uint64_t now = we + 1;
    while (ep.window_created > ep.tagged_delivered && now < limit) {
        now = std::min(limit, now + 2000);
        for (; t < now; ++t) cycle_once(t);
    }
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.sw.fc_packets = fc_at_window_end;
    out.sw.out_busy_cycles.resize(ports);
    out.sw.out_blocks.resize(ports);
    out.cycles = now;
    out.window_cycles = c.sim.measure_cycles;
    finish_latency_hist(out.ep);
    // Packets alive: waiting at the sources or inside the core (headers in, not delivered).
    uint64_t at_sources = 0;
    for (uint64_t w : waiting) at_sources += w;
    account_packets(out, at_sources + bench.in_core(), bench.in_core(), c.sim.check_invariants);
    return out;
}

#endif

}  // namespace ndr::tb
