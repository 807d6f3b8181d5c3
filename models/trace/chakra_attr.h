// The attributes of one Chakra node by name, with typed access whose errors name the file, the
// node id and the attribute (`FILE: node ID: NAME: REASON`). Internal to models/trace.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "chakra_et.pb.h"

namespace ndr::trace {

class chakra_attrs {
public:
    /// Throws trace_error for an attribute name given twice.
    chakra_attrs(const ndr::chakra_et::Node& node, const std::string& path);

    bool has(std::string_view name) const { return by_name_.count(std::string(name)) != 0; }
    /// An integer attribute (any of the integer value kinds: int32/int64/uint32/uint64/sint*/
    /// fixed*/sfixed*) in [lo, hi]; throws when missing, of another kind or out of range.
    int64_t required_int(std::string_view name, int64_t lo, int64_t hi) const;
    /// As required_int, `def` when the node has no such attribute.
    int64_t int_or(std::string_view name, int64_t def, int64_t lo, int64_t hi) const;
    /// A string_val attribute; `def` when missing; throws when of another kind.
    std::string string_or(std::string_view name, const std::string& def) const;

private:
    [[noreturn]] void fail(std::string_view name, const std::string& why) const;

    const ndr::chakra_et::Node& node_;
    const std::string& path_;
    std::map<std::string, const ndr::chakra_et::AttributeProto*> by_name_;
};

}  // namespace ndr::trace
