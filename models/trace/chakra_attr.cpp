// Typed access to a Chakra node's attributes (chakra_attr.h).
#include "trace/chakra_attr.h"

#include <fmt/format.h>

#include <limits>
#include <optional>

#include "trace/trace.h"

namespace ndr::trace {

namespace pb = ndr::chakra_et;

namespace {

/// The name of the value field that is set (`int64_val`, `string_val`, ...; "no value").
std::string kind(const pb::AttributeProto& a) {
    if (a.value_case() == pb::AttributeProto::VALUE_NOT_SET) return "no value";
    const auto* f = pb::AttributeProto::descriptor()->FindFieldByNumber(a.value_case());
    return f != nullptr ? f->name() : "an unknown value";
}

/// The value as a signed 128-bit-free pair: nullopt when not an integer kind; `neg` for < 0.
struct int_value {
    bool neg = false;
    uint64_t mag = 0;
};

std::optional<int_value> integer(const pb::AttributeProto& a) {
    const auto s = [](int64_t v) {
        return v < 0 ? int_value{true, static_cast<uint64_t>(-(v + 1)) + 1}
                     : int_value{false, static_cast<uint64_t>(v)};
    };
    switch (a.value_case()) {
        case pb::AttributeProto::kInt32Val:
            return s(a.int32_val());
        case pb::AttributeProto::kInt64Val:
            return s(a.int64_val());
        case pb::AttributeProto::kSint32Val:
            return s(a.sint32_val());
        case pb::AttributeProto::kSint64Val:
            return s(a.sint64_val());
        case pb::AttributeProto::kSfixed32Val:
            return s(a.sfixed32_val());
        case pb::AttributeProto::kSfixed64Val:
            return s(a.sfixed64_val());
        case pb::AttributeProto::kUint32Val:
            return int_value{false, a.uint32_val()};
        case pb::AttributeProto::kUint64Val:
            return int_value{false, a.uint64_val()};
        case pb::AttributeProto::kFixed32Val:
            return int_value{false, a.fixed32_val()};
        case pb::AttributeProto::kFixed64Val:
            return int_value{false, a.fixed64_val()};
        default:
            return std::nullopt;
    }
}

}  // namespace

chakra_attrs::chakra_attrs(const pb::Node& node, const std::string& path)
    : node_(node), path_(path) {
    for (const pb::AttributeProto& a : node.attr()) {
        if (!by_name_.emplace(a.name(), &a).second) {
            // The name is the file's bytes: quoted and escaped (one line), at most 64 of them.
            const std::string shown =
                fmt::format("{:?}", std::string_view(a.name()).substr(0, 64)) +
                (a.name().size() > 64 ? fmt::format("... ({} bytes)", a.name().size()) : "");
            fail(shown, "attribute given twice");
        }
    }
}

void chakra_attrs::fail(std::string_view name, const std::string& why) const {
    throw trace_error(fmt::format("{}: node {}: {}: {}", path_, node_.id(), name, why));
}

int64_t chakra_attrs::required_int(std::string_view name, int64_t lo, int64_t hi) const {
    const auto it = by_name_.find(std::string(name));
    if (it == by_name_.end()) fail(name, "missing (required for this node type)");
    const auto v = integer(*it->second);
    if (!v) fail(name, fmt::format("must be an integer (int64_val), got {}", kind(*it->second)));
    const bool below = v->neg ? (lo >= 0 || v->mag > static_cast<uint64_t>(-(lo + 1)) + 1) : false;
    const bool above = !v->neg && v->mag > static_cast<uint64_t>(hi);
    if (below || above) {
        fail(name, fmt::format("{}{} out of range {}..{}", v->neg ? "-" : "", v->mag, lo, hi));
    }
    return v->neg ? -static_cast<int64_t>(v->mag - 1) - 1 : static_cast<int64_t>(v->mag);
}

int64_t chakra_attrs::int_or(std::string_view name, int64_t def, int64_t lo, int64_t hi) const {
    return has(name) ? required_int(name, lo, hi) : def;
}

std::string chakra_attrs::string_or(std::string_view name, const std::string& def) const {
    const auto it = by_name_.find(std::string(name));
    if (it == by_name_.end()) return def;
    if (it->second->value_case() != pb::AttributeProto::kStringVal) {
        fail(name, fmt::format("must be a string (string_val), got {}", kind(*it->second)));
    }
    return it->second->string_val();
}

}  // namespace ndr::trace
