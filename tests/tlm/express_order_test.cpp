// The TLM switch keeps the packets of one (input, output) flow on one VL in order, express ACKs
// included (IBTA: a switch delivers a VL's packets from one input port to one output port in
// the order they arrived; only different paths reorder a QP's packets). A hand-built sequence on
// one ib_switch_tlm: inputs 1, 2 and 3 each send MTU packets to output 0 so that other inputs
// wait for it; input 4 sends, on the same VL to output 0, a stream of express ACKs (increasing
// PSN, as one QP's responder emits them) with a data packet in between. Expected independently
// of the model's timing: input 4's packets leave output 0 in the order they were sent. Before
// the fix (ib_switch_tlm::flow_express_at_) express ACKs 52 and 53, which arrived when fewer
// inputs waited, left before ACK 42 (the "ACK for PSN N out of window" stop of a 1,024-rank
// tree allreduce). One simulation (SystemC elaborates once per process).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>

#include "common/packet_kind.h"
#include "common/timing.h"
#include "config/sim_config.h"
#include "golden/credit_fc.h"
#include "golden/ib_packet.h"
#include "golden/lft.h"
#include "golden/opcode.h"
#include "ib_switch_tlm.h"
#include "payload_pool.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

using ndr::tlmm::ib_extension;
using ndr::tlmm::ib_of;

/// One packet to inject: at cycle `at` on input `in`, to output `dst`.
struct inject {
    uint64_t at;
    uint16_t in;
    uint16_t dst;
    bool ack;
};

/// Drives every port of one switch: injects the packets of a plan, records what leaves, sinks
/// FC updates and upstream responses.
class driver : public sc_core::sc_module {
public:
    using init_socket = tlm_utils::simple_initiator_socket_tagged<driver>;
    using targ_socket = tlm_utils::simple_target_socket_tagged<driver>;
    std::vector<std::unique_ptr<init_socket>> to_in;
    std::vector<std::unique_ptr<targ_socket>> from_out;
    std::vector<std::unique_ptr<targ_socket>> from_fc;
    std::vector<std::unique_ptr<init_socket>> to_fc;
    /// The packets in the order they left each output.
    std::vector<std::vector<ib_extension>> left;

    SC_HAS_PROCESS(driver);
    driver(sc_core::sc_module_name name, const ndr::common::timing& tm, uint32_t ports,
           std::vector<inject> plan)
        : sc_core::sc_module(name),
          left(ports),
          cycle_ps_(tm.cycle_ps),
          block_bytes_(tm.block_bytes),
          plan_(std::move(plan)) {
        for (uint32_t p = 0; p < ports; ++p) {
            const int id = static_cast<int>(p);
            const std::string n = std::to_string(p);
            to_in.push_back(std::make_unique<init_socket>(("to_in_" + n).c_str()));
            to_in.back()->register_nb_transport_bw(this, &driver::in_bw, id);
            from_out.push_back(std::make_unique<targ_socket>(("from_out_" + n).c_str()));
            from_out.back()->register_nb_transport_fw(this, &driver::out_fw, id);
            from_fc.push_back(std::make_unique<targ_socket>(("from_fc_" + n).c_str()));
            from_fc.back()->register_nb_transport_fw(this, &driver::fc_fw, id);
            to_fc.push_back(std::make_unique<init_socket>(("to_fc_" + n).c_str()));
        }
        SC_THREAD(run);
    }

private:
    void run() {
        uint64_t now = 0;
        uint64_t next_id = 0;
        for (const inject& k : plan_) {
            if (k.at > now) {
                wait(sc_core::sc_time(static_cast<double>((k.at - now) * cycle_ps_),
                                      sc_core::SC_PS));
                now = k.at;
            }
            tlm::tlm_generic_payload& gp = pool_.allocate();
            gp.acquire();  // released on the switch's upstream response
            ib_extension& e = ib_of(gp);
            e = ib_extension{};
            e.id = next_id++;
            e.src = k.in;
            e.dst = k.dst;
            const uint32_t payload = k.ack ? 0U : 4096U;
            const uint8_t op =
                k.ack ? ndr::golden::RC_ACKNOWLEDGE : ndr::golden::RC_RDMA_WRITE_ONLY;
            e.wire_bytes = ndr::golden::wire_bytes(payload, op, false);
            e.payload_bytes = payload;
            e.blocks = static_cast<uint16_t>(ndr::golden::blocks_for_bytes(e.wire_bytes));
            e.beats = (e.wire_bytes + block_bytes_ - 1) / block_bytes_;
            e.pkt_beats = static_cast<uint16_t>(e.beats);
            e.kind = k.ack ? ndr::common::PK_ACK : ndr::common::PK_DATA;
            e.opcode = op;
            e.psn = static_cast<uint32_t>(e.id);
            e.express = k.ack;
            gp.set_address(k.dst + 1U);
            gp.set_data_length(e.wire_bytes);
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            sc_core::sc_time d = sc_core::SC_ZERO_TIME;
            (*to_in[k.in])->nb_transport_fw(gp, ph, d);
        }
    }
    tlm::tlm_sync_enum in_bw(int, tlm::tlm_generic_payload& gp, tlm::tlm_phase&,
                             sc_core::sc_time&) {
        gp.release();
        return tlm::TLM_COMPLETED;
    }
    tlm::tlm_sync_enum out_fw(int port, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                              sc_core::sc_time&) {
        left[static_cast<std::size_t>(port)].push_back(ib_of(gp));
        tlm::tlm_phase resp = tlm::BEGIN_RESP;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        (*from_out[static_cast<std::size_t>(port)])->nb_transport_bw(gp, resp, d);
        ph = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    tlm::tlm_sync_enum fc_fw(int, tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) {
        return tlm::TLM_COMPLETED;
    }

    uint64_t cycle_ps_;
    uint32_t block_bytes_;
    std::vector<inject> plan_;
    ndr::tlmm::payload_pool pool_;
};

}  // namespace

TEST_CASE("express: one input's ACKs and data leave an output in the order they arrived") {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    ndr::cfg::config c;
    c.sw.ports = 8;
    const ndr::common::timing tm = ndr::common::derive_timing(c);
    ndr::golden::lft routes(static_cast<uint16_t>(c.sw.ports));
    for (uint32_t p = 0; p < c.sw.ports; ++p) {
        routes.set(static_cast<uint16_t>(p + 1), static_cast<uint8_t>(p));
    }
    // Inputs 1-3: six MTU packets each to output 0, one per 65-beat wire time (so that two of
    // them wait whenever the output serves the third, then fewer as the queue drains). Input 4:
    // an express ACK every 7 cycles from cycle 30 on (100 of them, past the drain) and, with
    // the 51st, one MTU data packet; all to output 0 on VL 0.
    std::vector<inject> plan;
    for (uint64_t t = 0; t < 6 * 65; t += 65) {
        for (uint16_t in = 1; in <= 3; ++in) plan.push_back({t, in, 0, false});
    }
    std::vector<uint64_t> stream;  // input 4's injection order (ids are assigned in plan order)
    for (uint64_t k = 0; k < 100; ++k) {
        plan.push_back({30 + 7 * k, 4, 0, true});
        if (k == 50) plan.push_back({30 + 7 * k, 4, 0, false});
    }
    std::stable_sort(plan.begin(), plan.end(),
                     [](const inject& a, const inject& b) { return a.at < b.at; });
    for (std::size_t i = 0; i < plan.size(); ++i) {
        if (plan[i].in == 4) stream.push_back(i);
    }
    ndr::tlmm::run_status status;
    ndr::tlmm::ib_switch_tlm sw("sw", c, tm, routes, status);
    driver drv("drv", tm, c.sw.ports, plan);
    for (uint32_t p = 0; p < c.sw.ports; ++p) {
        drv.to_in[p]->bind(*sw.in[p]);
        sw.out[p]->bind(*drv.from_out[p]);
        sw.fc_out[p]->bind(*drv.from_fc[p]);
        drv.to_fc[p]->bind(*sw.fc_in[p]);
        sw.connect(static_cast<uint16_t>(p), 2048);  // no FC returns: enough credits for all
    }
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
    status.rethrow();
    // Every packet left output 0.
    REQUIRE(drv.left[0].size() == plan.size());
    std::vector<uint64_t> got;
    std::size_t first_ack = plan.size();
    std::size_t last_other = 0;
    for (std::size_t i = 0; i < drv.left[0].size(); ++i) {
        const ib_extension& e = drv.left[0][i];
        if (e.src != 4) {
            last_other = i;
            continue;
        }
        got.push_back(e.id);
        if (e.kind == ndr::common::PK_ACK) first_ack = std::min(first_ack, i);
    }
    // Input 4's ACKs went out while inputs 1-3 still competed for the output (the case that
    // reordered); otherwise the sequence would not exercise the express path under load.
    REQUIRE(first_ack < last_other);
    CHECK(got == stream);
}
