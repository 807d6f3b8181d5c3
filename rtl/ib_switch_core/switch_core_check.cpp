#include "switch_core_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "common/rng.h"
#include "golden/lft.h"
#include "golden/sl2vl.h"
#include "scoreboard.h"
#include "switch_core_bench.h"

namespace ndr::verify {

namespace {

/// Cycles without any header in or packet out, with work pending, after which the drain stops.
constexpr uint64_t STUCK_CYCLES = 4000;
/// Longest drain after the stimulus.
constexpr uint64_t DRAIN_CYCLES = 60000;

tlmm::ib_extension ext_of(const core_packet& p) {
    tlmm::ib_extension e;
    e.id = p.id;
    e.created = p.created;
    e.flow_seq = p.flow_seq;
    e.wire_bytes = p.wire_bytes;
    e.blocks = p.blocks;
    e.beats = p.blocks;
    e.src = p.src;
    e.dst = p.dst;
    e.sl = p.sl;
    e.vl = p.vl;
    return e;
}

/// One run: a bench, the scoreboard, and the first mismatch of either.
class run {
public:
    run(const check_options& o, bool islip, const bench_params& bp)
        : geo_(switch_core_bench::geometry()),
          sl2vl_(golden::sl2vl_table::modulo(geo_.vls)),
          sb_(routes(geo_.ports), sl2vl_, geo_.ports),
          bench_(with_options(bp, o, islip)),
          seq_(std::size_t{geo_.ports} * geo_.ports * 16, 0) {
        bench_.on_header_in = [this](uint64_t t, const core_packet& p) {
            sb_.on_input(t, p.src, ext_of(p));
            progress_ = t;
        };
        bench_.on_delivery = [this](const core_delivery& d) {
            sb_.on_output(d.eop_cycle, d.port, ext_of(d.pkt));
            progress_ = d.eop_cycle;
        };
    }

    const core_geometry& geo() const { return geo_; }

    /// Queues a packet: VL from the SL, flow sequence per (src, dst, SL), a fresh id.
    void push(core_packet p) {
        p.id = next_id_++;
        p.vl = sl2vl_.vl(p.sl);
        p.flow_seq = seq_[(std::size_t{p.src} * geo_.ports + p.dst) * 16 + (p.sl & 0xFU)]++;
        p.created = bench_.cycle();
        bench_.push(p);
    }
    uint64_t queued() const { return bench_.queued(); }

    /// One cycle; false once a mismatch is known.
    bool step() {
        bench_.step();
        return ok();
    }
    bool ok() const { return !bench_.first_mismatch() && sb_.ok(); }

    /// Drains (bounded), then the end-of-test checks. Returns the result.
    check_result finish() {
        if (ok()) {
            const uint64_t limit = bench_.cycle() + DRAIN_CYCLES;
            progress_ = bench_.cycle();
            while ((bench_.queued() > 0 || bench_.in_core() > 0) && bench_.cycle() < limit &&
                   bench_.cycle() - progress_ < STUCK_CYCLES && step()) {
            }
            // A few idle cycles so the last frees and FC updates settle.
            for (int i = 0; i < 8 && ok(); ++i) step();
            if (ok()) sb_.finish(bench_.cycle());
            if (ok()) bench_.final_check();
        }
        check_result r;
        r.block = "switch";
        r.cycles = bench_.cycle();
        r.comparisons = bench_.comparisons() + sb_.matched();
        r.coverage = bench_.coverage();
        r.first_mismatch = first();
        return r;
    }

private:
    static bench_params with_options(bench_params bp, const check_options& o, bool islip) {
        bp.seed = o.seed;
        bp.islip = islip;
        bp.fault = o.fault;
        bp.wave_path = o.wave_path;
        return bp;
    }
    static golden::lft routes(uint32_t ports) {
        golden::lft l(static_cast<uint16_t>(ports));
        for (uint32_t o = 0; o < ports; ++o)
            l.set(static_cast<uint16_t>(o + 1), static_cast<uint8_t>(o));
        return l;
    }

    std::optional<mismatch> first() const {
        std::optional<mismatch> b = bench_.first_mismatch();
        std::optional<mismatch> s;
        if (const auto& m = sb_.first_mismatch()) {
            s = mismatch{m->time,
                         m->port,
                         m->vl,
                         "packet (order per input, output, VL; nothing lost or duplicated)",
                         m->expected ? m->expected->str() : "nothing",
                         m->got ? m->got->str() : "nothing"};
        }
        if (b && s) return b->cycle <= s->cycle ? b : s;
        return b ? b : s;
    }

    core_geometry geo_;
    golden::sl2vl_table sl2vl_;
    tlmm::scoreboard sb_;
    switch_core_bench bench_;
    std::vector<uint32_t> seq_;
    uint64_t next_id_ = 1;
    uint64_t progress_ = 0;
};

/// Back-pressure and starvation settings drawn from the seed.
bench_params random_params(tb::rng& r, const core_geometry& g) {
    bench_params bp;
    bp.in_valid_p = r.uniform() < 0.5 ? 1.0 : 0.6 + 0.3 * r.uniform();
    bp.out_ready_p = r.uniform() < 0.3 ? 1.0 : 0.5 + 0.4 * r.uniform();
    bp.down_blocks = 72 + static_cast<uint32_t>(r.below(g.buf_blocks));  // >= one MTU packet
    bp.drain_p = 0.3 + 0.7 * r.uniform();
    bp.starve_p = 0.002;
    bp.starve_max = 300;
    return bp;
}

/// A directed list: single packets on every (input, output, VL), back-to-back trains on one
/// stream, an incast of large packets to output 0, and 1-block packets everywhere.
void directed(run& x) {
    const core_geometry& g = x.geo();
    const uint32_t big = std::min<uint32_t>({65, g.buf_blocks, g.max_blocks});
    for (uint32_t i = 0; i < g.ports; ++i) {
        for (uint32_t o = 0; o < g.ports; ++o) {
            for (uint32_t sl = 0; sl < g.vls; ++sl) {
                x.push(core_packet{0, 0, 0, 64, 1, static_cast<uint8_t>(i), static_cast<uint8_t>(o),
                                   static_cast<uint8_t>(sl), 0});
            }
        }
    }
    for (uint32_t k = 0; k < 12; ++k) {
        x.push(core_packet{0, 0, 0, static_cast<uint16_t>((k % 5 + 1) * 64),
                           static_cast<uint16_t>(k % 5 + 1), 0, 1, 0, 0});
    }
    for (uint32_t i = 0; i < g.ports; ++i) {
        x.push(core_packet{0, 0, 0, static_cast<uint16_t>(big * 64 - 10),
                           static_cast<uint16_t>(big), static_cast<uint8_t>(i), 0,
                           static_cast<uint8_t>(i % 16), 0});
    }
}

/// Payload blocks of a synthetic packet: mostly small, some medium, a few up to one MTU.
uint16_t pick_blocks(tb::rng& r, const core_geometry& g) {
    const uint32_t cap = std::min<uint32_t>({65, g.buf_blocks, g.max_blocks});
    const double u = r.uniform();
    uint64_t b = 0;
    if (u < 0.6) {
        b = 1 + r.below(8);
    } else if (u < 0.95) {
        b = 9 + r.below(24);
    } else {
        b = 33 + r.below(cap - 32);
    }
    return static_cast<uint16_t>(std::min<uint64_t>(b, cap));
}

}  // namespace

check_result check_switch_core(const check_options& options) {
    const core_geometry g = switch_core_bench::geometry();
    tb::rng r(options.seed, 0x5717);
    // Allocator by seed: odd = iSLIP, even = round-robin.
    run x(options, options.seed % 2 == 1, random_params(r, g));
    directed(x);
    // Uniform random traffic: offered load and SL (hence VL) weights drawn from the seed.
    const double load = 0.4 + 0.55 * r.uniform();
    std::vector<double> sl_cum(16);
    double total = 0.0;
    for (double& c : sl_cum) c = (total += r.uniform());
    const double rate = load / 12.0;  // packets per cycle per source (mean ~12 blocks)
    const uint64_t backlog_cap = 48ULL * g.ports;
    for (uint64_t c = 0; c < options.cycles && x.ok(); ++c) {
        if (x.queued() < backlog_cap) {
            for (uint32_t s = 0; s < g.ports; ++s) {
                if (r.uniform() >= rate) continue;
                const double u = r.uniform() * total;
                const auto sl = static_cast<uint8_t>(std::min<std::ptrdiff_t>(
                    15, std::lower_bound(sl_cum.begin(), sl_cum.end(), u) - sl_cum.begin()));
                const uint16_t blocks = pick_blocks(r, g);
                const auto wire = static_cast<uint16_t>(blocks * 64U - r.below(64));
                x.push(core_packet{0, 0, 0, wire, blocks, static_cast<uint8_t>(s),
                                   static_cast<uint8_t>(r.below(g.ports)), sl, 0});
            }
        }
        x.step();
    }
    return x.finish();
}

check_result check_switch_core_packets(const std::vector<core_packet>& packets,
                                       const check_options& options) {
    tb::rng r(options.seed, 0x5718);
    const core_geometry g = switch_core_bench::geometry();
    run x(options, options.seed % 2 == 1, random_params(r, g));
    for (const core_packet& p : packets) {
        if (p.src >= g.ports || p.dst >= g.ports || p.blocks == 0 ||
            p.blocks > std::min(g.buf_blocks, g.max_blocks)) {
            throw std::invalid_argument(fmt::format(
                "packet list: packet {} ({} -> {}, {} blocks) does not fit the core ({} ports, "
                "at most {} blocks)",
                p.id, p.src, p.dst, p.blocks, g.ports, std::min(g.buf_blocks, g.max_blocks)));
        }
        x.push(p);
    }
    return x.finish();
}

}  // namespace ndr::verify
