// `ndrsim run` with a link fault: a leaf-spine cable of a 2-level fat tree goes down in the
// middle of a ring allreduce (fault.link_down); the packets on it are lost, the subnet manager
// reroutes fault.reroute_delay later and RC retransmits what was lost (hca.ack_timeout 1 ms).
//
// Workload: ring allreduce, 16 ranks, S = 8 MiB, fabric.topology fat_tree, switch.ports 8
// (4 leaves of 4 hosts, 2 spines, 2 parallel cables per leaf-spine pair). Expectations by hand:
//   every rank sends 2(n-1) blocks of S/n to its ring successor, so
//   payload_bytes_delivered = n * 2(n-1) * S/n = 2 * 15 * 8 MiB = 251658240 B, exactly once
//   reroute_ns = down_ns + fault.reroute_delay = 100000 + 2000000 ns
// The loss-free run ends in 0.36 ms, so the cable (host 0..3's leaf to spine sw4) carries ring
// traffic at 100 us and a run with it down cannot end before the reroute at 2.1 ms.
//
// One simulation per TEST_CASE.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <systemc>

#include "../temp_dir.h"
#include "config/config_loader.h"
#include "run_report.h"
#include "run_sim.h"
#include "trace/trace.h"

extern "C" int sc_main(int, char*[]) {
    return 0;
}

namespace {

constexpr uint32_t N = 16;
constexpr uint64_t S = 8ULL << 20;

TEST_CASE("link fault: ring allreduce 16 ranks 8 MiB leaf-spine cable down at 100us",
          "[run][fault]") {
    REQUIRE(sc_core::sc_get_status() == sc_core::SC_ELABORATION);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::string ranks;
    for (uint32_t r = 0; r < N; ++r) ranks += (r ? "," : "") + std::to_string(r);
    std::string text =
        "{\"type\":\"header\",\"version\":1,\"nranks\":16,\"name\":\"fault\"}\n"
        "{\"type\":\"comm\",\"id\":0,\"ranks\":[" +
        ranks + "]}\n";
    for (uint32_t r = 0; r < N; ++r) {
        text += "{\"type\":\"op\",\"rank\":" + std::to_string(r) +
                ",\"comm\":0,\"seq\":0,\"op\":\"allreduce\",\"count\":" + std::to_string(S / 4) +
                ",\"dtype\":\"fp32\",\"redop\":\"sum\",\"algo\":\"ring\"}\n";
    }
    const std::string path = ndr::test::temp_dir() + "ndrsim_link_fault_" +
                             std::to_string(static_cast<long>(::getpid())) + ".jsonl";
    {
        std::ofstream f(path);
        f << text;
        REQUIRE(f.good());
    }
    const ndr::cfg::config c = ndr::cfg::load_config(
        "", {"fabric.topology=fat_tree", "switch.ports=8", "sim.check_invariants=true",
             "hca.ack_timeout=1ms", "fault.link_down=sw0.p4->sw4.p0@100us"});
    const ndr::trace::trace tr = ndr::trace::load_trace(path);
    std::remove(path.c_str());

    ndr::tb::run_outcome o;
    REQUIRE_NOTHROW(o = ndr::tb::run_trace(c, tr));
    const nlohmann::json rep = ndr::tb::run_report_json(c, tr, o);
    INFO("hca = " << rep["hca"].dump() << " link_faults = " << rep["link_faults"].dump());
    REQUIRE(o.collectives.size() == 1);
    REQUIRE(o.collectives[0].done);
    const auto& h = o.hca;
    CHECK(h.messages_delivered == h.messages_posted);
    CHECK(h.payload_bytes_delivered == 2ULL * (N - 1) * S);  // every byte, exactly once
    CHECK(h.retransmitted_packets > 0);
    REQUIRE(rep["link_faults"].size() == 1);
    const nlohmann::json& f = rep["link_faults"][0];
    CHECK(f["link"] == "sw0.p4->sw4.p0");
    CHECK(f["down_ns"].get<double>() == 100000.0);
    CHECK(f["reroute_ns"].get<double>() == 100000.0 + 2000000.0);
    CHECK(f["packets_lost"].get<uint64_t>() > 0);
    CHECK(rep["collectives"][0]["end_ns"].get<double>() > 2100000.0);
    WARN("link fault: end " << rep["collectives"][0]["end_ns"].get<double>() << " ns, lost "
                            << f["packets_lost"] << ", retransmitted " << h.retransmitted_packets
                            << ", timeouts " << h.timeouts);
}

}  // namespace
