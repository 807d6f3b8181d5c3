// A fabric of cycle-level switches and HCAs instantiated from the fabric plan (fabric_plan.h:
// topology, up/down LFTs, per-tier cable latencies, peer credits): one SystemC process per
// switch and one for all HCAs. Construct during elaboration (before sc_start).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/timing.h"
#include "config/sim_config.h"
#include "cycle/engine_driver.h"
#include "cycle/hca.h"
#include "cycle/ib_switch.h"
#include "cycle/packet.h"
#include "fabric_plan.h"
#include "golden/lft.h"
#include "golden/topology.h"

namespace ndr::tb {

/// One directed link, for utilisation reports: `tx_beats` of its sender over time.
struct link_ref {
    std::string name;   ///< e.g. "host3->sw0.p3", "sw0.p40->sw4.p0"
    uint32_t tier = 0;  ///< 0 host-leaf, 1 leaf-spine, 2 spine-core
    bool from_host = false;
    uint32_t node = 0;  ///< host index or switch index of the sender
    uint16_t port = 0;  ///< sender's port (switches)
};

/// Where link l's counters live in a fabric's devices, for the utilisation sampler's pass over
/// every link (link_sampler.h): the beats sent so far (counted when a packet is committed to
/// the link) and the cycle its wire is free. The devices size them at construction, so the
/// addresses hold for the fabric's life. Both fabrics (fabric, fabric_tlm) answer through these.
template <class Hcas, class Switches>
const uint64_t* link_beats_in(const link_ref& l, const Hcas& hcas, const Switches& switches) {
    return l.from_host ? &hcas.stats().tx_beats[l.node]
                       : &switches[l.node]->total_out_beats(l.port);
}
template <class Hcas, class Switches>
const uint64_t* link_free_in(const link_ref& l, const Hcas& hcas, const Switches& switches) {
    return l.from_host ? &hcas.tx_free(l.node) : &switches[l.node]->link_free(l.port);
}

class fabric {
public:
    fabric(const cfg::config& c, uint32_t hosts);
    cycle::hca_array& hcas() { return *hcas_; }
    const common::timing& timing() const { return tm_; }
    const golden::topology& topology() const { return topo_; }
    std::vector<std::unique_ptr<cycle::ib_switch>>& switches() { return switches_; }
    cycle::sim_status& status() { return status_; }
    cycle::packet_pool& pool() { return pool_; }
    const std::vector<link_ref>& links() const { return links_; }
    /// Beats sent so far on a link (cumulative).
    uint64_t link_beats(const link_ref& l) const { return *link_beats_at(l); }
    /// Link l's counters (link_beats_in, link_free_in).
    const uint64_t* link_beats_at(const link_ref& l) const {
        return link_beats_in(l, *hcas_, switches_);
    }
    const uint64_t* link_free_at(const link_ref& l) const {
        return link_free_in(l, *hcas_, switches_);
    }
    /// fault.link_down: the cables taken down and the reroutes (fabric_faults.h).
    const fault_plan& faults() const { return plan_.faults; }
    /// Packets lost on fault `x`'s cable (both directions) so far.
    uint64_t fault_drops(const plan_fault& x) const;
    /// Link latency in cycles of a tier.
    uint32_t tier_cycles(uint32_t tier) const { return plan_.tier_cycles[tier]; }

private:
    fabric_plan plan_;
    const common::timing& tm_;
    const golden::topology& topo_;
    cycle::packet_pool pool_;
    cycle::sim_status status_;
    std::unique_ptr<cycle::hca_array> hcas_;
    std::vector<std::unique_ptr<cycle::ib_switch>> switches_;
    std::vector<std::unique_ptr<cycle::engine_driver>> drivers_;
    std::vector<link_ref> links_;
};

}  // namespace ndr::tb
