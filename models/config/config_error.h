// The one exception type of the configuration layer. Messages are one line:
//   `FILE:LINE: KEY: REASON`  a value in a YAML file
//   `--set KEY: REASON`       a command-line override
//   `KEY: REASON`             validation of the merged config
#pragma once
#include <stdexcept>
#include <string>

#include "config/config_source.h"

namespace ndr::cfg {

struct config_error : std::runtime_error {
    /// A problem with `key` (may be empty for whole-file problems) from `where`.
    config_error(config_source where, std::string key_name, std::string why);
    /// A bare reason, not yet tied to a key or source (thrown by the value parsers; the loader
    /// re-throws it with the key and source attached). Its message is the reason alone.
    explicit config_error(std::string why);

    config_source source;  ///< where the offending value came from
    std::string key;       ///< dotted key, e.g. `switch.buffer_per_vl`; may be empty
    std::string reason;    ///< what is wrong, e.g. `expected a size like 32KiB, got '32KB/s'`
};

/// The one-line message for a problem with `key` from `where` (newlines in `reason` become
/// spaces).
std::string format_config_message(const config_source& where, const std::string& key,
                                  const std::string& reason);

}  // namespace ndr::cfg
