// `ndrsim run --level tlm`: one trace replayed on the TLM-2.0 fabric (fabric_tlm.h) by the same
// host-side collective engine (replay.h) as the cycle level; same report (run_outcome).
#pragma once
#include "config/sim_config.h"
#include "run_sim.h"
#include "trace/trace.h"

namespace ndr::tb {

run_outcome run_trace_tlm(const cfg::config& c, const trace::trace& tr);

}  // namespace ndr::tb
