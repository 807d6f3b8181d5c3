// The `collective` section: the host-side collective engine. One row per key, in listing order; the
// defaults are the initialisers of `collective_config` in sim_config.h.
#include "config/keys/key_builders.h"
#include "config/keys/registrars.h"

namespace ndr::cfg::detail {

void register_collective_keys(std::vector<config_key>& keys) {
    section_keys<collective_config> s(keys, &config::collective);
    s.unit_key("collective.chunk", &collective_config::chunk, "> 0", positive,
               "pipelining unit of ring and tree collectives (NCCL-like chunking)");
}

}  // namespace ndr::cfg::detail
