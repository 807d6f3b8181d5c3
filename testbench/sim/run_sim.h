// `ndrsim run`: one trace replayed on a cycle-level fabric (one simulation per process).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/timing.h"
#include "config/sim_config.h"
#include "cycle/hca.h"
#include "cycle/ib_switch.h"
#include "replay.h"
#include "run_outcome.h"
#include "trace/trace.h"

namespace ndr::tb {

run_outcome run_trace(const cfg::config& c, const trace::trace& tr, const run_options& opt = {});

}  // namespace ndr::tb
