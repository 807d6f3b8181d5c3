// The typed configuration of one ndrsim run: one struct per YAML section, each declared with its
// rows in config/keys/SECTION_keys.h. Field initialisers are THE defaults (one source): a
// Quantum-2-class NDR switch with ConnectX-class endpoints, docs/domain.md §13 "Realistic
// defaults". YAML key = section.field (e.g. `switch.buffer_per_vl: 32KiB`).
#pragma once
#include "config/keys/cc_keys.h"
#include "config/keys/collective_keys.h"
#include "config/keys/dcqcn_keys.h"
#include "config/keys/ecn_keys.h"
#include "config/keys/endpoint_keys.h"
#include "config/keys/fabric_keys.h"
#include "config/keys/fault_keys.h"
#include "config/keys/hca_keys.h"
#include "config/keys/host_keys.h"
#include "config/keys/jobs_keys.h"
#include "config/keys/link_keys.h"
#include "config/keys/nccl_keys.h"
#include "config/keys/node_keys.h"
#include "config/keys/pfc_keys.h"
#include "config/keys/report_keys.h"
#include "config/keys/routing_keys.h"
#include "config/keys/sharp_keys.h"
#include "config/keys/sim_keys.h"
#include "config/keys/switch_keys.h"
#include "config/keys/traffic_keys.h"

namespace ndr::cfg {

struct config {
    link_config link;
    switch_config sw;  ///< YAML section `switch`
    endpoint_config endpoint;
    traffic_config traffic;
    sim_config sim;
    fabric_config fabric;
    routing_config routing;
    hca_config hca;
    fault_config fault;
    collective_config collective;
    host_config host;
    nccl_config nccl;
    sharp_config sharp;
    pfc_config pfc;
    ecn_config ecn;
    dcqcn_config dcqcn;
    cc_config cc;  ///< InfiniBand congestion control (IBTA Annex A10)
    node_config node;
    report_config report;
    jobs_config jobs;
};

}  // namespace ndr::cfg
