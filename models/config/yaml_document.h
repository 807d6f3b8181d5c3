// One YAML document per file: a config or sweep file with a second document (`---`) used to be
// read up to the first one only, silently. Header-only; include only where yaml-cpp is linked.
#pragma once
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace ndr::cfg {

/// Parses `text`; a second document throws YAML::ParserException at its first line (callers turn
/// that into FILE:LINE: ... errors like any syntax error). An empty text is a null node.
inline YAML::Node load_one_document(const std::string& text) {
    const std::vector<YAML::Node> docs = YAML::LoadAll(text);
    if (docs.size() > 1) {
        throw YAML::ParserException(docs[1].Mark(),
                                    "a second YAML document ('---'): give one document per file");
    }
    return docs.empty() ? YAML::Node() : docs[0];
}

}  // namespace ndr::cfg
