// The one reader of config and sweep files' YAML (one rule for both): a byte-order mark at the
// start is skipped; a syntax error, a second document (`---`, once read up to the first only), a
// key given twice in one map (once: first wins), a quoted value without its closing quote (once:
// read to the end of the file, `"4096` became '4096 ') and a byte-order mark at the start of a
// later line are refused as config_error(`FILE:LINE: KEY: REASON`).
#pragma once
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>

namespace ndr::cfg {

/// The largest config or sweep file read (a file without end, such as /dev/zero, must not fill
/// memory).
inline constexpr std::size_t MAX_YAML_FILE_BYTES = std::size_t{16} << 20;

/// The whole text of the config or sweep file `path`; throws config_error `FILE: cannot read
/// the file: REASON` or `FILE: larger than 16 MiB ...`.
std::string read_yaml_file(const std::string& path);

/// Parses `text`, the contents of the file `path` (used in messages); an empty text (or only
/// comments) is a null node. Duplicate keys are named by their dotted path from the top, e.g.
/// `switch.ports` or `axes.traffic.load` (`zip[0].hca.mtu` inside a list).
YAML::Node load_one_document(std::string text, const std::string& path);

}  // namespace ndr::cfg
