// Report sections of the RoCE model (fabric.technology = roce, docs/roce.md): PFC counters
// per (port, priority), ECN marks and egress queue depth, for `run` and `traffic` reports.
#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/pfc_port_stats.h"
#include "common/switch_stats.h"

namespace ndr::tb {

/// {pause_sent, resume_sent, pause_received, resume_received, paused_cycles, paused_ns,
///  ports: [{port, priority, ...}] for the (port, priority) pairs with any PFC activity}.
nlohmann::json pfc_json(const std::vector<common::pfc_port_stats>& s, uint32_t prios,
                        double cycle_ns);
/// The switch's RoCE section: {pfc, ecn_marked, egress_queue_max_bytes,
/// egress_queue_mean_bytes (max over ports of the time mean), egress_queue_per_port}.
nlohmann::json switch_roce_json(const common::switch_stats& s, uint32_t prios, double cycle_ns);

}  // namespace ndr::tb
