#include "roce_report.h"

#include <algorithm>

namespace ndr::tb {

using nlohmann::json;

json pfc_json(const std::vector<common::pfc_port_stats>& s, uint32_t prios, double cycle_ns) {
    common::pfc_port_stats tot;
    json ports = json::array();
    for (std::size_t k = 0; k < s.size(); ++k) {
        const common::pfc_port_stats& x = s[k];
        tot.pause_sent += x.pause_sent;
        tot.resume_sent += x.resume_sent;
        tot.pause_received += x.pause_received;
        tot.resume_received += x.resume_received;
        tot.paused_cycles += x.paused_cycles;
        if (x.pause_sent + x.pause_received + x.paused_cycles == 0) continue;
        ports.push_back({{"port", k / prios},
                         {"priority", k % prios},
                         {"pause_sent", x.pause_sent},
                         {"resume_sent", x.resume_sent},
                         {"pause_received", x.pause_received},
                         {"paused_cycles", x.paused_cycles},
                         {"paused_ns", static_cast<double>(x.paused_cycles) * cycle_ns}});
    }
    return {{"pause_sent", tot.pause_sent},
            {"resume_sent", tot.resume_sent},
            {"pause_received", tot.pause_received},
            {"resume_received", tot.resume_received},
            {"paused_cycles", tot.paused_cycles},
            {"paused_ns", static_cast<double>(tot.paused_cycles) * cycle_ns},
            {"ports", ports}};
}

json switch_roce_json(const common::switch_stats& s, uint32_t prios, double cycle_ns) {
    uint64_t mx = 0;
    double mean = 0.0;
    json per = json::array();
    for (std::size_t o = 0; o < s.egress_max_bytes.size(); ++o) {
        mx = std::max(mx, s.egress_max_bytes[o]);
        mean = std::max(mean, s.egress_mean_bytes[o]);
        if (s.egress_max_bytes[o] == 0) continue;
        per.push_back({{"port", o},
                       {"max_bytes", s.egress_max_bytes[o]},
                       {"mean_bytes", s.egress_mean_bytes[o]}});
    }
    return {{"pfc", pfc_json(s.pfc, prios, cycle_ns)},
            {"ecn_marked", s.ecn_marked},
            {"egress_queue_max_bytes", mx},
            {"egress_queue_mean_bytes", mean},
            {"egress_queue_per_port", per}};
}

}  // namespace ndr::tb
