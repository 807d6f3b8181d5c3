// The `collective` section: the host-side collective engine.
// Each parameter is one field here, with its default as the initialiser, and one row in
// collective_rows() below (key, range, help with its source), in the order `ndrsim config keys`
// lists them. Adding a key to this section touches no other config file.
#pragma once
#include <cstdint>
#include <string>

#include "config/keys/key_checks.h"
#include "config/units.h"

namespace ndr::cfg {

/// Host-side collective engine.
struct collective_config {
    bytes_t chunk{1 << 20};  ///< pipelining unit of ring/tree algorithms (NCCL-like)
};

namespace detail {

/// The rows of the `collective` section; `s` is a section_keys<collective_config>
/// (config/keys/key_builders.h).
template <class Rows>
void collective_rows(Rows& s) {
    s.unit_key("collective.chunk", &collective_config::chunk, "> 0", positive,
               "pipelining unit of ring and tree collectives (NCCL-like chunking)");
}

}  // namespace detail
}  // namespace ndr::cfg
