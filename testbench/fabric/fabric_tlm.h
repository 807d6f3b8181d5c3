// The fabric of `ndrsim run --level tlm`: the same topology, up/down LFTs and per-tier cable
// latencies as fabric.h, built from TLM-2.0 models: one ib_switch_tlm per switch, one hca_tlm
// for all hosts and one link_tlm per direction of every cable. Switch ports without a cable are
// closed by a loopback link (never used: no route and no SHARP tree leads there). Construct
// during elaboration (before sc_start).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/timing.h"
#include "config/sim_config.h"
#include "fabric.h"
#include "golden/lft.h"
#include "golden/topology.h"
#include "hca_tlm.h"
#include "ib_switch_tlm.h"
#include "link_tlm.h"
#include "socket_teardown.h"
#include "timed_device.h"

namespace ndr::tb {

class fabric_tlm {
public:
    fabric_tlm(const cfg::config& c, uint32_t hosts);
    fabric_tlm(const fabric_tlm&) = delete;
    fabric_tlm& operator=(const fabric_tlm&) = delete;
    /// SystemC objects newest first: the anchor, wires, switches, the HCAs (socket_teardown.h).
    ~fabric_tlm();
    tlmm::hca_tlm& hcas() { return *hcas_; }
    const common::timing& timing() const { return tm_; }
    const golden::topology& topology() const { return topo_; }
    std::vector<std::unique_ptr<tlmm::ib_switch_tlm>>& switches() { return switches_; }
    tlmm::run_status& status() { return status_; }
    const std::vector<link_ref>& links() const { return links_; }
    uint64_t link_beats(const link_ref& l) const { return *link_beats_at(l); }
    /// Link l's counters (link_beats_in, link_free_in).
    const uint64_t* link_beats_at(const link_ref& l) const {
        return link_beats_in(l, *hcas_, switches_);
    }
    const uint64_t* link_free_at(const link_ref& l) const {
        return link_free_in(l, *hcas_, switches_);
    }
    /// sim.tlm_mode=lt: the global quantum in cycles; 0 in AT.
    uint64_t quantum_cycles() const { return quantum_; }

private:
    fabric_plan plan_;
    const common::timing& tm_;
    const golden::topology& topo_;
    tlmm::run_status status_;
    /// Built first, destroyed first, in that order (socket_teardown.h).
    std::array<std::unique_ptr<tlmm::teardown_anchor>, 2> anchors_;
    std::unique_ptr<tlmm::hca_tlm> hcas_;
    std::vector<std::unique_ptr<tlmm::ib_switch_tlm>> switches_;
    std::vector<std::unique_ptr<tlmm::link_tlm>> wires_;
    std::vector<link_ref> links_;
    uint64_t quantum_ = 0;
};

}  // namespace ndr::tb
