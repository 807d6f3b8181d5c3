// TLM-2.0 level (label `tlm`): zero-load timing, the scoreboard (pass and an injected fault) and
// the per-flow agreement with the cycle level. One simulation per TEST_CASE; ctest runs each
// case in its own process (tests/tlm/CMakeLists.txt registers them one by one).
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <string>
#include <tuple>

#include <systemc>

#include "common/timing.h"
#include "config/sim_config.h"
#include "cycle/engine_driver.h"
#include "cycle/ib_switch.h"
#include "cycle/link_tap.h"
#include "cycle/traffic_endpoints.h"
#include "golden/lft.h"
#include "golden/sl2vl.h"
#include "scoreboard.h"
#include "traffic_sim.h"
#include "traffic_tlm_sim.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

/// (src, dst, sl, flow_seq, created, wire bytes): a packet's identity independent of its id.
using flow_key = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint64_t, uint32_t>;

void guard_fresh_kernel() {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    REQUIRE(sc_core::sc_time_stamp() == sc_core::SC_ZERO_TIME);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
}

ndr::cfg::config small_config(double load) {
    ndr::cfg::config c;
    c.sw.ports = 16;
    c.traffic.load = load;
    c.sim.warmup_cycles = 2'000;
    c.sim.measure_cycles = 20'000;
    return c;
}

ndr::golden::lft identity_routes(uint32_t ports) {
    ndr::golden::lft r(static_cast<uint16_t>(ports));
    for (uint32_t p = 0; p < ports; ++p) {
        r.set(static_cast<uint16_t>(p + 1), static_cast<uint8_t>(p));
    }
    return r;
}

std::string flow_file(const std::string& level) {
    return std::string(NDR_TLM_TEST_DIR) + "/flows_" + level + ".txt";
}

void write_flows(const std::string& level, const std::set<flow_key>& flows) {
    std::ofstream f(flow_file(level));
    for (const auto& [s, d, sl, seq, created, wire] : flows) {
        f << s << ' ' << d << ' ' << sl << ' ' << seq << ' ' << created << ' ' << wire << '\n';
    }
    REQUIRE(f.good());
}

std::set<flow_key> read_flows(const std::string& level) {
    std::ifstream f(flow_file(level));
    REQUIRE(f.good());
    std::set<flow_key> flows;
    uint32_t s = 0, d = 0, sl = 0, seq = 0, wire = 0;
    uint64_t created = 0;
    while (f >> s >> d >> sl >> seq >> created >> wire) flows.emplace(s, d, sl, seq, created, wire);
    return flows;
}

/// Records the measured packets leaving a cycle-level switch output.
class flow_tap : public ndr::cycle::link_tap {
public:
    explicit flow_tap(std::set<flow_key>& out) : out_(out) {}
    void on_packet(ndr::common::cycle_t, const ndr::cycle::packet& p) override {
        if (p.tagged) out_.emplace(p.src, p.dst, p.sl, p.flow_seq, p.created, p.wire_bytes);
    }

private:
    std::set<flow_key>& out_;
};

}  // namespace

TEST_CASE("tlm: zero-load latency is 2 link + switch + serialisation, as the cycle model") {
    guard_fresh_kernel();
    ndr::cfg::config c = small_config(0.005);
    const ndr::common::timing tm = ndr::common::derive_timing(c);
    const ndr::tb::traffic_outcome o = ndr::tb::run_traffic_tlm(c);
    REQUIRE(o.ep.tagged_delivered == o.ep.window_created);
    REQUIRE(o.ep.window_created > 0);
    uint64_t min = 0;
    while (o.ep.latency_hist[min] == 0) ++min;
    // 4096 B payload: 4122 B on the wire = 65 beats; 90 + 235 + 90 + 65 = 480 cycles.
    CHECK(min == 2U * tm.link_cycles + tm.switch_cycles + 65U);
    CHECK(min == 480);
    CHECK(o.dropped == 0);
}

TEST_CASE("tlm: scoreboard passes on the TLM switch") {
    guard_fresh_kernel();
    ndr::cfg::config c = small_config(0.5);
    c.traffic.sl = "0@1,1@1";  // both data VLs
    ndr::tlmm::scoreboard sb(identity_routes(c.sw.ports),
                             ndr::golden::sl2vl_table::parse(c.sw.sl2vl, c.sw.vls), c.sw.ports);
    ndr::tb::tlm_run_hooks h;
    h.on_inject = [&](uint64_t t, uint16_t p, const ndr::tlmm::ib_extension& e) {
        sb.on_input(t, p, e);
    };
    h.on_egress = [&](uint64_t t, uint16_t p, const ndr::tlmm::ib_extension& e) {
        sb.on_output(t, p, e);
    };
    const ndr::tb::traffic_outcome o = ndr::tb::run_traffic_tlm(c, h);
    // Packets still inside at the end are not a mismatch: compare only what came out.
    INFO((sb.first_mismatch() ? sb.first_mismatch()->str() : std::string("none")));
    CHECK(sb.ok());
    CHECK(sb.matched() > 1000);
    CHECK(sb.matched() >= o.ep.delivered);
}

TEST_CASE("tlm: scoreboard reports a packet dropped by the switch") {
    guard_fresh_kernel();
    ndr::cfg::config c = small_config(0.3);
    c.sim.check_invariants = false;  // the endpoints would stop the run at the sequence gap
    ndr::tlmm::scoreboard sb(identity_routes(c.sw.ports),
                             ndr::golden::sl2vl_table::parse(c.sw.sl2vl, c.sw.vls), c.sw.ports);
    ndr::tb::tlm_run_hooks h;
    h.drop_packet_id = 100;
    ndr::tlmm::ib_extension dropped;
    h.on_inject = [&](uint64_t t, uint16_t p, const ndr::tlmm::ib_extension& e) {
        if (e.id == h.drop_packet_id) dropped = e;
        sb.on_input(t, p, e);
    };
    h.on_egress = [&](uint64_t t, uint16_t p, const ndr::tlmm::ib_extension& e) {
        sb.on_output(t, p, e);
    };
    const ndr::tb::traffic_outcome o = ndr::tb::run_traffic_tlm(c, h);
    sb.finish(o.cycles);
    REQUIRE_FALSE(sb.ok());
    const ndr::tlmm::sb_mismatch& m = *sb.first_mismatch();
    INFO(m.str());
    REQUIRE(m.expected.has_value());
    CHECK(m.expected->id == 100);
    CHECK(m.expected->src == dropped.src);
    CHECK(m.port == dropped.dst);  // identity routes: output = destination
    CHECK(m.vl == 0);
    // Either the next packet of the same (input, output, VL) stream came instead, or nothing.
    if (m.got) {
        CHECK(m.got->src == dropped.src);
        CHECK(m.got->dst == dropped.dst);
    }
    CHECK(m.time > 0);
}

TEST_CASE("flows: cycle engine") {
    guard_fresh_kernel();
    namespace cy = ndr::cycle;
    const ndr::cfg::config c = small_config(0.2);
    const ndr::common::timing tm = ndr::common::derive_timing(c);
    cy::packet_pool pool;
    cy::ib_switch sw(c, tm, pool, identity_routes(c.sw.ports));
    ndr::tb::traffic_endpoints eps(c, tm, pool);
    std::set<flow_key> flows;
    flow_tap tap(flows);
    for (uint32_t p = 0; p < c.sw.ports; ++p) {
        const auto port = static_cast<uint16_t>(p);
        sw.connect(port, cy::link_peer{&eps, port, tm.link_cycles}, tm.ep_buffer_blocks);
        eps.connect(port, cy::link_peer{&sw, port, tm.link_cycles}, tm.sw_credit_blocks);
        sw.set_tap(port, &tap);
    }
    cy::sim_status status;
    cy::engine_driver d_sw("switch", sw, tm.cycle_ps, status);
    cy::engine_driver d_ep("endpoints", eps, tm.cycle_ps, status);
    const uint64_t ws = c.sim.warmup_cycles;
    const uint64_t we = ws + c.sim.measure_cycles;
    sw.start(0);
    eps.start(0);
    sw.set_window(ws, we);
    eps.set_window(ws, we);
    cy::sc_run_until(we + 20'000, tm.cycle_ps, status);
    REQUIRE(eps.tagged_outstanding() == 0);
    REQUIRE(flows.size() == eps.stats().window_created);
    write_flows("cycle", flows);
}

TEST_CASE("flows: tlm engine") {
    guard_fresh_kernel();
    const ndr::cfg::config c = small_config(0.2);
    std::set<flow_key> flows;
    ndr::tb::tlm_run_hooks h;
    h.on_egress = [&](uint64_t, uint16_t, const ndr::tlmm::ib_extension& e) {
        if (e.tagged) flows.emplace(e.src, e.dst, e.sl, e.flow_seq, e.created, e.wire_bytes);
    };
    const ndr::tb::traffic_outcome o = ndr::tb::run_traffic_tlm(c, h);
    REQUIRE(o.ep.tagged_delivered == o.ep.window_created);
    REQUIRE(flows.size() == o.ep.window_created);
    write_flows("tlm", flows);
}

TEST_CASE("flows: both engines deliver the same packets per (src, dst)") {
    const std::set<flow_key> a = read_flows("cycle");
    const std::set<flow_key> b = read_flows("tlm");
    REQUIRE(a.size() > 1000);
    CHECK(a.size() == b.size());
    CHECK(a == b);
}
