// One entry of the configuration registry (see config_schema.h): a dotted key, how its text is
// parsed into the typed `config`, how it prints, and its single-field range check.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "config/sim_config.h"

namespace ndr::cfg {

/// The value type of a key, which fixes its text syntax.
enum class value_kind {
    uint,     ///< whole number: `64`
    real,     ///< decimal number: `1.25`
    boolean,  ///< `true` | `false`
    choice,   ///< one of `config_key::choices`
    text,     ///< free string with a key-specific syntax (may be empty)
    bytes,    ///< size: `32KiB`, `4096`
    time,     ///< duration: `300ns`, `4.096us`
    rate,     ///< data rate: `400Gbps`
    length,   ///< length: `3m`
};

/// Lower-case name of a kind, as shown by `ndrsim config keys`: uint, real, bool, enum,
/// string, size, time, rate, length.
std::string_view kind_name(value_kind kind);

struct config_key {
    std::string key;  ///< `section.field`, e.g. `switch.buffer_per_vl`
    value_kind kind = value_kind::uint;
    std::string unit;                  ///< base unit of the stored value: B, ps, bps, mm or ""
    std::string range;                 ///< valid values in words, e.g. `2..64`
    std::vector<std::string> choices;  ///< allowed values of a `choice` key
    std::string help;    ///< one line: meaning, unit, docs/domain.md source of default
    std::string source;  ///< the page the help cites, e.g. `docs/domain.md §13`; "" = none

    /// Parses `text` and stores it into the config. Throws `config_error` with a reason only.
    std::function<void(config&, std::string_view)> parse;
    /// The current value as text in the nicest exact unit; `parse(format(c))` is lossless.
    std::function<std::string(const config&)> format;
    /// Single-field range check: "" if the value is valid, else the reason. Checks that involve
    /// other fields live in `validate()`.
    std::function<std::string(const config&)> check;
};

}  // namespace ndr::cfg
