#include "common/ib_cc_setup.h"

#include "golden/credit_fc.h"
#include "golden/ib_cc_table.h"

namespace ndr::common {

bool cc_active(const cfg::config& c) {
    return c.cc.enabled && c.fabric.technology == "ib";
}

golden::cc_marker cc_switch_marker(const cfg::config& c, std::size_t queues) {
    const auto buffer_blocks =
        static_cast<uint32_t>(c.sw.buffer_per_vl.count / golden::CREDIT_BLOCK_BYTES);
    return golden::cc_marker(queues, c.cc.threshold, buffer_blocks, c.cc.marking_rate,
                             c.cc.packet_size);
}

bool cc_victim_mask(const cfg::config& c, bool to_ca) {
    return c.cc.victim_mask == "all" || (to_ca && c.cc.victim_mask == "ca");
}

golden::cc_ca_params cc_ca(const cfg::config& c) {
    golden::cc_ca_params p;
    p.increase = c.cc.ccti_increase;
    p.limit = c.cc.ccti_limit;
    p.min = c.cc.ccti_min;
    p.timer_ps = c.cc.ccti_timer.ps;
    p.ird_ps = golden::cct_delays_ps(golden::cct_parse(c.cc.cct), c.cc.ird_unit.ps);
    return p;
}

}  // namespace ndr::common
