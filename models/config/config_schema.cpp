#include "config/config_schema.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "config/config_error.h"
#include "config/scalar_parse.h"
#include "config/unit_parse.h"
#include "config/weighted_list.h"
#include "golden/credit_fc.h"

namespace ndr::cfg {
namespace {

/// Accessor for `config.section.field`: the pointer-to-member pair of one key.
template <class S, class T>
struct field_ref {
    S config::*section;
    T S::*field;
    T& operator()(config& c) const { return (c.*section).*field; }
    const T& operator()(const config& c) const { return (c.*section).*field; }
};

template <class S, class T>
field_ref<S, T> at(S config::*section, T S::*field) {
    return field_ref<S, T>{section, field};
}

/// A single-field check on the raw value: "" = valid, else the reason.
template <class V>
using checker = std::function<std::string(V)>;

/// Completes a key: wraps the value check so that the reason also names the offending value.
void attach_check(config_key& k, std::function<std::string(const config&)> raw_check) {
    auto fmt_value = k.format;
    k.check = [raw_check = std::move(raw_check), fmt_value](const config& c) -> std::string {
        std::string why = raw_check(c);
        if (!why.empty()) why += ", got " + fmt_value(c);
        return why;
    };
}

config_key base(std::string key, value_kind kind, std::string unit, std::string range,
                std::string help) {
    config_key k;
    k.key = std::move(key);
    k.kind = kind;
    k.unit = std::move(unit);
    k.range = std::move(range);
    k.help = std::move(help);
    return k;
}

template <class S, class T>
config_key uint_key(std::string key, field_ref<S, T> f, uint64_t lo, uint64_t hi, std::string help,
                    std::string range_text = "") {
    const uint64_t type_max = std::numeric_limits<T>::max();
    std::string range = !range_text.empty() ? std::move(range_text)
                        : hi >= type_max    ? (lo == 0 ? "any" : fmt::format(">= {}", lo))
                                            : fmt::format("{}..{}", lo, hi);
    config_key k = base(std::move(key), value_kind::uint, "", std::move(range), std::move(help));
    k.parse = [f, type_max](config& c, std::string_view t) {
        f(c) = static_cast<T>(parse_uint(t, type_max));
    };
    k.format = [f](const config& c) { return std::to_string(f(c)); };
    attach_check(k, [f, lo, hi](const config& c) -> std::string {
        const uint64_t v = f(c);
        if (v < lo || v > hi) return fmt::format("must be in {}..{}", lo, hi);
        return {};
    });
    return k;
}

struct real_bounds {
    double lo;
    bool lo_inclusive;
    double hi;
    bool hi_inclusive;
    std::string text;  ///< e.g. `0 < x <= 1`
};

template <class S>
config_key real_key(std::string key, field_ref<S, double> f, real_bounds b, std::string help) {
    config_key k = base(std::move(key), value_kind::real, "", b.text, std::move(help));
    k.parse = [f](config& c, std::string_view t) { f(c) = parse_real(t); };
    k.format = [f](const config& c) { return format_real(f(c)); };
    attach_check(k, [f, b](const config& c) -> std::string {
        const double v = f(c);
        const bool lo_ok = b.lo_inclusive ? v >= b.lo : v > b.lo;
        const bool hi_ok = b.hi_inclusive ? v <= b.hi : v < b.hi;
        if (!(lo_ok && hi_ok)) return "must be " + b.text;
        return {};
    });
    return k;
}

template <class S>
config_key bool_key(std::string key, field_ref<S, bool> f, std::string help) {
    config_key k = base(std::move(key), value_kind::boolean, "", "true|false", std::move(help));
    k.parse = [f](config& c, std::string_view t) { f(c) = parse_bool(t); };
    k.format = [f](const config& c) -> std::string { return f(c) ? "true" : "false"; };
    k.check = [](const config&) { return std::string(); };
    return k;
}

template <class S>
config_key choice_key(std::string key, field_ref<S, std::string> f,
                      std::vector<std::string> choices, std::string help) {
    const std::string joined = fmt::format("{}", fmt::join(choices, "|"));
    config_key k = base(std::move(key), value_kind::choice, "", joined, std::move(help));
    k.choices = choices;
    k.parse = [f, choices](config& c, std::string_view t) {
        for (const std::string& ch : choices) {
            if (ch == t) {
                f(c) = ch;
                return;
            }
        }
        throw config_error(
            fmt::format("expected one of {}, got '{}'", fmt::join(choices, ", "), t));
    };
    k.format = [f](const config& c) { return f(c); };
    attach_check(k, [f, choices, joined](const config& c) -> std::string {
        for (const std::string& ch : choices) {
            if (ch == f(c)) return {};
        }
        return "must be one of " + joined;
    });
    return k;
}

/// A free string whose syntax is checked by `syntax` ("" = valid); nullptr = checked only by
/// validate() because it depends on other fields.
template <class S>
config_key text_key(std::string key, field_ref<S, std::string> f, std::string range,
                    checker<const std::string&> syntax, std::string help) {
    config_key k = base(std::move(key), value_kind::text, "", std::move(range), std::move(help));
    k.parse = [f](config& c, std::string_view t) { f(c) = std::string(t); };
    k.format = [f](const config& c) { return f(c); };
    k.check = [f, syntax](const config& c) -> std::string {
        return syntax ? syntax(f(c)) : std::string();
    };
    return k;
}

// Unit-bearing types: parse, print, raw integer, kind and unit per type.
void parse_into(std::string_view t, bytes_t& v) {
    v = parse_bytes(t);
}
void parse_into(std::string_view t, time_ps_t& v) {
    v = parse_time(t);
}
void parse_into(std::string_view t, rate_bps_t& v) {
    v = parse_rate(t);
}
void parse_into(std::string_view t, length_mm_t& v) {
    v = parse_length(t);
}
std::string format_of(bytes_t v) {
    return format_bytes(v);
}
std::string format_of(time_ps_t v) {
    return format_time(v);
}
std::string format_of(rate_bps_t v) {
    return format_rate(v);
}
std::string format_of(length_mm_t v) {
    return format_length(v);
}
uint64_t raw(bytes_t v) {
    return v.count;
}
uint64_t raw(time_ps_t v) {
    return v.ps;
}
uint64_t raw(rate_bps_t v) {
    return v.bps;
}
uint64_t raw(length_mm_t v) {
    return v.mm;
}
std::pair<value_kind, const char*> kind_of(bytes_t) {
    return {value_kind::bytes, "B"};
}
std::pair<value_kind, const char*> kind_of(time_ps_t) {
    return {value_kind::time, "ps"};
}
std::pair<value_kind, const char*> kind_of(rate_bps_t) {
    return {value_kind::rate, "bps"};
}
std::pair<value_kind, const char*> kind_of(length_mm_t) {
    return {value_kind::length, "mm"};
}

/// A size, time, rate or length; `check` gets the value in the base unit (nullptr = any).
/// `in_base_unit` prints the value as an integer in the base unit (`4096B` rather than `4KiB`,
/// for sizes that IB documents in bytes such as the MTU).
template <class S, class T>
config_key unit_key(std::string key, field_ref<S, T> f, std::string range, checker<uint64_t> check,
                    std::string help, bool in_base_unit = false) {
    const auto [kind, unit] = kind_of(T{});
    config_key k = base(std::move(key), kind, unit, std::move(range), std::move(help));
    k.parse = [f](config& c, std::string_view t) { parse_into(t, f(c)); };
    k.format = [f, in_base_unit, u = k.unit](const config& c) {
        return in_base_unit ? std::to_string(raw(f(c))) + u : format_of(f(c));
    };
    attach_check(k, [f, check](const config& c) -> std::string {
        return check ? check(raw(f(c))) : std::string();
    });
    return k;
}

std::string positive(uint64_t v) {
    return v == 0 ? "must be > 0" : "";
}

/// One of the listed values (e.g. MTUs), printed with `unit`.
checker<uint64_t> one_of(std::vector<uint64_t> allowed, std::string unit) {
    return [allowed = std::move(allowed), unit = std::move(unit)](uint64_t v) -> std::string {
        for (uint64_t a : allowed) {
            if (a == v) return {};
        }
        std::string list;
        for (uint64_t a : allowed) list += (list.empty() ? "" : "|") + std::to_string(a) + unit;
        return "must be one of " + list;
    };
}

/// A credit-managed buffer: whole 64-byte blocks, at most 2048 blocks outstanding per VL
/// (docs/domain.md §2.2). The lower bound (one MTU packet) is a cross-field check in validate().
std::string credit_buffer(uint64_t v) {
    const uint64_t block = golden::CREDIT_BLOCK_BYTES;
    const uint64_t max_bytes = uint64_t{golden::FC_MAX_OUTSTANDING} * block;
    if (v % block != 0) return "must be a whole number of 64-byte credit blocks";
    if (v > max_bytes)
        return fmt::format(
            "must be at most {} credit blocks ({}) per VL, the most that may be "
            "outstanding (docs/domain.md §2.2)",
            golden::FC_MAX_OUTSTANDING, format_bytes(bytes_t{max_bytes}));
    return {};
}

checker<const std::string&> weighted(uint64_t lo, uint64_t hi) {
    return [lo, hi](const std::string& text) -> std::string {
        try {
            parse_weighted_list(text, lo, hi);
        } catch (const config_error& e) {
            return e.reason;
        }
        return {};
    };
}

constexpr uint64_t U32_MAX = std::numeric_limits<uint32_t>::max();
constexpr uint64_t U64_MAX = std::numeric_limits<uint64_t>::max();

std::vector<config_key> build_schema() {
    const auto L = &config::link;
    const auto W = &config::sw;
    const auto E = &config::endpoint;
    const auto T = &config::traffic;
    const auto M = &config::sim;
    const std::string credit_range = ">= 1 MTU packet, <= 128KiB, multiple of 64B";
    std::vector<config_key> keys;

    // link
    keys.push_back(unit_key(
        "link.rate", at(L, &link_config::rate), "> 0", positive,
        "data rate per link direction; docs/domain.md §13 'Port data rate' (4x NDR 400 Gb/s, §5)"));
    keys.push_back(unit_key(
        "link.fec_latency", at(L, &link_config::fec_latency), "any", nullptr,
        "FEC + PHY latency per link; docs/domain.md §13 'FEC + PHY per link' (RS(544,514) 100 ns; "
        "low-latency FEC 50 ns; DAC without FEC 0)"));
    keys.push_back(unit_key("link.cable_length", at(L, &link_config::cable_length), "any", nullptr,
                            "cable length of every link; docs/domain.md §13 'Cable' (2-3 m DAC in rack; "
                            "30-100 m optics between tiers)"));
    keys.push_back(unit_key("link.propagation_per_m", at(L, &link_config::propagation_per_m), "any",
                            nullptr,
                            "signal propagation time per metre of cable; docs/domain.md §13 'Cable' "
                            "(5 ns/m, §5)"));
    keys.push_back(unit_key("link.fc_processing", at(L, &link_config::fc_processing), "any",
                            nullptr,
                            "time to generate or consume an FC packet, at each end; docs/domain.md §13 "
                            "'FC packet processing' (2-4 cycles, ~5 ns)"));
    keys.push_back(unit_key("link.fc_refresh_period", at(L, &link_config::fc_refresh_period), "> 0",
                            positive,
                            "forced per-VL flow-control refresh period; docs/domain.md §13 "
                            "'FC update policy' (4.096 us, §2.3)"));
    keys.push_back(unit_key(
        "link.fc_min_interval", at(L, &link_config::fc_min_interval), "any", nullptr,
        "at most one FC packet per port and VL per this interval (FC packets cost wire "
        "time; a change inside it goes out when it expires); 10 ns is a choice, 0 = every cycle"));

    // switch
    keys.push_back(
        uint_key("switch.ports", at(W, &switch_config::ports), 2, 64,
                 "switch radix (ports simulated); docs/domain.md §13 'Ports / aggregate' (Quantum-2: "
                 "64 x 400G)"));
    keys.push_back(uint_key(
        "switch.vls", at(W, &switch_config::vls), 1, 15,
        "data VLs VL0..vls-1 (VL15 comes on top); docs/domain.md §13 'Data VLs' (2: bulk + SHARP, "
        "§3)"));
    keys.push_back(unit_key("switch.buffer_per_vl", at(W, &switch_config::buffer_per_vl),
                            credit_range, credit_buffer,
                            "input buffer per port per data VL; docs/domain.md §13 "
                            "'Input buffer per port per VL' (32 KiB = 512 blocks)"));
    keys.push_back(unit_key(
        "switch.latency", at(W, &switch_config::latency), "any", nullptr,
        "port-to-port latency, header in to header out, zero load, no FEC/cable; docs/domain.md §13 "
        "'Switch port-to-port latency' (300 ns; sweep 130-400 ns)"));
    keys.push_back(bool_key(
        "switch.cut_through", at(W, &switch_config::cut_through),
        "true = cut-through, false = store-and-forward; docs/domain.md §13 'Switch port-to-port "
        "latency' (cut-through)"));
    keys.push_back(
        choice_key("switch.queueing", at(W, &switch_config::queueing), {"voq", "fifo"},
                   "input queues: voq = one virtual output queue per output and VL, "
                   "fifo = one FIFO per VL (head-of-line blocking, docs/domain.md §4); model choice"));
    keys.push_back(choice_key("switch.allocator", at(W, &switch_config::allocator), {"islip", "rr"},
                              "crossbar allocator: islip = iterative SLIP, rr = round-robin per "
                              "output; model choice"));
    keys.push_back(uint_key("switch.islip_iterations", at(W, &switch_config::islip_iterations), 1,
                            8, "iSLIP request-grant-accept iterations per cycle; model choice"));
    keys.push_back(real_key(
        "switch.speedup", at(W, &switch_config::speedup),
        real_bounds{1.0, true, 4.0, true, "1.0 <= x <= 4.0"},
        "crossbar speed-up over the link rate; docs/domain.md §13 'Crossbar speed-up' (1.25x)"));
    keys.push_back(unit_key("switch.output_buffer", at(W, &switch_config::output_buffer),
                            ">= 1 MTU packet", nullptr,
                            "egress staging buffer per output port; model choice "
                            "(two 4 KiB-MTU packets)"));
    keys.push_back(unit_key(
        "switch.datapath_width", at(W, &switch_config::datapath_width), "16B|32B|64B|128B|256B",
        one_of({16, 32, 64, 128, 256}, "B"),
        "bytes per core-clock beat; cycle = width / link rate (64 B at 400 Gb/s = 1.28 ns); "
        "docs/domain.md §13 'Core clock x datapath'",
        true));
    keys.push_back(unit_key("switch.mtu", at(W, &switch_config::mtu), "256B|512B|1024B|2048B|4096B",
                            one_of({256, 512, 1024, 2048, 4096}, "B"),
                            "payload MTU; docs/domain.md §13 'MTU / largest packet' (4096 B, §1)",
                            true));
    keys.push_back(text_key(
        "switch.vl_arb_high", at(W, &switch_config::vl_arb_high),
        "'vl:weight,...', vl < vls, weight 0..255", nullptr,
        "high-priority VL arbitration table (weights in 64 B units); empty = no high table; "
        "docs/domain.md §13 'VL arbitration' (low table only, §3)"));
    keys.push_back(text_key(
        "switch.vl_arb_low", at(W, &switch_config::vl_arb_low),
        "'vl:weight,...', vl < vls, weight 0..255", nullptr,
        "low-priority VL arbitration table (weights in 64 B units); empty = weight 64 for every "
        "data VL; docs/domain.md §13 'VL arbitration' (§3)"));
    keys.push_back(uint_key(
        "switch.vl_arb_limit_of_high", at(W, &switch_config::vl_arb_limit_of_high), 0, 255,
        "LimitOfHighPriority in 4 KiB units (255 = unbounded, 0 = one packet); docs/domain.md §13 "
        "'VL arbitration' (high limit unused, §3)"));
    keys.push_back(
        text_key("switch.sl2vl", at(W, &switch_config::sl2vl), "16 VLs, each < vls or 15", nullptr,
                 "SL-to-VL table: 16 comma-separated VLs, entry i for SL i (15 = drop); empty = "
                 "SL mod vls; docs/domain.md §3"));

    // endpoint
    keys.push_back(
        unit_key("endpoint.rx_buffer_per_vl", at(E, &endpoint_config::rx_buffer_per_vl),
                 credit_range, credit_buffer,
                 "endpoint receive buffer per VL; docs/domain.md §13 'Input buffer per port per VL' "
                 "(32 KiB, as the switch)"));
    keys.push_back(unit_key("endpoint.rx_processing", at(E, &endpoint_config::rx_processing), "any",
                            nullptr,
                            "delay from a packet's tail arriving at the endpoint to its credits "
                            "being freed; 0 = drains at line rate (model choice)"));

    // traffic
    keys.push_back(choice_key(
        "traffic.pattern", at(T, &traffic_config::pattern),
        {"uniform", "permutation", "hotspot", "incast", "bitcomp"},
        "destination pattern: uniform random, fixed random permutation, hotspot, incast, "
        "bit complement (needs a power-of-two switch.ports)"));
    keys.push_back(choice_key(
        "traffic.arrivals", at(T, &traffic_config::arrivals), {"bernoulli", "backlogged"},
        "bernoulli: each source creates packets at `load` (geometric gaps); backlogged: every "
        "source always has a packet waiting (saturation throughput; load is ignored)"));
    keys.push_back(real_key("traffic.load", at(T, &traffic_config::load),
                            real_bounds{0.0, false, 1.0, true, "0 < x <= 1"},
                            "offered load per source, fraction of the link rate"));
    keys.push_back(text_key(
        "traffic.size", at(T, &traffic_config::size), "'N' or 'N@w,M@w,...', N 1..switch.mtu",
        weighted(1, 4096),
        "payload bytes per packet, one size or a weighted mix; default one MTU, docs/domain.md §13 "
        "'MTU / largest packet'"));
    keys.push_back(text_key(
        "traffic.sl", at(T, &traffic_config::sl), "'s' or 's@w,t@w,...', s 0..15", weighted(0, 15),
        "service levels used, one SL or a weighted mix (SL2VL picks the VL, docs/domain.md §3)"));
    keys.push_back(real_key("traffic.hotspot_fraction", at(T, &traffic_config::hotspot_fraction),
                            real_bounds{0.0, true, 1.0, true, "0 <= x <= 1"},
                            "hotspot: share of each source's traffic sent to traffic.hot_port"));
    keys.push_back(uint_key("traffic.hot_port", at(T, &traffic_config::hot_port), 0, U32_MAX,
                            "hotspot/incast destination port", "< switch.ports"));
    keys.push_back(uint_key("traffic.incast_sources", at(T, &traffic_config::incast_sources), 0,
                            U32_MAX, "incast: number of sending ports, 0 = all other ports",
                            "0..switch.ports-1"));

    // sim
    keys.push_back(uint_key("sim.seed", at(M, &sim_config::seed), 0, U64_MAX,
                            "random seed; the same seed and config give the same run"));
    keys.push_back(uint_key("sim.warmup_cycles", at(M, &sim_config::warmup_cycles), 0, U64_MAX,
                            "core cycles simulated before the measurement window (not measured)"));
    keys.push_back(uint_key("sim.measure_cycles", at(M, &sim_config::measure_cycles), 1, U64_MAX,
                            "core cycles in the measurement window"));
    keys.push_back(
        uint_key("sim.drain_cycles", at(M, &sim_config::drain_cycles), 0, U64_MAX,
                 "max core cycles after the window to deliver the packets created in it"));
    keys.push_back(bool_key("sim.check_invariants", at(M, &sim_config::check_invariants),
                            "check lossless flow-control invariants at every event (slower)"));
    keys.push_back(
        unit_key("sim.run_time_limit", at(M, &sim_config::run_time_limit), "> 0", positive,
                 "ndrsim run stops with an error (naming what is still running) if the trace "
                 "has not finished by this simulated time"));
    keys.push_back(choice_key(
        "sim.level", at(M, &sim_config::level), {"auto", "cycle", "tlm", "rtl"},
        "model level of run, traffic, compare, validate and sweep (--level): cycle, tlm "
        "(docs/fidelity_tlm.md), rtl (traffic only: the Verilated switch core) or auto (traffic: "
        "cycle; trace replay: tlm above sim.tlm_above_hosts hosts, else cycle)"));
    keys.push_back(
        uint_key("sim.tlm_above_hosts", at(M, &sim_config::tlm_above_hosts), 0, U32_MAX,
                 "trace replay with sim.level auto uses the TLM level on fabrics of more than "
                 "this many hosts, the cycle level otherwise; 0 = always the cycle level"));
    keys.push_back(choice_key(
        "sim.tlm_mode", at(M, &sim_config::tlm_mode), {"at", "lt"},
        "ndrsim run --level tlm: at = approximately timed (nb_transport phases, one SystemC "
        "activation per time step with work); lt = loosely timed with temporal decoupling (each "
        "device runs ahead by up to sim.tlm_quantum, tlm_quantumkeeper)"));
    keys.push_back(unit_key(
        "sim.tlm_quantum", at(M, &sim_config::tlm_quantum), "any", nullptr,
        "global quantum of sim.tlm_mode=lt; 0 = the shortest link latency of the fabric (exact: "
        "same results as at); longer quanta trade timing accuracy for speed"));
    keys.push_back(unit_key(
        "sim.tlm_burst", at(M, &sim_config::tlm_burst), "any", nullptr,
        "ndrsim run --level tlm: one transaction carries a burst of consecutive MTU packets of one "
        "message, up to this many payload bytes, while one queue pair has the HCA port to itself "
        "(docs/fidelity_tlm.md); 0 (or less than two hca.mtu) = one packet per transaction "
        "(packet-exact, slower)"));

    // fabric
    const auto F = &config::fabric;
    keys.push_back(choice_key(
        "fabric.technology", at(F, &fabric_config::technology), {"ib", "roce"},
        "ib: InfiniBand (credit flow control, LFT routing, SHARP); roce: RoCEv2 over Ethernet "
        "(Ethernet/IPv4/UDP framing, PFC, ECN + DCQCN, ECMP, no SHARP); docs/roce.md"));
    keys.push_back(choice_key(
        "fabric.topology", at(F, &fabric_config::topology), {"single_switch", "fat_tree"},
        "single_switch: every host on one switch; fat_tree: folded Clos of switch.ports-radix "
        "switches with up/down (d-mod-k) routing"));
    keys.push_back(uint_key("fabric.hosts", at(F, &fabric_config::hosts), 0, 65535,
                            "hosts (one HCA each); 0 = as many as the trace has ranks"));
    keys.push_back(uint_key("fabric.levels", at(F, &fabric_config::levels), 2, 3,
                            "fat_tree levels (2: up to ports^2/2 hosts, 3: up to ports^3/4)"));
    keys.push_back(unit_key(
        "fabric.tier1_cable_length", at(F, &fabric_config::tier1_cable_length), "any", nullptr,
        "leaf-spine cable length; docs/domain.md §13 'Cable' (30-100 m optics between tiers)"));
    keys.push_back(unit_key("fabric.tier2_cable_length", at(F, &fabric_config::tier2_cable_length),
                            "any", nullptr,
                            "spine-core cable length (3-level fat tree); docs/domain.md §13 'Cable'"));

    // hca
    const auto H = &config::hca;
    keys.push_back(unit_key(
        "hca.tx_latency", at(H, &hca_config::tx_latency), "any", nullptr,
        "doorbell to first packet ready (WQE fetch, DMA read start, packetise); docs/domain.md §13 "
        "'HCA small-message latency' (~250 ns TX, a choice)"));
    keys.push_back(unit_key(
        "hca.rx_latency", at(H, &hca_config::rx_latency), "any", nullptr,
        "last packet received to data placed and completion visible (parse, DMA write, CQE); "
        "docs/domain.md §13 (~250 ns RX, a choice)"));
    keys.push_back(unit_key(
        "hca.pcie_rate", at(H, &hca_config::pcie_rate), "> 0", positive,
        "payload DMA bandwidth; docs/domain.md §13 'HCA host interface' (PCIe Gen5 x16 ~63 GB/s)"));
    keys.push_back(
        unit_key("hca.message_interval", at(H, &hca_config::message_interval), "any", nullptr,
                 "minimum time between two WQEs of one HCA (1 / message rate); docs/domain.md §13 "
                 "'HCA message rate' (215 M msg/s)"));
    keys.push_back(unit_key(
        "hca.mtu", at(H, &hca_config::mtu), "256..4096, power of two",
        [](uint64_t v) -> std::string {
            return (v >= 256 && v <= 4096 && (v & (v - 1)) == 0)
                       ? ""
                       : "must be 256/512/1024/2048/4096 B";
        },
        "path MTU: payload bytes per RDMA packet; docs/domain.md §1.2", true));
    keys.push_back(
        uint_key("hca.ack_coalesce", at(H, &hca_config::ack_coalesce), 1, 4096,
                 "the responder acknowledges every N packets and every message's last packet"));
    keys.push_back(
        unit_key("hca.ack_timeout", at(H, &hca_config::ack_timeout), "> 0", positive,
                 "RC local ACK timeout before go-back-N retransmission; docs/domain.md §13 'RC timers' "
                 "(4.096 us x 2^14)"));
    keys.push_back(
        uint_key("hca.retry_count", at(H, &hca_config::retry_count), 0, 7,
                 "RC retries of one packet before the run fails; docs/domain.md §13 'RC timers'"));
    keys.push_back(uint_key("hca.sl", at(H, &hca_config::sl), 0, 15,
                            "service level of RDMA traffic (switch.sl2vl maps it to a VL)"));
    keys.push_back(uint_key("hca.max_outstanding", at(H, &hca_config::max_outstanding), 1, 1048576,
                            "unacknowledged packets per queue pair"));

    // fault
    keys.push_back(real_key(
        "fault.icrc_error_rate", at(&config::fault, &fault_config::icrc_error_rate),
        real_bounds{0.0, true, 1.0, false, "0 <= x < 1"},
        "probability that a packet reaches an HCA with a bad ICRC (dropped; RC retransmits)"));

    // collective
    keys.push_back(unit_key("collective.chunk", at(&config::collective, &collective_config::chunk),
                            "> 0", positive,
                            "pipelining unit of ring and tree collectives (NCCL-like chunking)"));

    // sharp
    const auto S = &config::sharp;
    keys.push_back(uint_key(
        "sharp.vl", at(S, &sharp_config::vl), 0, 14,
        "VL of SHARP packets; docs/domain.md §13 'Data VLs' (VL1 SHARP), must be < switch.vls"));
    keys.push_back(
        unit_key("sharp.ost_bytes", at(S, &sharp_config::ost_bytes), "> 0", positive,
                 "payload of one outstanding transaction (OST); docs/domain.md §7 (2048 B on Quantum; "
                 "Quantum-2 unconfirmed)"));
    keys.push_back(uint_key("sharp.osts", at(S, &sharp_config::osts), 1, 1048576,
                            "OSTs per aggregation node (buffers of sharp.ost_bytes); a choice"));
    keys.push_back(
        uint_key("sharp.osts_per_tree", at(S, &sharp_config::osts_per_tree), 2, 1048576,
                 "OSTs one tree may use in a node at once: the hosts' window of chunks in "
                 "flight (docs/domain.md §7: each group gets at least 2)"));
    keys.push_back(
        unit_key("sharp.sat_threshold", at(S, &sharp_config::sat_threshold), "any", nullptr,
                 "messages larger than this use streaming aggregation (SAT), smaller ones "
                 "low-latency trees (LLT); docs/domain.md §7 (UCC: 16 KiB)"));
    keys.push_back(unit_key("sharp.sat_chunk", at(S, &sharp_config::sat_chunk), "> 0", positive,
                            "payload of one SAT chunk (one packet; <= hca.mtu)"));
    keys.push_back(
        uint_key("sharp.max_trees", at(S, &sharp_config::max_trees), 1, 1022,
                 "reduction trees per subnet; docs/domain.md §7 (Quantum-2: up to 511 LLT + 511 SAT)"));
    keys.push_back(unit_key("sharp.alu_latency", at(S, &sharp_config::alu_latency), "any", nullptr,
                            "aggregation ALU pipeline latency per reduction step; a choice"));
    keys.push_back(
        choice_key("sharp.data", at(S, &sharp_config::data), {"auto", "on", "off"},
                   "carry real element values and check every result against the golden reduction "
                   "(auto: for collectives of at most 1 MiB)"));

    // pfc, ecn, dcqcn (fabric.technology = roce; docs/roce.md)
    const auto PF = &config::pfc;
    keys.push_back(bool_key(
        "pfc.enabled", at(PF, &pfc_config::enabled),
        "roce: per-priority PAUSE (IEEE 802.1Qbb) keeps the fabric lossless; false = no PAUSE "
        "(a buffer overflow is then reported as an error)"));
    keys.push_back(unit_key("pfc.reaction_time", at(PF, &pfc_config::reaction_time), "any", nullptr,
                            "roce: PAUSE received to sender stopped (MAC/PHY response); enters the "
                            "headroom (docs/roce.md), a choice"));
    keys.push_back(
        unit_key("pfc.xon_gap", at(PF, &pfc_config::xon_gap), "any", nullptr,
                 "roce: XON threshold = XOFF - xon_gap (hysteresis between PAUSE and resume)"));
    const auto EC = &config::ecn;
    keys.push_back(bool_key("ecn.enabled", at(EC, &ecn_config::enabled),
                            "roce: the switch marks ECN CE on egress queue depth (RED-like)"));
    keys.push_back(
        unit_key("ecn.kmin", at(EC, &ecn_config::kmin), "any", nullptr,
                 "roce: egress queue depth below which nothing is marked (NVIDIA Onyx/Cumulus RoCE "
                 "default 150 KB; DCQCN paper 5 KB at 40G)"));
    keys.push_back(unit_key(
        "ecn.kmax", at(EC, &ecn_config::kmax), "> 0", positive,
        "roce: depth above which every packet is marked; between kmin and kmax the "
        "probability rises linearly to ecn.pmax (NVIDIA RoCE default 1500 KB; paper 200 KB)"));
    keys.push_back(real_key(
        "ecn.pmax", at(EC, &ecn_config::pmax), real_bounds{0.0, true, 1.0, true, "0 <= x <= 1"},
        "roce: marking probability at kmax (soft: 1, linear to 100 %; DCQCN paper 1 %)"));
    const auto DQ = &config::dcqcn;
    keys.push_back(bool_key("dcqcn.enabled", at(DQ, &dcqcn_config::enabled),
                            "roce: DCQCN rate control per QP at the NIC (CNPs from the receiver)"));
    keys.push_back(real_key(
        "dcqcn.g", at(DQ, &dcqcn_config::g), real_bounds{0.0, false, 1.0, true, "0 < x <= 1"},
        "roce: alpha gain g (ConnectX firmware dce_tcp_g 1019: 5/1024; DCQCN paper 1/256)"));
    keys.push_back(
        unit_key("dcqcn.cnp_interval", at(DQ, &dcqcn_config::cnp_interval), "any", nullptr,
                 "roce: the receiver sends at most one CNP per flow per interval (firmware "
                 "min_time_between_cnps, soft: 4 us; paper N 50 us)"));
    keys.push_back(unit_key("dcqcn.alpha_timer", at(DQ, &dcqcn_config::alpha_timer), "> 0",
                            positive,
                            "roce: alpha decays by (1 - g) every period without a CNP (firmware "
                            "dce_tcp_rtt 1 us; paper K 55 us)"));
    keys.push_back(
        unit_key("dcqcn.rate_timer", at(DQ, &dcqcn_config::rate_timer), "> 0", positive,
                 "roce: rate-increase timer (firmware rpg_time_reset 300 us; paper T 55 us)"));
    keys.push_back(
        unit_key("dcqcn.byte_counter", at(DQ, &dcqcn_config::byte_counter), "> 0", positive,
                 "roce: rate-increase byte counter (firmware rpg_byte_reset 32767, soft; "
                 "paper B 10 MB)",
                 true));
    keys.push_back(
        uint_key("dcqcn.fast_recovery_steps", at(DQ, &dcqcn_config::fast_recovery_steps), 1, 1000,
                 "roce: increase events of fast recovery before additive increase (firmware "
                 "rpg_threshold 1; paper F 5)"));
    keys.push_back(
        unit_key("dcqcn.rate_ai", at(DQ, &dcqcn_config::rate_ai), "any", nullptr,
                 "roce: additive-increase step R_AI (soft: firmware rpg_ai_rate 5 Mb/s x 400G/25G, "
                 "the HPCC simulator's scaling; paper 40 Mb/s at 40G)"));
    keys.push_back(unit_key(
        "dcqcn.rate_hai", at(DQ, &dcqcn_config::rate_hai), "any", nullptr,
        "roce: hyper-increase step R_HAI (soft: firmware rpg_hai_rate 50 Mb/s x 400G/25G)"));
    keys.push_back(
        unit_key("dcqcn.min_rate", at(DQ, &dcqcn_config::min_rate), "> 0", positive,
                 "roce: the current rate never drops below this (firmware rpg_min_rate 1 Mb/s)"));
    return keys;
}

}  // namespace

const std::vector<config_key>& config_schema() {
    static const std::vector<config_key> keys = build_schema();
    return keys;
}

const config_key* find_config_key(std::string_view key) {
    for (const config_key& k : config_schema()) {
        if (k.key == key) return &k;
    }
    return nullptr;
}

const std::vector<std::string>& config_sections() {
    static const std::vector<std::string> sections{
        "link",  "switch",     "endpoint", "traffic", "sim", "fabric", "hca",
        "fault", "collective", "sharp",    "pfc",     "ecn", "dcqcn"};
    return sections;
}

}  // namespace ndr::cfg
